// Attack: control characters from data (a run's model id, a directory name, a command name) must
// never reach the terminal raw: ESC sequences retitle windows or forge lines, BEL rings, CR overwrites.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.ts';
import { usageHint } from '../../src/cli/help.ts';
import { terminalSafe } from '../../src/cli/terminal-text.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';
import type { SpadeResult } from './spade-cli.ts';

const RAW_CONTROL = /[^\P{Cc}\t\n]/u;
const HOSTILE = 'x\u001b]0;owned\u0007\r\u009b31mforged';

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

describe('terminalSafe', () => {
  it('writes every control but tab and newline as a visible escape', () => {
    expect(terminalSafe(HOSTILE)).toBe('x\\u001b]0;owned\\u0007\\u000d\\u009b31mforged');
    expect(terminalSafe('a\tb\nc\u007f')).toBe('a\tb\nc\\u007f');
  });

  it('keeps JSON valid and exact: the escape reads back as the same character', () => {
    const json = JSON.stringify({ id: 'a\u009bb\u0085c' });
    expect(json).toMatch(RAW_CONTROL);
    expect(JSON.parse(terminalSafe(json))).toEqual({ id: 'a\u009bb\u0085c' });
  });
});

describe('spade prints data without raw control characters', () => {
  let plain: string;
  let hostile: string;
  beforeAll(async () => {
    const tmp = tempDir('spade-terminal-');
    plain = join(tmp, 'plain');
    const made = await spade(
      'run',
      '--model',
      'scripted:tests/fixtures/scripted/hint-helps.json',
      '--epochs',
      '1',
      '--out',
      plain,
      '--slots',
      '1',
      '--plays',
      '1',
      '--max-turns',
      '2',
      '--no-corpus',
      '--seed',
      '3',
    );
    expect(made.status, made.stderr).toBe(0);
    // A shared folder whose directory name and recorded model id carry terminal sequences.
    hostile = join(tmp, `run${HOSTILE}`);
    cpSync(plain, hostile, { recursive: true });
    const runJson = join(hostile, 'run.json');
    const meta = JSON.parse(readFileSync(runJson, 'utf8')) as { modelId: string };
    writeFileSync(runJson, JSON.stringify({ ...meta, modelId: `scripted:${HOSTILE}` }));
  }, 60_000);

  it('compare: the table shows the sequences as escapes', async () => {
    const result = await spade('compare', plain, hostile);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(result.stdout).toContain('x\\u001b]0;owned\\u0007\\u000d\\u009b31mforged');
  });

  it('compare --json: still parses, to the exact recorded values', async () => {
    const result = await spade('compare', plain, hostile, '--json');
    expect(result.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.stringify(JSON.parse(result.stdout))).toContain(JSON.stringify(`scripted:${HOSTILE}`).slice(1, -1));
  });

  it('errors: an eval refusal quoting the recorded model, and an unknown command', async () => {
    const refused = await spade('eval', '--run', hostile);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('cannot be rebuilt');
    expect(refused.stderr).not.toMatch(RAW_CONTROL);
    const unknown = await spade(`nope${HOSTILE}`);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).not.toMatch(RAW_CONTROL);
    // The specific error and one hint line, not the whole usage text.
    expect(unknown.stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(
        /^unknown command: nope.*; expected one of validate, play, run, eval, compare, sweep, export, import, verify$/,
      ),
      usageHint(),
    ]);
    expect(refused.stderr.trimEnd().split('\n')).toEqual([
      expect.stringContaining('cannot be rebuilt'),
      usageHint('eval'),
    ]);
  });
});
