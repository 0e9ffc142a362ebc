import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { inProcessSpade, spadeSubprocess } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

// One subprocess per command (validate, play, and an unknown command's exit code); the rest in-process.
const spade = inProcessSpade();
let dir: string;

const COUNTER = `class CounterEnv:
    def __init__(self, max_turns=10):
        self.max_turns = max_turns
        self.turn_count = 0
        self.count = 0
    def reset(self, seed=None):
        self.count = 0
        self.turn_count = 0
        return "Reach 3 by sending \\\\boxed{inc}.", {}
    def step(self, action):
        self.turn_count += 1
        if action == "\\\\boxed{inc}":
            self.count += 1
        if self.count == 3:
            return "You reached 3.", 1.0, True, False, {}
        return f"Count is {self.count}.", 0.0, False, self.turn_count >= self.max_turns, {}
`;

beforeAll(() => {
  dir = tempDir('spade-cli-');
  writeFileSync(join(dir, 'good.py'), COUNTER);
  writeFileSync(join(dir, 'hang.py'), COUNTER.replace('self.turn_count += 1', 'while True: pass'));
  writeFileSync(join(dir, 'noclass.py'), 'class Thing:\n    pass\n');
  writeFileSync(join(dir, 'exit.py'), 'import os\nos._exit(3)\n');
});

describe('spade validate', () => {
  it('judges every file, one JSON line each, and survives hostile ones', () => {
    const files = ['hang.py', 'exit.py', 'noclass.py', 'missing.py', 'good.py'].map((f) => join(dir, f));
    const { status, stdout } = spadeSubprocess('validate', ...files, '--json', '--timeout-ms', '3000');
    const lines = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((l) => [l.file, l.ok])).toEqual(files.map((f) => [f, f.endsWith('good.py')]));
    for (const line of lines)
      expect(Object.keys(line)).toEqual(expect.arrayContaining(['file', 'ok', 'stage', 'code', 'message', 'ms']));
    expect(lines[0]).toMatchObject({ stage: 'probe', code: expect.stringContaining('timeout') });
    expect(lines[2]).toMatchObject({ stage: 'load', code: 'no_env_class' });
    expect(lines[3]).toMatchObject({ code: 'unreadable_file' });
    expect(lines[4]).toMatchObject({ ok: true, stage: null, code: null, className: 'CounterEnv' });
    expect(status).toBe(1);
  });

  it('exits 0 when all files are valid and 2 on bad usage', async () => {
    expect((await spade('validate', join(dir, 'good.py'))).status).toBe(0);
    expect((await spade('validate')).status).toBe(2);
    expect((await spade('validate', join(dir, 'good.py'), '--timeout-ms', 'soon')).status).toBe(2);
    expect(spadeSubprocess('frobnicate')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('unknown command: frobnicate'),
    });
  });
});

describe('spade play', () => {
  it('plays the actions and prints the transcript and the return', () => {
    const { status, stdout } = spadeSubprocess(
      'play',
      join(dir, 'good.py'),
      '--seed',
      '5',
      '--actions',
      '\\boxed{inc}|nonsense|\\boxed{inc}|\\boxed{inc}|\\boxed{inc}',
    );
    expect(status).toBe(0);
    expect(stdout).toContain('=== CounterEnv, seed 5');
    expect(stdout).toContain('--- step 2: nonsense\nCount is 1.');
    expect(stdout).toContain('You reached 3.\nreward=1 terminated=true truncated=false');
    expect(stdout).not.toContain('step 5');
    expect(stdout.trim().endsWith('=== return 1')).toBe(true);
  });

  it('reports a JSON transcript with return 0 when the goal is not reached', async () => {
    const { status, stdout } = await spade(
      'play',
      join(dir, 'good.py'),
      '--seed',
      '1',
      '--actions',
      '\\boxed{inc}',
      '--json',
    );
    expect(status).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({
      ok: true,
      return: 0,
      steps: [{ observation: 'Count is 1.', reward: 0 }],
    });
  });
});
