// `spade eval`, `spade compare`, `spade sweep` and the `run` flags of issue 13 (--eval, --fixed-pool),
// in-process over the fake sandbox with the doubles of the scripted games; one real subprocess each
// for eval (real sandbox) and compare.
import { cpSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/cli.ts';
import { DEMO_MODEL_ID } from '../../src/adapters/llm/scripted/bundled-scripts.ts';
import { jeffreysInterval } from '../../src/core/eval/beta.ts';
import type { EvalRecord } from '../../src/core/eval/eval-record.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { spadeSubprocess, type SpadeResult } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const SCRIPT = 'scripted:tests/fixtures/scripted/hint-helps.json';
const NO_DESIGNER = 'scripted:tests/fixtures/scripted/no-designer.json';
const TINY = 'tests/fixtures/suites/tiny';
const SMALL = ['--slots', '2', '--plays', '2', '--max-turns', '3', '--skills', 'logical deduction', '--no-corpus'];

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

const rows = <T = Record<string, unknown>>(dir: string, file: string): T[] =>
  readFileSync(join(dir, file), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as T);
const json = (dir: string, file: string) =>
  JSON.parse(readFileSync(join(dir, file), 'utf8')) as Record<string, unknown>;

let tmp: string;
beforeAll(() => {
  tmp = tempDir('spade-experiments-');
});

async function runDir(name: string, ...flags: string[]): Promise<string> {
  const dir = join(tmp, name);
  const result = await spade(
    'run',
    '--model',
    SCRIPT,
    '--epochs',
    '1',
    '--seed',
    '7',
    '--out',
    dir,
    ...SMALL,
    ...flags,
  );
  expect(result.status, result.stderr).toBe(0);
  return dir;
}

describe('spade eval', () => {
  let run: string;
  beforeAll(async () => {
    run = await runDir('evaluated');
  });

  it('evaluates the run on a suite, appends a row to evals.jsonl and prints one JSON object', async () => {
    const result = await spade('eval', '--run', run, '--suite', TINY, '--model', SCRIPT, '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^skipped {2}suite tiny: broken_gate: invalid at load \(no_env_class\)/);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const printed = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(Object.keys(printed)).toEqual(['suite', 'environments', 'episodes', 'winRate', 'ci95', 'perSkill']);
    // The agent always answers "door": Door Word is won on both seeds, Glow Key never.
    expect(printed).toMatchObject({ suite: 'tiny', environments: 2, episodes: 4, winRate: 0.5, ci95: [0, 1] });
    expect(printed.perSkill).toEqual({
      // One environment per skill: the interval is the Jeffreys floor over one environment, never a point (docs/method.md section 7).
      Planning: { environments: 1, episodes: 2, wins: 2, winRate: 1, ci95: jeffreysInterval(1, 1) },
      'Logical Deduction': { environments: 1, episodes: 2, wins: 0, winRate: 0, ci95: jeffreysInterval(0, 1) },
    });
    const [stored] = rows<EvalRecord>(run, 'evals.jsonl');
    expect(stored).toMatchObject({
      trigger: 'demand',
      afterEpochs: 1,
      epoch: 0,
      suite: 'tiny',
      winRate: 0.5,
      seedsPerEnvironment: 2,
      playbook: false,
    });
    expect(stored!.plays.map((p) => [p.envId, p.won])).toEqual([
      ['door_word', true],
      ['door_word', true],
      ['glow_key', false],
      ['glow_key', false],
    ]);
  });

  it('takes --seeds and --no-playbook, and prints a readable summary', async () => {
    const result = await spade(
      'eval',
      '--run',
      run,
      '--suite',
      TINY,
      '--model',
      SCRIPT,
      '--seeds',
      '3',
      '--no-playbook',
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('skipped  suite tiny: broken_gate');
    expect(result.stdout).toContain(
      'held-out evaluation after 1 epoch on tiny: win rate 0.50 (95% CI 0.00-1.00), 2 environments, 6 episodes, playbook off',
    );
    expect(result.stdout).toMatch(/^ {2}Planning +win rate 1\.00/m);
    expect(result.stdout).toContain(`appended to ${join(run, 'evals.jsonl')}`);
    expect(rows<EvalRecord>(run, 'evals.jsonl').map((r) => r.episodes)).toEqual([4, 6]);
  });

  it('refuses a run whose model cannot be rebuilt from its id, and a directory without a run', async () => {
    const rebuilt = await spade('eval', '--run', run, '--suite', TINY);
    expect(rebuilt.status).toBe(2);
    expect(rebuilt.stderr).toContain(
      "the run's model scripted:hint-helps.json cannot be rebuilt from its id; pass --model",
    );
    expect((await spade('eval', '--run', join(tmp, 'nothing'), '--model', SCRIPT)).status).toBe(2);
  });

  it('rebuilds the bundled demo session from the id the tab or a run of public/demo/demo-script.json records', async () => {
    for (const recorded of [DEMO_MODEL_ID, 'scripted:demo-script.json']) {
      const demo = join(tmp, `demo-${recorded.replace(/\W+/g, '-')}`);
      cpSync(run, demo, { recursive: true });
      for (const file of ['run.json', 'config.json'])
        writeFileSync(
          join(demo, file),
          readFileSync(join(demo, file), 'utf8').replaceAll('scripted:hint-helps.json', recorded),
        );
      const result = await spade('eval', '--run', demo, '--suite', TINY);
      expect(result.status, result.stderr).toBe(0);
      expect(result.stdout).toContain(`model: the bundled demo session ${recorded}, from public/demo/demo-script.json`);
      expect(rows<EvalRecord>(demo, 'evals.jsonl').at(-1)).toMatchObject({
        trigger: 'demand',
        suite: 'tiny',
        episodes: 4,
      });
    }
  });

  it('works as a subprocess with the real sandbox', () => {
    const result = spadeSubprocess('eval', '--run', run, '--suite', TINY, '--model', SCRIPT, '--json');
    expect(result.status, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^skipped {2}suite tiny: broken_gate: invalid at load \(missing_method\)/);
    expect(JSON.parse(result.stdout)).toMatchObject({ suite: 'tiny', environments: 2, episodes: 4, winRate: 0.5 });
    expect(rows(run, 'evals.jsonl')).toHaveLength(3);
  });
});

describe('spade run with held-out evaluations', () => {
  it('--eval-every 1 evaluates before training and after every epoch, printing each', async () => {
    const dir = await runDir('scheduled', '--epochs', '2', '--eval', TINY, '--eval-every', '1');
    const evals = rows<EvalRecord>(dir, 'evals.jsonl');
    expect(evals.map((e) => [e.afterEpochs, e.epoch, e.trigger, e.suite])).toEqual([
      [0, 0, 'schedule', 'tiny'],
      [1, 0, 'schedule', 'tiny'],
      [2, 1, 'schedule', 'tiny'],
    ]);
    expect(json(dir, 'run.json').evalSuite).toEqual({ name: 'tiny', sha256: evals[0]!.suiteSha256 });
    expect(evals[0]!.suiteSha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it('--eval alone means every epoch; --eval with --eval-every 0 is refused', async () => {
    const dir = join(tmp, 'eval-alone');
    const result = await spade('run', '--model', SCRIPT, '--out', dir, ...SMALL, '--eval', TINY);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split('\n').filter((l) => /^(epoch|held-out)/.test(l))).toEqual([
      expect.stringMatching(
        /^held-out evaluation after 0 epochs on tiny: win rate 0\.50 \(95% CI 0\.00-1\.00\), 2 environments, 4 episodes, playbook off$/,
      ),
      expect.stringMatching(/^epoch 1: /),
      expect.stringMatching(/^held-out evaluation after 1 epoch on tiny: /),
    ]);
    expect(json(dir, 'config.json')).toMatchObject({ config: { evalEvery: 1 } });
    const refused = await spade(
      'run',
      '--model',
      SCRIPT,
      '--out',
      join(tmp, 'refused'),
      '--eval',
      TINY,
      '--eval-every',
      '0',
    );
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain('--eval needs --eval-every of at least 1');
  });
  it('--eval-every alone evaluates on the built-in suite (its 24 games unknown to the fake sandbox, so every play is lost)', async () => {
    const dir = await runDir('builtin', '--eval-every', '1');
    const evals = rows<EvalRecord>(dir, 'evals.jsonl');
    expect(evals.map((e) => [e.afterEpochs, e.suite, e.environments, e.episodes, e.winRate])).toEqual([
      [0, 'builtin', 24, 48, 0],
      [1, 'builtin', 24, 48, 0],
    ]);
    expect(evals[0]!.plays[0]).toMatchObject({
      envId: 'beacon_sync',
      skill: 'Mathematical Reasoning',
      error: 'no_env_class',
    });
    expect(json(dir, 'run.json').evalSuite).toMatchObject({ name: 'builtin' });
  });
});

describe('spade run --fixed-pool', () => {
  it('plays the pool in turn without the designer (the script has no designer reply)', async () => {
    const dir = join(tmp, 'fixed');
    const result = await spade(
      'run',
      '--model',
      NO_DESIGNER,
      '--epochs',
      '2',
      '--out',
      dir,
      '--slots',
      '3',
      '--plays',
      '2',
      '--max-turns',
      '3',
      '--fixed-pool',
      TINY,
    );
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toContain('skipped  suite tiny: broken_gate');
    const environments = rows<{ poolId: string; difficulty: string; status: string; attempts: unknown[] }>(
      dir,
      'environments.jsonl',
    );
    expect(environments.map((e) => e.poolId)).toEqual([
      'door_word',
      'glow_key',
      'door_word',
      'glow_key',
      'door_word',
      'glow_key',
    ]);
    expect(
      environments.every((e) => e.difficulty === 'fixed pool' && e.status === 'valid' && e.attempts.length === 0),
    ).toBe(true);
    expect(rows<{ role: string }>(dir, 'rollouts.jsonl').filter((r) => r.role === 'designer')).toEqual([]);
    const pool = json(dir, 'run.json').fixedPool as { name: string; environments: Array<{ id: string }> };
    expect([pool.name, pool.environments.map((e) => e.id)]).toEqual(['tiny', ['door_word', 'glow_key']]);
    const verified = await spade('verify', '--run', dir);
    expect([verified.status, verified.stdout.trim().split('\n').at(-1)]).toEqual([
      0,
      expect.stringMatching(/ 0 mismatches$/),
    ]);
    const compared = await spade('compare', dir);
    expect(compared.stdout.split('\n')[2]).toMatch(/ +2 +\d\.\d\d +-?\d\.\d\d +no data +-?\d\.\d{2} +none +-$/);
  });
});

describe('spade compare', () => {
  let blend: string;
  let regret: string;
  beforeAll(async () => {
    blend = await runDir('blend');
    regret = await runDir('regret', '--reward', 'regret');
  });

  it('lists the settings that differ and each run\'s final figures, "none" without an evaluation', async () => {
    const result = await spade('compare', blend, regret, '--json');
    expect(result.status, result.stderr).toBe(0);
    const comparison = JSON.parse(result.stdout) as { differences: unknown[]; runs: Array<Record<string, unknown>> };
    expect(comparison.differences).toEqual([{ key: 'reward', values: ['blend', 'regret'] }]);
    expect(comparison.runs.map((r) => [r.label, r.epochs, r.winRate, r.heldOut])).toEqual([
      [blend, 1, 0.5, null],
      [regret, 1, 0.5, null],
    ]);
    const table = (await spade('compare', blend, regret)).stdout.split('\n');
    expect(table[0]).toBe('1 setting differs: reward');
    expect(table[1]).toMatch(
      /^run +reward +epochs +win rate +regret +validity +designer reward +held-out win rate \(95% CI\) +held-out minus .*blend \(paired 95% CI\)$/,
    );
    expect(table[2]).toMatch(/blend +1 +0\.50 +0\.50 +0\.67 +0\.20 +none +-$/);
    expect(table[3]).toMatch(/regret +1 +0\.50 +0\.50 +0\.67 +0\.50 +none +none \(not evaluated\)$/);
    const csv = (await spade('compare', blend, regret, '--csv')).stdout.trim().split('\n');
    expect(csv.map((line) => line.split(',').at(-1))).toEqual(['reward', 'blend', 'regret']);
  });

  it('works as a subprocess', () => {
    const result = spadeSubprocess('compare', blend, blend);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout.split('\n')[0]).toBe('every setting is the same in all runs');
  });
});

describe('spade sweep', () => {
  const sweep = (out: string, ...extra: string[]) =>
    spade(
      'sweep',
      '--model',
      SCRIPT,
      '--grid',
      'reward=blend,regret',
      '--seeds',
      '3',
      '--epochs',
      '1',
      '--out',
      out,
      ...SMALL,
      ...extra,
    );

  it('makes one run directory per cell, prints the comparison, and skips completed cells when run again', async () => {
    const out = join(tmp, 'sweep');
    const first = await sweep(out);
    expect(first.status, first.stderr).toBe(0);
    const dirs = ['reward-blend_seed-3', 'reward-regret_seed-3'].map((name) => join(out, name));
    for (const [i, dir] of dirs.entries()) {
      expect(json(dir, 'run.json')).toMatchObject({ status: 'completed', epochsCompleted: 1 });
      expect(json(dir, 'config.json')).toMatchObject({
        config: { seed: 3, reward: ['blend', 'regret'][i], slotsPerEpoch: 2, useCorpus: false },
      });
    }
    expect(first.stdout.match(/^epoch 1: /gm)).toHaveLength(2);
    expect(first.stdout).toContain('1 setting differs: reward');
    expect(first.stdout).not.toContain('note: ');
    const written = statSync(join(dirs[0]!, 'run.json')).mtimeMs;
    const again = await sweep(out);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout.match(/: skipped, .* already holds a completed run of 1 epoch$/gm)).toHaveLength(2);
    expect(again.stdout).not.toMatch(/^epoch 1: /m);
    expect(statSync(join(dirs[0]!, 'run.json')).mtimeMs).toBe(written);
  });

  it('says first when the bundled demo would be swept over settings its replies ignore', async () => {
    const out = join(tmp, 'sweep-demo');
    const result = await spade(
      'sweep',
      '--model',
      'scripted:public/demo/demo-script.json',
      '--grid',
      'memory=on,off',
      '--epochs',
      '1',
      '--out',
      out,
      ...SMALL,
    );
    expect(result.stdout.split('\n')[0]).toBe(
      "note: The scripted demo's replies ignore memory (environment memory): every cell of this grid gives the same environments and scores for a seed: only the seeds tell the runs apart. It responds to its playbook (try playbook=off,on with eval-every=1); a real model responds to them all.",
    );
  });

  it('refuses a bad grid and a flag the grid also sets, before running anything', async () => {
    const out = join(tmp, 'sweep-refused');
    const bad = await spade('sweep', '--model', SCRIPT, '--grid', 'reward=vibes', '--out', out);
    expect([bad.status, bad.stderr.split('\n')[0]]).toEqual([
      2,
      'reward=vibes: expected one of blend, regret, solve_rate, learning_potential',
    ]);
    const clash = await sweep(out, '--reward', 'regret');
    expect([clash.status, clash.stderr.split('\n')[0]]).toEqual([
      2,
      "--reward is set by the grid's reward; leave it out of the sweep's flags",
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
