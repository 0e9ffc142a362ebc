import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.ts';
import { runRun } from '../../src/cli/run-command.ts';
import { runVerify } from '../../src/cli/verify-command.ts';
import type { SandboxRuntime } from '../../src/core/ports/sandbox-port.ts';
import { spadeSubprocess, type SpadeResult } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const SCRIPT = 'tests/fixtures/scripted/hint-helps.json';

function jsonl(dir: string, file: string): Array<Record<string, unknown>> {
  return readFileSync(join(dir, file), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const noSandbox = (): SandboxRuntime => {
  throw new Error('usage errors and verify need no sandbox');
};

let out: string;
let result: SpadeResult;
beforeAll(() => {
  out = tempDir('spade-run-');
  result = spadeSubprocess(
    'run',
    '--model',
    `scripted:${SCRIPT}`,
    '--epochs',
    '2',
    '--seed',
    '7',
    '--out',
    out,
    '--slots',
    '2',
    '--plays',
    '2',
    '--max-turns',
    '3',
    '--skills',
    'logical deduction',
  );
});

describe('spade run', () => {
  it('prints one line per epoch and a summary', () => {
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(
      /^epoch 1: 2\/2 valid \(validity 0\.67\), regret 0\.50, win rate 0\.50, designer reward 0\.20, 8 episodes/m,
    );
    expect(result.stdout).toMatch(/^epoch 2: /m);
    expect(result.stdout).toContain(
      'top environments by designer reward (ids count epochs and slots from 0, as the files do):',
    );
    // Each id is read out in the epoch lines' numbering: e0001-s00 is epoch 2, slot 1.
    expect(result.stdout).toMatch(/^ {2}e0001-s0(0 \(epoch 2, slot 1\)|1 \(epoch 2, slot 2\)) /m);
    for (const [, epoch, slot, place] of result.stdout.matchAll(/^ {2}e(\d{4})-s(\d{2}) \((.*?)\)/gm))
      expect(place).toBe(`epoch ${Number(epoch) + 1}, slot ${Number(slot) + 1}`);
    expect(result.stdout).toContain(`written to ${out}`);
  });

  it('writes the run files with the documented fields', () => {
    const environments = jsonl(out, 'environments.jsonl');
    expect(environments).toHaveLength(4);
    for (const env of environments) {
      expect(env).toMatchObject({ skill: 'Logical Deduction', status: 'valid' });
      expect(env.sha256).toBe(createHash('sha256').update(String(env.code)).digest('hex'));
      expect(env).toHaveProperty('hint');
      expect(env).toHaveProperty('stats.regret');
      expect((env.attempts as Array<{ validation: unknown }>)[0]!.validation).toHaveProperty('code');
    }
    const episodes = jsonl(out, 'episodes.jsonl');
    expect(episodes).toHaveLength(16);
    expect(episodes[0]).toMatchObject({ arm: 'nohint', rollout: 0, return: 0 });
    expect(episodes[0]).toHaveProperty('seed');
    expect((episodes[0]!.turns as unknown[]).length).toBe(3);
    expect(jsonl(out, 'epochs.jsonl').map((m) => m.epoch)).toEqual([0, 1]);
    const rollouts = jsonl(out, 'rollouts.jsonl');
    expect(rollouts.filter((r) => r.role === 'designer')).toHaveLength(4);
    expect(rollouts.filter((r) => r.role === 'agent')).toHaveLength(8);
    expect(
      rollouts
        .filter((r) => r.role === 'agent')
        .every((r) =>
          episodes.some(
            (e) =>
              e.arm === 'nohint' &&
              JSON.stringify((r.messages as unknown[]).length) === JSON.stringify((e.messages as unknown[]).length),
          ),
        ),
    ).toBe(true);
    for (const row of rollouts)
      expect(Object.keys(row)).toEqual(expect.arrayContaining(['role', 'messages', 'reward', 'advantage', 'group']));
    expect(JSON.parse(readFileSync(join(out, 'config.json'), 'utf8'))).toMatchObject({
      model: 'scripted:hint-helps.json',
      config: { seed: 7, playsPerArm: 2 },
    });
  });

  it('wrote files that spade verify recomputes without a mismatch (made with the real sandbox)', async () => {
    const lines: string[] = [];
    expect(await runVerify(['--run', out], noSandbox, (line) => lines.push(line))).toBe(0);
    expect(lines.at(-1)).toMatch(/[1-9]\d* values recomputed, 0 mismatches$/);
  });

  it('refuses bad usage before it starts a sandbox', async () => {
    const usage = (...argv: string[]) => runRun(argv, noSandbox, () => undefined);
    await expect(usage('--model', `scripted:${SCRIPT}`, '--out', out, '--reward', 'vibes')).rejects.toThrow(UsageError);
    await expect(usage('--model', 'gpt:whatever', '--out', out)).rejects.toThrow(UsageError);
    await expect(usage('--model', `scripted:${SCRIPT}`, '--out', out, '--skills', 'juggling')).rejects.toThrow(
      UsageError,
    );
  });
});
