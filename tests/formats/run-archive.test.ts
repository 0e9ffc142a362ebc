import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ImportFile, TextFile } from '../../src/formats/export/files.ts';
import { ARCHIVE_VERSION, buildArchiveFiles, parseArchive } from '../../src/formats/export/run-archive.ts';
import { epochResultsOf, type RunSnapshot } from '../../src/formats/export/run-snapshot.ts';
import { detectImportKind } from '../../src/formats/import/import-files.ts';
import { epochsOfDump, readV1Dump } from '../adapters/store/dump-fixture.ts';
import { testMeta } from '../adapters/store/store-fixtures.ts';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hashText = async (text: string) => sha(text);
const asImport = (files: TextFile[], prefix = ''): ImportFile[] =>
  files.map((f) => ({ path: prefix + f.path, text: f.text, sha256: sha(f.text) }));

function snapshot(): RunSnapshot {
  const epochs = epochsOfDump(readV1Dump(), 'real');
  return {
    meta: { ...testMeta('r'), epochsCompleted: epochs.length },
    state: epochs[epochs.length - 1]!.nextState,
    epochs: epochs.map((e) => ({ metrics: e.metrics, timings: e.timings })),
    environments: epochs.flatMap((e) => e.environments),
    episodes: epochs.flatMap((e) => e.episodes),
    rollouts: epochs.flatMap((e) => e.rollouts),
    evaluations: [],
  };
}

describe('run archive', () => {
  it('holds the file-store layout plus a manifest with version, counts and file hashes, and reads back equal', async () => {
    const files = await buildArchiveFiles(snapshot(), hashText);
    expect(files.map((f) => f.path)).toEqual([
      'manifest.json',
      'config.json',
      'run.json',
      'state.json',
      'environments.jsonl',
      'episodes.jsonl',
      'epochs.jsonl',
      'rollouts.jsonl',
      'timings.jsonl',
      'evals.jsonl',
    ]);
    const manifest = JSON.parse(files[0]!.text);
    expect(manifest).toMatchObject({
      format: 'spade-lab-run-archive',
      version: ARCHIVE_VERSION,
      counts: { epochs: 2, environments: 4, episodes: 16 },
    });
    for (const f of files.slice(1)) expect(manifest.files[f.path]).toBe(sha(f.text));
    expect(detectImportKind(asImport(files, 'some-folder/'))).toBe('archive');
    const { snapshot: read, problems } = parseArchive(asImport(files, 'some-folder/'));
    expect(problems).toEqual([]);
    expect(read).toEqual(snapshot());
    expect(
      epochResultsOf(read!).map((r) => [r.epoch, r.environments.length, r.episodes.length, r.nextState.epoch]),
    ).toEqual([
      [0, 2, 8, 1],
      [1, 2, 8, 2],
    ]);
  });

  it('reports changed files, skips bad lines, drops epochs after a gap, and never throws', async () => {
    const files = await buildArchiveFiles(snapshot(), hashText);
    const edit = (path: string, change: (text: string) => string) =>
      files.map((f) => (f.path === path ? { ...f, text: change(f.text) } : f));
    let changed = edit('episodes.jsonl', (t) =>
      t
        .split('\n')
        .map((l, i) => (i === 2 ? '{"broken' : l))
        .join('\n'),
    );
    changed = changed.map((f) => (f.path === 'epochs.jsonl' ? { ...f, text: f.text.split('\n')[1]! + '\n' } : f));
    const { snapshot: read, problems } = parseArchive(asImport(changed));
    expect(problems.map((p) => [p.source, p.kept])).toEqual([
      ['episodes.jsonl', true],
      ['epochs.jsonl', true],
      ['episodes.jsonl:3', false],
      ['epochs.jsonl', false],
      ['environments.jsonl', false],
      ['episodes.jsonl', false],
      ['rollouts.jsonl', false],
    ]);
    expect(problems[0]!.reason).toMatch(
      /^checksum mismatch: manifest says [0-9a-f]{64}, file has [0-9a-f]{64}; read line by line anyway$/,
    );
    expect(problems[3]!.reason).toBe('1 record of epoch 0 and later dropped: epochs.jsonl has no record of epoch 0');
    expect(problems[4]!.reason).toMatch(/^4 records of epoch 0 /);
    expect(read!.epochs).toEqual([]);
    expect(read!.environments).toEqual([]);
  });

  it('refuses archives it cannot read: no manifest, a newer version, no run.json', async () => {
    const files = await buildArchiveFiles(snapshot(), hashText);
    expect(parseArchive(asImport(files.slice(1))).snapshot).toBeNull();
    const newer = files.map((f) =>
      f.path === 'manifest.json' ? { ...f, text: f.text.replace(`"version": ${ARCHIVE_VERSION}`, '"version": 99') } : f,
    );
    expect(parseArchive(asImport(newer)).problems[0]!.reason).toMatch(
      /archive version 99 is newer than this app reads \(1\)/,
    );
    const noRun = parseArchive(asImport(files.filter((f) => f.path !== 'run.json')));
    expect(noRun.snapshot).toBeNull();
    expect(noRun.problems.map((p) => p.source)).toEqual(['run.json', 'run.json']);
  });

  it('detects pools, rows and corpora, and nothing in unrelated files', () => {
    const f = (path: string, text: string): ImportFile => ({ path, text, sha256: sha(text) });
    expect(detectImportKind([f('a/game_000000.py', 'x = 1\n')])).toBe('pool');
    expect(detectImportKind([f('rows.jsonl', '{"code":"x"}\n')])).toBe('rows');
    expect(detectImportKind([f('rows.json', '[{"code":"x"}]')])).toBe('rows');
    expect(detectImportKind([f('docs.jsonl', '\n{"orig_doc":"x"}\n')])).toBe('corpus');
    expect(detectImportKind([f('notes.txt', 'hello')])).toBeNull();
  });
});
