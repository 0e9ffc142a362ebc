// Attack: fields of an imported archive or pool that later become numbers the app plans by, or
// names written into exported files.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ImportFile, TextFile } from '../../src/formats/export/files.ts';
import { buildPoolFiles } from '../../src/formats/export/pool-export.ts';
import { buildArchiveFiles, parseArchive } from '../../src/formats/export/run-archive.ts';
import type { RunSnapshot } from '../../src/formats/export/run-snapshot.ts';
import { MAX_EPOCHS_PLANNED } from '../../src/formats/import/import-limits.ts';
import { epochsOfDump, readV1Dump } from '../adapters/store/dump-fixture.ts';
import { testMeta } from '../adapters/store/store-fixtures.ts';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const asImport = (files: TextFile[]): ImportFile[] =>
  files.map((f) => ({ path: f.path, text: f.text, sha256: sha(f.text) }));
const EPOCHS = epochsOfDump(readV1Dump(), 'real');

function snapshot(epochsPlanned: unknown, skill?: string): RunSnapshot {
  const environments = EPOCHS.flatMap((e) => e.environments).map((env) => (skill ? { ...env, skill } : env));
  return {
    meta: { ...testMeta('r'), epochsCompleted: EPOCHS.length, epochsPlanned: epochsPlanned as number },
    state: EPOCHS.at(-1)!.nextState,
    epochs: EPOCHS.map((e) => ({ metrics: e.metrics, timings: e.timings })),
    environments,
    episodes: [],
    rollouts: [],
    evaluations: [],
  };
}

const imported = async (epochsPlanned: unknown) =>
  parseArchive(asImport(await buildArchiveFiles(snapshot(epochsPlanned), async (t) => sha(t))));

describe("an imported archive's epochsPlanned", () => {
  it('keeps a plan within bounds', async () => {
    const { snapshot: read, problems } = await imported(40);
    expect(problems).toEqual([]);
    expect(read!.meta.epochsPlanned).toBe(40);
  });

  it.each([1e308, MAX_EPOCHS_PLANNED + 1, -5, 2.5, '9'])(
    'cuts %j to the committed epochs, with a problem line',
    async (planned) => {
      const { snapshot: read, problems } = await imported(planned);
      expect(read!.meta.epochsPlanned).toBe(EPOCHS.length);
      expect(problems).toEqual([
        expect.objectContaining({
          source: 'run.json',
          kept: true,
          reason: expect.stringMatching(/^epochsPlanned .* is not a whole number from 0 to 100000/),
        }),
      ]);
      expect(problems[0]!.reason).toMatch(new RegExp(`the run plans its ${EPOCHS.length} committed epochs?$`));
      expect(problems[0]!.reason).not.toContain('(s)');
    },
  );
});

describe('an imported skill in an exported pool', () => {
  it('never becomes a path in the manifest', async () => {
    const files = await buildPoolFiles(snapshot(2, 'x/../../y').environments, async (t) => sha(t));
    const rows = files
      .find((f) => f.path === 'manifest.jsonl')!
      .text.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { original_file_name: string; skill: string; skill_name: string });
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.original_file_name).toMatch(/^game_\d{5}_\d{3}_x_______y\.py$/);
      expect(row.skill).toBe('x_______y');
      expect(row.skill_name).toBe('x/../../y');
    }
    expect(files.every((f) => !f.path.includes('..'))).toBe(true);
  });
});
