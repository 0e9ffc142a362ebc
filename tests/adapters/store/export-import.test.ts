// Export then import with the real Node sandbox: a SPADE pool (checked with the system's
// sha256sum -c, as the reference's download script does), a run archive, corrupt pools, pool
// rows and a corpus. One sandbox for the file, for what the imports validate; the exported run's
// two epochs are played on the in-process doubles of their games (the sandbox is not the point
// there, and its games' code is what the imports validate for real).
import 'fake-indexeddb/auto';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readEnv } from '../../fixtures/env-fixtures.ts';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { exportRun } from '../../../src/adapters/store/export-run.ts';
import { openIndexedDbRunStore, type IndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import {
  freeRunId,
  importIntoStore,
  refuseStoredId,
  RunClashError,
  runIdProblem,
} from '../../../src/adapters/store/import-run.ts';
import { MemoryRunStore } from '../../../src/adapters/store/memory-run-store.ts';
import { sha256Hex } from '../../../src/adapters/store/sha256.ts';
import { decodeUtf8, unzipFiles, zipTextFiles, type ByteFile } from '../../../src/adapters/store/zip.ts';
import { DEFAULT_VALIDATION } from '../../../src/core/env/validate-env.ts';
import type { TextFile } from '../../../src/formats/export/files.ts';
import { summarizeEnvironment } from '../../../src/analysis/env-summary.ts';
import { snapshotRun } from '../../../src/formats/export/run-snapshot.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import { scriptedEpochs, testMeta } from './store-fixtures.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';

const FIXTURES = new URL('../../fixtures/envs/', import.meta.url);
const VALIDATION = { ...DEFAULT_VALIDATION, totalTimeoutMs: 4000, callTimeoutMs: 1500 };
let sandbox: PyodideSandboxRuntime;
let epochs: EpochResult[];
let source: IndexedDbRunStore;
let dbs = 0;

const unzipText = (bytes: Uint8Array): TextFile[] =>
  unzipFiles(bytes).files.map((f) => ({ path: f.path, text: decodeUtf8(f.bytes) }));
const text = (files: TextFile[], path: string) => files.find((f) => f.path === path)!.text;
const asBytes = (files: TextFile[]): ByteFile[] =>
  files.map((f) => ({ path: f.path, bytes: new TextEncoder().encode(f.text) }));
const fixture = (path: string) => readFileSync(new URL(path, FIXTURES), 'utf8');
const ports = () => ({ sandbox, validation: VALIDATION });

beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  epochs = await scriptedEpochs(fakeSandbox(HINT_HELPS_DOUBLES), 2);
  source = await openIndexedDbRunStore({ name: 'export-source' });
  await source.createRun(testMeta('r'));
  for (const e of epochs) await source.commitEpoch('r', e);
});
afterAll(() => sandbox.close());

describe('the id of an imported run', () => {
  it('a free id counts on from the clashing one', () => {
    expect(freeRunId('run-abc', new Set(['run-abc']))).toBe('run-abc-2');
    expect(freeRunId('r-2', new Set(['r-2', 'r-3', 'r-4']))).toBe('r-5');
  });

  it('refuses an empty id, spaces, control characters and an over-long one', () => {
    expect(runIdProblem('run-2')).toBeNull();
    expect(runIdProblem('')).toBe('expected a run id, saw an empty one');
    expect(runIdProblem('a b')).toMatch(/without spaces or control characters/);
    expect(runIdProblem('a\u202eb')).toMatch(/without spaces or control characters/);
    expect(runIdProblem('x'.repeat(101))).toBe('expected a run id of at most 100 characters, saw 101');
  });
});

describe('SPADE pool export', () => {
  it('is a zip the reference trainer accepts: games/game_NNNNNN.py with the header, checked by sha256sum -c', async () => {
    const pool = await exportRun(source, 'r', 'pool');
    expect(pool).toMatchObject({ fileName: 'r-pool.zip', mimeType: 'application/zip', count: 4 });
    const files = unzipText(pool.bytes);
    expect(files.map((f) => f.path)).toEqual([
      'games/game_000000.py',
      'games/game_000001.py',
      'games/game_000002.py',
      'games/game_000003.py',
      'checksums.sha256',
      'manifest.jsonl',
    ]);
    expect(text(files, 'games/game_000000.py')).toBe(
      '"""SPADE self-play generated game"""\n\n' + epochs[0]!.environments[0]!.code,
    );
    const root = tempDir('spade-pool-');
    for (const f of files) {
      mkdirSync(dirname(join(root, f.path)), { recursive: true });
      writeFileSync(join(root, f.path), f.text);
    }
    const check = spawnSync('sha256sum', ['-c', 'checksums.sha256'], { cwd: root, encoding: 'utf8' });
    expect(check.status, check.stderr).toBe(0);
    expect(check.stdout).toBe(
      files
        .slice(0, 4)
        .map((f) => `${f.path}: OK\n`)
        .join(''),
    );
    expect((await exportRun(source, 'r', 'pool')).bytes).toEqual(pool.bytes);
  });

  it('round-trips: import re-validates every game, and exporting again gives the same checksums', async () => {
    const pool = await exportRun(source, 'r', 'pool');
    const target = new MemoryRunStore();
    const report = await importIntoStore(target, [{ path: 'r-pool.zip', bytes: pool.bytes }], ports(), {
      runId: 'imported',
      now: 5,
    });
    expect(report).toMatchObject({ kind: 'pool', found: 4, imported: 4, problems: [], runId: 'imported' });
    const imported = await target.queryEnvironments('imported');
    const original = epochs.flatMap((e) => e.environments);
    expect(imported.map((e) => [e.id, e.code, e.skill, e.hint, e.status, e.attempts[0]!.validation.ok])).toEqual(
      original.map((e, i) => [`pool-00000${i}`, e.code, e.skill, e.hint, 'valid', true]),
    );
    const again = unzipText((await exportRun(target, 'imported', 'pool')).bytes);
    const first = unzipText(pool.bytes);
    expect(text(again, 'checksums.sha256')).toBe(text(first, 'checksums.sha256'));
    for (const f of first.filter((x) => x.path.startsWith('games/'))) expect(text(again, f.path)).toBe(f.text);
    expect((await target.loadRun('imported'))!.meta).toMatchObject({
      status: 'completed',
      epochsCompleted: 1,
      modelId: 'import:pool',
    });
  });

  it('keeps the good games of a corrupt pool and lists each bad one with its reason', async () => {
    const files = unzipText((await exportRun(source, 'r', 'pool')).bytes);
    const games = files.filter((f) => f.path.startsWith('games/'));
    const syntax = fixture('broken/syntax_error.py');
    const hang = fixture('broken/hang_reset.py');
    const extra = [
      { path: 'games/game_000004.py', text: syntax },
      { path: 'games/game_000005.py', text: hang },
    ];
    let sums = text(files, 'checksums.sha256');
    for (const f of extra) sums += `${await sha256Hex(f.text)}  ${f.path}\n`;
    sums += `${'0'.repeat(64)}  games/game_000009.py\nthis is not a checksum line\n`;
    const tampered = { ...games[1]!, text: games[1]!.text + '# one changed byte after export\n' };
    const zip = zipTextFiles([
      games[0]!,
      tampered,
      games[2]!,
      games[3]!,
      ...extra,
      { path: 'checksums.sha256', text: sums },
    ]);
    const target = new MemoryRunStore();
    const report = await importIntoStore(target, [{ path: 'bad.zip', bytes: zip }], ports(), { runId: 'bad', now: 1 });
    expect(report.imported).toBe(3);
    const byPath = Object.fromEntries(report.problems.map((p) => [p.source, p]));
    expect(byPath['games/game_000001.py']).toMatchObject({
      kept: false,
      reason: expect.stringMatching(
        /^checksum mismatch: the checksum file says [0-9a-f]{64}, the file's bytes hash to [0-9a-f]{64}$/,
      ),
    });
    expect(byPath['games/game_000004.py']).toMatchObject({
      kept: false,
      reason: expect.stringMatching(/^invalid at load \(syntax_error\)/),
    });
    expect(byPath['games/game_000005.py']).toMatchObject({
      kept: false,
      reason: expect.stringMatching(/^invalid at probe \(reset_timeout\)/),
    });
    expect(byPath['games/game_000009.py']).toMatchObject({
      kept: false,
      reason: 'listed in the checksum file but missing',
    });
    expect(byPath['checksums.sha256:8']).toMatchObject({
      kept: false,
      reason: expect.stringMatching(/^not a sha256sum line/),
    });
    expect(report.problems).toHaveLength(5);
    expect((await target.queryEnvironments('bad')).map((e) => e.code)).toEqual(
      [0, 2, 3].map((i) => epochs.flatMap((e) => e.environments)[i]!.code),
    );
  });

  it('imports a folder of .py files without checksums, reading the skill from reference file names; files run as written', async () => {
    const good = readEnv('good', 'number_ladder.py');
    const needsRepair = fixture('good/switchboard.py');
    const report = await importIntoStore(
      new MemoryRunStore(),
      asBytes([
        { path: 'mine/game_00003_002_mathematical_reasoning.py', text: good },
        { path: 'mine/notes/plain.py', text: needsRepair },
      ]),
      ports(),
      { runId: 'f', now: 1 },
    );
    expect(report).toMatchObject({ kind: 'pool', imported: 1 });
    expect(report.snapshot!.environments.map((e) => [e.skill, e.code])).toEqual([['Mathematical Reasoning', good]]);
    expect(report.problems).toEqual([
      {
        source: 'mine/notes/plain.py',
        reason: expect.stringMatching(/^invalid at load \(syntax_error\)/),
        kept: false,
      },
    ]);
  });
});

describe('other imports', () => {
  it('a run archive comes back whole in another store (another browser)', async () => {
    const archive = await exportRun(source, 'r', 'archive');
    const target = await openIndexedDbRunStore({ name: `archive-target-${++dbs}` });
    const report = await importIntoStore(target, [{ path: archive.fileName, bytes: archive.bytes }], ports(), {
      now: 9,
    });
    expect(report).toMatchObject({ kind: 'archive', imported: 4, problems: [], runId: 'r' });
    const before = (await snapshotRun(source, 'r'))!;
    const after = (await snapshotRun(target, 'r'))!;
    expect(before.meta.status).toBe('running');
    expect(after.meta.status).toBe('paused');
    expect({ ...after, meta: { ...after.meta, updatedAt: 0, status: 'running' } }).toEqual({
      ...before,
      meta: { ...before.meta, updatedAt: 0 },
    });
    const again = unzipText((await exportRun(target, 'r', 'archive')).bytes);
    for (const f of unzipText(archive.bytes).filter((x) => !['run.json', 'manifest.json'].includes(x.path)))
      expect(text(again, f.path), f.path).toBe(f.text);
    // The import's commits write the summaries again: the explorer and the charts read what the source gives.
    expect(await target.chartRowsOf('r')).toEqual(await source.chartRowsOf('r'));
    expect(await target.queryEnvironmentSummaries('r', { sortBy: 'regret' })).toEqual(
      (await source.queryEnvironments('r', { sortBy: 'regret' })).map(summarizeEnvironment),
    );
  });

  it('back into a store that holds its run: refused before any validation, then taken under a free id or over the stored run', async () => {
    const archive = await exportRun(source, 'r', 'archive');
    const target = await openIndexedDbRunStore({ name: `archive-clash-${++dbs}` });
    await target.createRun({ ...testMeta('r'), name: 'kept' });
    await target.createRun(testMeta('r-2'));
    const input = [{ path: archive.fileName, bytes: archive.bytes }];
    let loads = 0;
    const counted = {
      ...ports(),
      sandbox: new Proxy(sandbox, { get: (t, key) => (key === 'load' && loads++, Reflect.get(t, key)) }),
    };
    const refused = importIntoStore(target, input, counted, { now: 9, checkTarget: refuseStoredId(target) });
    await expect(refused).rejects.toThrow(RunClashError);
    await expect(refused).rejects.toMatchObject({ runId: 'r', storedName: 'kept', suggestedId: 'r-3' });
    await expect(refused).rejects.toThrow(
      'A run with id "r" ("kept") is already stored here; nothing was validated or written.',
    );
    expect(loads).toBe(0);
    expect((await target.loadRun('r'))!.meta.name).toBe('kept');
    const renamed = await importIntoStore(target, input, counted, {
      now: 9,
      runId: 'r-3',
      checkTarget: refuseStoredId(target),
    });
    expect(renamed).toMatchObject({ runId: 'r-3', imported: 4 });
    // Every distinct code among the run's environments is validated again, once (identical code shares its verdict).
    const distinct = new Set(
      (await source.queryEnvironments('r', { sortBy: 'regret' })).map((e) => e.code.replace(/\r\n?/g, '\n')),
    ).size;
    expect(distinct).toBeGreaterThan(0);
    expect(loads).toBe(distinct);
    expect(await target.metricsOf('r-3')).toEqual(await source.metricsOf('r'));
    const replaced = await importIntoStore(target, input, ports(), {
      now: 9,
      replaceStored: (id) => target.deleteRun(id),
    });
    expect(replaced.runId).toBe('r');
    expect((await target.loadRun('r'))!.meta.name).toBe((await source.loadRun('r'))!.meta.name);
    expect(await target.metricsOf('r')).toEqual(await source.metricsOf('r'));
    expect((await target.listRuns()).map((r) => r.id).sort()).toEqual(['r', 'r-2', 'r-3']);
  });

  it('released pool rows: verifies the sha256 column, maps skill slugs, reports rows without code', async () => {
    const code = readEnv('good', 'number_ladder.py');
    const rows = [
      { game_id: 'game_000000', skill: 'causal_inference', sha256: await sha256Hex(code), code },
      { game_id: 'game_000001', skill: 'causal_inference', sha256: 'f'.repeat(64), code },
      { game_id: 'game_000002', skill: 'optimization' },
    ];
    const report = await importIntoStore(
      new MemoryRunStore(),
      [{ path: 'rows.jsonl', bytes: new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join('\n')) }],
      ports(),
      {
        runId: 'rows',
        now: 1,
      },
    );
    expect(report).toMatchObject({ kind: 'rows', found: 1, imported: 1 });
    expect(report.snapshot!.environments[0]).toMatchObject({
      skill: 'Causal Inference',
      code: code.trim() + '\n',
      hint: null,
    });
    expect(report.problems.map((p) => [p.source, p.reason.split(':')[0], p.kept])).toEqual([
      ['rows.jsonl:2 (game_000001)', 'checksum mismatch', false],
      ['rows.jsonl:3 (game_000002)', 'no non-empty "code" column', false],
    ]);
  });

  it('a user corpus: documents with text or orig_doc, bad lines reported', async () => {
    const lines = [
      '{"text":"Doors and keys.","skill":"Logical Deduction"}',
      '{"orig_doc":"Rivers flow downhill."}',
      'not json',
      '{"title":"no text"}',
    ].join('\n');
    const report = await importIntoStore(
      new MemoryRunStore(),
      [{ path: 'docs.jsonl', bytes: new TextEncoder().encode(lines) }],
      ports(),
      { now: 1 },
    );
    expect(report.kind).toBe('corpus');
    expect(report.runId).toBeNull();
    expect(report.corpus!.map((d) => d.text)).toEqual(['Doors and keys.', 'Rivers flow downhill.']);
    expect(report.problems.map((p) => p.source)).toEqual(['docs.jsonl:3', 'docs.jsonl:4']);
  });
});
