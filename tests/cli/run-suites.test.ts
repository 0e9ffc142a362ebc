// A run directory's own pool as a held-out suite (`--suite DIR` / `DIR@N` for spade eval, and
// `--eval` for spade run), in-process over the fake sandbox with the doubles of the scripted games.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.ts';
import type { EvalRecord } from '../../src/core/eval/eval-record.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import type { SpadeResult } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';
import { jeffreysInterval } from '../../src/core/eval/beta.ts';

const SCRIPT = 'scripted:tests/fixtures/scripted/hint-helps.json';
const SMALL = [
  '--slots',
  '2',
  '--plays',
  '2',
  '--max-turns',
  '3',
  '--skills',
  'logical deduction',
  '--no-corpus',
  '--seed',
  '7',
];

async function spade(...args: string[]): Promise<SpadeResult> {
  const out: string[] = [];
  let stderr = '';
  const status = await runCli(args, {
    runtime: () => fakeSandbox(HINT_HELPS_DOUBLES),
    out: (line) => out.push(line + '\n'),
    err: (text) => (stderr += text),
  });
  return { status, stdout: out.join(''), stderr };
}

const evals = (dir: string) =>
  readFileSync(join(dir, 'evals.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as EvalRecord);

let tmp: string;
let source: string;
let target: string;
beforeAll(async () => {
  tmp = tempDir('spade-run-suites-');
  source = join(tmp, 'source');
  target = join(tmp, 'target');
  // Epoch 1 designs GlowKey and DoorWord, epoch 2 DoorWord twice (the same code: counted once).
  for (const [dir, epochs] of [
    [source, '2'],
    [target, '1'],
  ] as const) {
    const result = await spade('run', '--model', SCRIPT, '--epochs', epochs, '--out', dir, ...SMALL);
    expect(result.status, result.stderr).toBe(0);
  }
}, 60_000);

describe('a run directory as a held-out suite', () => {
  it('DIR is its pool at its last committed epoch; DIR@N frozen at epoch N (app count)', async () => {
    const last = await spade('eval', '--run', target, '--suite', source, '--model', SCRIPT, '--json');
    expect(last.status, last.stderr).toBe(0);
    expect(JSON.parse(last.stdout)).toMatchObject({ suite: 'run source at epoch 2', environments: 2, episodes: 4 });
    const first = await spade('eval', '--run', target, '--suite', `${source}@1`, '--model', SCRIPT, '--json');
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({
      suite: 'run source at epoch 1',
      environments: 2,
      episodes: 4,
      winRate: 0.5,
    });
    const [a, b] = evals(target).slice(-2);
    expect(a!.plays.map((p) => p.envId)).toEqual(['e0000-s00', 'e0000-s00', 'e0000-s01', 'e0000-s01']);
    // The same environments, so the same digest under two names.
    expect(b!.suiteSha256).toBe(a!.suiteSha256);
  });

  it('refuses an epoch out of range with the valid range, and @N on a folder that is not a run', async () => {
    const late = await spade('eval', '--run', target, '--suite', `${source}@3`, '--model', SCRIPT);
    expect(late.status).toBe(2);
    expect(late.stderr).toContain(
      `the suite ${source}@3: the run source has 2 committed epochs: expected an epoch from 1 to 2, got 3`,
    );
    expect((await spade('eval', '--run', target, '--suite', `${source}@0`, '--model', SCRIPT)).stderr).toContain(
      'expected an epoch from 1 to 2, got 0',
    );
    const pool = await spade('eval', '--run', target, '--suite', 'tests/fixtures/suites/tiny@1', '--model', SCRIPT);
    expect(pool.status).toBe(2);
    expect(pool.stderr).toContain('tests/fixtures/suites/tiny is not a run directory');
  });

  it('validates its environments again, leaving out one changed on disk with the reason', async () => {
    const changed = join(tmp, 'changed');
    cpSync(source, changed, { recursive: true });
    const file = join(changed, 'environments.jsonl');
    // Same length, so the committed sizes in state.json still hold: the class is no longer one the sandbox knows.
    writeFileSync(file, readFileSync(file, 'utf8').replace('class GlowKeyEnv:', 'class GlowKeyEnX:'));
    const result = await spade('eval', '--run', target, '--suite', `${changed}@1`, '--model', SCRIPT);
    expect(result.status, result.stderr).toBe(0);
    // The suite is named after the run it holds (run.json), wherever its directory is.
    expect(result.stdout).toMatch(
      /^skipped {2}suite run source at epoch 1: e0000-s00: invalid at load \(no_env_class\)/m,
    );
    // One environment left: its interval is the Jeffreys floor over one environment (docs/method.md section 7).
    expect(result.stdout).toContain(
      `on run source at epoch 1: win rate 1.00 (95% CI ${jeffreysInterval(1, 1)[0].toFixed(2)}-1.00), 1 environments, 2 episodes`,
    );
  });

  it('spade run --eval DIR@N schedules evaluations on it and records the suite', async () => {
    const dir = join(tmp, 'scheduled');
    const result = await spade(
      'run',
      '--model',
      SCRIPT,
      '--epochs',
      '1',
      '--out',
      dir,
      ...SMALL,
      '--eval',
      `${source}@1`,
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('held-out evaluation after 0 epochs on run source at epoch 1: win rate 0.50');
    expect(evals(dir).map((e) => [e.afterEpochs, e.suite])).toEqual([
      [0, 'run source at epoch 1'],
      [1, 'run source at epoch 1'],
    ]);
    const meta = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { evalSuite: unknown };
    expect(meta.evalSuite).toEqual({ name: 'run source at epoch 1', sha256: evals(dir)[0]!.suiteSha256 });
  });
});
