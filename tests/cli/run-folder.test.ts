// `spade run --out DIR` on a folder that already holds something (issue 33, item 1): refused
// unless --resume continues the run or --replace discards it; in-process over the fake sandbox with
// the doubles of the scripted games.
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { commandHelp, usageHint } from '../../src/cli/help.ts';
import { RUN_OPTIONS } from '../../src/cli/run-command.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import type { SpadeResult } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const SCRIPT = 'scripted:tests/fixtures/scripted/hint-helps.json';
const OTHER_SCRIPT = 'scripted:tests/fixtures/scripted/no-designer.json';
const TINY = 'tests/fixtures/suites/tiny';
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
  '--eval',
  TINY,
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

/** Every file of a folder with its text. */
const snapshot = (dir: string) =>
  Object.fromEntries(readdirSync(dir).map((name) => [name, readFileSync(join(dir, name), 'utf8')]));
const lines = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean);
const runJson = (dir: string) => JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as Record<string, unknown>;

/** A run's files as a run of the same seed and config must repeat them: everything but timings.jsonl (and its size in state.json), and run.json without its name and clock. */
function comparable(dir: string): Record<string, unknown> {
  const { 'timings.jsonl': _timings, 'run.json': _meta, 'state.json': stateText, ...files } = snapshot(dir);
  const { id: _id, name: _name, createdAt: _created, updatedAt: _updated, ...meta } = runJson(dir);
  const state = JSON.parse(stateText!) as { sizes: Record<string, number> };
  delete state.sizes['timings.jsonl'];
  return { ...files, 'run.json': meta, 'state.json': state };
}

let tmp: string;
let full: string;
beforeAll(async () => {
  tmp = tempDir('spade-run-folder-');
  full = join(tmp, 'full');
  const result = await spade('run', '--model', SCRIPT, '--epochs', '2', '--out', full, ...SMALL);
  expect(result.status, result.stderr).toBe(0);
}, 60_000);

describe('spade run on an existing folder', () => {
  it('refuses a finished run without --resume or --replace and leaves every file, the evaluations included, as it was', async () => {
    const before = snapshot(full);
    expect(lines(full, 'evals.jsonl')).toHaveLength(3);
    const again = await spade('run', '--model', SCRIPT, '--epochs', '1', '--out', full, ...SMALL);
    expect(again.status).toBe(2);
    expect(again.stderr.split('\n')[0]).toBe(
      `--out ${full} already holds a run (2 of 2 epochs, completed); add --resume to continue it, --replace to discard it and start again, or choose another directory`,
    );
    expect(again.stdout).toBe('');
    // The specific error and a pointer to the usage, not the whole usage text after it.
    expect(again.stderr.trimEnd().split('\n')).toEqual([
      expect.stringContaining('already holds a run'),
      usageHint('run'),
    ]);
    expect(snapshot(full)).toEqual(before);
  });

  it('refuses a folder with other files even with --replace, and takes an empty one', async () => {
    const other = join(tmp, 'other');
    mkdirSync(other);
    writeFileSync(join(other, 'notes.txt'), 'mine');
    for (const extra of [[], ['--replace']]) {
      const refused = await spade('run', '--model', SCRIPT, '--out', other, ...SMALL, ...extra);
      expect([refused.status, refused.stderr.split('\n')[0]]).toEqual([
        2,
        `--out ${other} is not empty and holds no run (1 entries); choose an empty or new directory`,
      ]);
    }
    expect(readdirSync(other)).toEqual(['notes.txt']);
    const empty = join(tmp, 'empty');
    mkdirSync(empty);
    expect((await spade('run', '--model', SCRIPT, '--out', empty, ...SMALL)).status).toBe(0);
    expect(lines(empty, 'epochs.jsonl')).toHaveLength(1);
  });

  it('--replace discards the run and starts again', async () => {
    const dir = join(tmp, 'replaced');
    expect((await spade('run', '--model', SCRIPT, '--epochs', '2', '--out', dir, ...SMALL)).status).toBe(0);
    const replaced = await spade('run', '--model', SCRIPT, '--epochs', '1', '--out', dir, ...SMALL, '--replace');
    expect(replaced.status, replaced.stderr).toBe(0);
    expect(lines(dir, 'epochs.jsonl')).toHaveLength(1);
    expect(lines(dir, 'evals.jsonl').map((l) => (JSON.parse(l) as { afterEpochs: number }).afterEpochs)).toEqual([
      0, 1,
    ]);
    expect(runJson(dir)).toMatchObject({ epochsCompleted: 1, epochsPlanned: 1, status: 'completed' });
  });

  it('--resume and --replace together, or --resume on a folder without a run, are refused', async () => {
    const both = await spade('run', '--model', SCRIPT, '--out', full, ...SMALL, '--resume', '--replace');
    expect([both.status, both.stderr.split('\n')[0]]).toEqual([
      2,
      '--resume continues the run in --out and --replace discards it: give one of them',
    ]);
    const none = await spade('run', '--model', SCRIPT, '--out', join(tmp, 'nothing'), '--resume');
    expect([none.status, none.stderr.split('\n')[0]]).toEqual([
      2,
      `--resume: ${join(tmp, 'nothing')} holds no run to continue`,
    ]);
  });
});

describe('spade run --resume', () => {
  it('extending a 1-epoch run to 2 writes the files of an uninterrupted 2-epoch run (timings apart)', async () => {
    const dir = join(tmp, 'extended');
    expect((await spade('run', '--model', SCRIPT, '--epochs', '1', '--out', dir, ...SMALL)).status).toBe(0);
    const resumed = await spade('run', '--model', SCRIPT, '--epochs', '2', '--out', dir, '--resume', '--eval', TINY);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/^resuming .* after epoch 1, to 2 epochs$/m);
    expect(resumed.stdout).toMatch(/^epoch 2: /m);
    expect(resumed.stdout).not.toMatch(/^epoch 1: /m);
    expect(comparable(dir)).toEqual(comparable(full));
  });

  it('continues a run stopped after its first epoch to its planned count, as if never stopped', async () => {
    const dir = join(tmp, 'killed');
    expect((await spade('run', '--model', SCRIPT, '--epochs', '1', '--out', dir, ...SMALL)).status).toBe(0);
    // What a process killed after committing epoch 1 of 2 leaves: run.json still says running, 2 planned.
    writeFileSync(
      join(dir, 'run.json'),
      JSON.stringify({ ...runJson(dir), status: 'running', epochsPlanned: 2 }, null, 2) + '\n',
    );
    const resumed = await spade('run', '--model', SCRIPT, '--out', dir, '--resume', ...SMALL);
    expect(resumed.status, resumed.stderr).toBe(0);
    expect(comparable(dir)).toEqual(comparable(full));
  });

  it('refuses flags that would change the recorded config, another model, or a suite not given again, and changes nothing', async () => {
    const before = snapshot(full);
    const slots = await spade(
      'run',
      '--model',
      SCRIPT,
      '--epochs',
      '3',
      '--out',
      full,
      '--resume',
      '--slots',
      '3',
      '--plays',
      '2',
    );
    expect(slots.status).toBe(2);
    expect(slots.stderr.split('\n')[0]).toBe(
      '--resume continues the run with its recorded settings; these flags would change them: --slots (recorded 2, asked 3). Only --epochs may change (to extend the run), or use --replace to start again',
    );
    const model = await spade(
      'run',
      '--model',
      OTHER_SCRIPT,
      '--epochs',
      '3',
      '--out',
      full,
      '--resume',
      '--eval',
      TINY,
    );
    expect(model.stderr.split('\n')[0]).toBe(
      '--resume: the run was made with the model scripted:hint-helps.json, not scripted:no-designer.json',
    );
    const suite = await spade('run', '--model', SCRIPT, '--epochs', '3', '--out', full, '--resume');
    expect(suite.stderr.split('\n')[0]).toBe(
      "--resume: the run's evaluations play the suite tiny; give it again with --eval",
    );
    const fewer = await spade('run', '--model', SCRIPT, '--epochs', '1', '--out', full, '--resume');
    expect(fewer.stderr.split('\n')[0]).toBe(`--epochs 1 is fewer than the 2 epochs ${full} already holds`);
    expect(snapshot(full)).toEqual(before);
  });

  it('on a run that holds all its epochs says so and writes nothing', async () => {
    const before = snapshot(full);
    const done = await spade('run', '--model', SCRIPT, '--out', full, '--resume', ...SMALL);
    expect([done.status, done.stdout.trim()]).toEqual([
      0,
      `${full} already holds all 2 epochs; nothing to run (give a larger --epochs to extend it)`,
    ]);
    expect(snapshot(full)).toEqual(before);
  });

  it('lets a sweep continue a cell it had finished with fewer epochs', async () => {
    const out = join(tmp, 'sweep');
    const sweep = (epochs: string) =>
      spade(
        'sweep',
        '--model',
        SCRIPT,
        '--grid',
        'reward=blend',
        '--seeds',
        '7',
        '--epochs',
        epochs,
        '--out',
        out,
        ...SMALL.slice(0, -4),
        '--eval',
        TINY,
      );
    expect((await sweep('1')).status).toBe(0);
    const longer = await sweep('2');
    expect(longer.status, longer.stderr).toBe(0);
    expect(longer.stdout).toMatch(/resuming .*reward-blend_seed-7 after epoch 1, to 2 epochs/);
    expect(lines(join(out, 'reward-blend_seed-7'), 'epochs.jsonl')).toHaveLength(2);
  });
});

describe("spade run's help and the run line of the README", () => {
  it('name every option of spade run', () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const runLine = readme.slice(readme.indexOf('  - `run --model'), readme.indexOf('  - `eval --run'));
    for (const option of Object.keys(RUN_OPTIONS)) {
      expect(runLine, option).toContain(`--${option}`);
      expect(commandHelp('run', COMMANDS.run!), option).toContain(`\n  --${option}`);
    }
  });
});
