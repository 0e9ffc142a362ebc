// `spade export` and `spade import` over run directories (the file store), end to end.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeUtf8, unzipFiles } from '../../src/adapters/store/zip.ts';
import { inProcessSpade, ROOT, spadeSubprocess } from './spade-cli.ts';
import { usageHint } from '../../src/cli/help.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const SCRIPT = 'tests/fixtures/scripted/hint-helps.json';
// In-process, except one subprocess each for export and import (what users run).
const spade = inProcessSpade();
const unzip = (file: string) =>
  Object.fromEntries(unzipFiles(new Uint8Array(readFileSync(file))).files.map((f) => [f.path, decodeUtf8(f.bytes)]));
const read = (dir: string, file: string) => readFileSync(join(dir, file), 'utf8');

let tmp: string;
let run: string;
beforeAll(async () => {
  tmp = tempDir('spade-cli-store-');
  run = join(tmp, 'run');
  const result = await spade(
    'run',
    '--model',
    `scripted:${SCRIPT}`,
    '--epochs',
    '2',
    '--seed',
    '7',
    '--out',
    run,
    '--slots',
    '2',
    '--plays',
    '2',
    '--max-turns',
    '3',
    '--skills',
    'logical deduction',
  );
  expect(result.status, result.stderr).toBe(0);
});

describe('spade run output is a file store', () => {
  it('has run.json and state.json next to the run files', async () => {
    expect(JSON.parse(read(run, 'run.json'))).toMatchObject({
      id: 'run',
      status: 'completed',
      epochsCompleted: 2,
      epochsPlanned: 2,
    });
    expect(JSON.parse(read(run, 'state.json'))).toMatchObject({ epochsCompleted: 2, state: { epoch: 2 } });
  });
});

describe('spade export', () => {
  it('writes a SPADE pool zip that sha256sum -c accepts', async () => {
    const out = join(tmp, 'pool.zip');
    const result = spadeSubprocess('export', '--run', run, '--format', 'pool', '--out', out);
    expect(result.status, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^wrote .*pool\.zip: 4 games of run run \(2 epochs\)/);
    const files = unzip(out);
    const dir = join(tmp, 'pool');
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    expect(spawnSync('sha256sum', ['-c', '--quiet', 'checksums.sha256'], { cwd: dir }).status).toBe(0);
    expect(Object.keys(files).filter((p) => /^games\/game_\d{6}\.py$/.test(p))).toHaveLength(4);
  });

  it('writes rollouts JSONL and metrics CSV', async () => {
    expect((await spade('export', '--run', run, '--format', 'rollouts', '--out', join(tmp, 'r.jsonl'))).status).toBe(0);
    const rows = read(tmp, 'r.jsonl')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { role: string });
    expect(rows.map((r) => r.role).sort()).toEqual([...Array(4).fill('designer'), ...Array(8).fill('agent')].sort());
    expect(rows).toEqual(
      read(run, 'rollouts.jsonl')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l)),
    );
    expect((await spade('export', '--run', run, '--format', 'metrics', '--out', join(tmp, 'm.csv'))).status).toBe(0);
    const csv = read(tmp, 'm.csv').trim().split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[1]).toMatch(/^1,2,2,3,/);
  });

  it('refuses bad usage with exit 2', async () => {
    expect((await spade('export', '--run', run, '--format', 'parquet', '--out', join(tmp, 'x'))).status).toBe(2);
    expect(
      (await spade('export', '--run', join(tmp, 'nothing-here'), '--format', 'pool', '--out', join(tmp, 'x'))).status,
    ).toBe(2);
    expect((await spade('import', '--out', join(tmp, 'x'))).status).toBe(2);
  });
});

describe('spade import', () => {
  it('imports the pool into a new run directory; exporting it again gives the same checksums', async () => {
    const into = join(tmp, 'from-pool');
    const result = spadeSubprocess('import', join(tmp, 'pool.zip'), '--out', into);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/imported 4 of 4 environments \(pool\) into .* as run import-/);
    expect((await spade('export', '--run', into, '--format', 'pool', '--out', join(tmp, 'pool2.zip'))).status).toBe(0);
    expect(unzip(join(tmp, 'pool2.zip'))['checksums.sha256']).toBe(unzip(join(tmp, 'pool.zip'))['checksums.sha256']);
  });

  it('imports an archive as the same run (same records, same files)', async () => {
    expect((await spade('export', '--run', run, '--format', 'archive', '--out', join(tmp, 'a.zip'))).status).toBe(0);
    const into = join(tmp, 'from-archive');
    const result = await spade('import', join(tmp, 'a.zip'), '--out', into);
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('(archive)');
    for (const file of [
      'environments.jsonl',
      'episodes.jsonl',
      'epochs.jsonl',
      'rollouts.jsonl',
      'timings.jsonl',
      'config.json',
    ])
      expect(read(into, file), file).toBe(read(run, file));
    expect(JSON.parse(read(into, 'state.json')).state).toEqual(JSON.parse(read(run, 'state.json')).state);
  });

  it('refuses to import a run over the one a folder holds before validating anything; --replace and --as ID replace it', async () => {
    const into = join(tmp, 'from-archive');
    const before = read(into, 'run.json');
    const started = Date.now();
    const again = await spade('import', join(tmp, 'a.zip'), '--out', into);
    expect(again.status).toBe(2);
    expect(again.stderr.trimEnd().split('\n')).toEqual([
      `${into} already holds the run run ("run"); nothing was validated or written. Fix: pass --replace to replace it, or choose another --out`,
      usageHint('import'),
    ]);
    // Refused from the archive's run.json alone: no environment was played (four take seconds in the sandbox).
    expect(Date.now() - started).toBeLessThan(2000);
    expect(read(into, 'run.json')).toBe(before);
    expect((await spade('import', join(tmp, 'a.zip'), '--out', into, '--as', 'two words')).stderr).toContain(
      '--as: expected a run id without spaces or control characters, saw "two words"',
    );
    const replaced = await spade('import', join(tmp, 'a.zip'), '--out', into, '--replace', '--as', 'run-again');
    expect(replaced.status, replaced.stdout + replaced.stderr).toBe(0);
    expect(replaced.stdout).toContain('as run run-again');
    expect(JSON.parse(read(into, 'run.json'))).toMatchObject({ id: 'run-again', epochsCompleted: 2 });
    for (const file of ['environments.jsonl', 'episodes.jsonl', 'epochs.jsonl'])
      expect(read(into, file), file).toBe(read(run, file));
  });

  it('imports a folder with a broken game: keeps the good one, names the bad one, exits 1', async () => {
    const folder = join(tmp, 'mixed');
    mkdirSync(folder);
    copyFileSync(
      join(ROOT, 'public/pools/starter/games/number_ladder.py'),
      join(folder, 'game_00000_000_mathematical_reasoning.py'),
    );
    copyFileSync(
      join(ROOT, 'tests/fixtures/envs/broken/syntax_error.py'),
      join(folder, 'game_00000_001_logical_deduction.py'),
    );
    const into = join(tmp, 'from-folder');
    const result = await spade('import', folder, '--out', into);
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      /^skipped {2}game_00000_001_logical_deduction\.py: invalid at load \(syntax_error\)/m,
    );
    expect(result.stdout).toMatch(/imported 1 of 2 environments \(pool\)/);
    expect(read(into, 'environments.jsonl').trim().split('\n')).toHaveLength(1);
    expect(existsSync(join(into, 'state.json'))).toBe(true);
  });
});
