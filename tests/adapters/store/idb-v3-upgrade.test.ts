// Upgrading a schema-v2 database (the frozen v1 dump taken to v2 with upgradeToV2) to v3: the
// runs are intact and the new evals store is there and empty.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { DB_VERSION, type SpadeDbSchema } from '../../../src/adapters/store/idb-schema.ts';
import { upgradeToV2 } from '../../../src/adapters/store/idb-upgrade.ts';
import { summarizeEvaluation, type EvalRecord } from '../../../src/core/eval/eval-record.ts';
import { readV1Dump, restoreV1Database } from './dump-fixture.ts';

async function restoreV2Database(name: string): Promise<void> {
  await restoreV1Database(name);
  const db = await openDB<SpadeDbSchema>(name, 2, { upgrade: (_db, _old, _new, tx) => void upgradeToV2(tx) });
  db.close();
}

const PLAY = {
  envId: 'coin_purse',
  skill: 'Mathematical Reasoning',
  seed: 1,
  return: 1,
  won: true,
  turns: 2,
  error: null,
};
const RECORD: EvalRecord = {
  epoch: 1,
  suite: 'builtin',
  suiteSha256: 'a'.repeat(64),
  afterEpochs: 2,
  trigger: 'demand',
  playbook: false,
  lessonsShown: 0,
  seedsPerEnvironment: 1,
  ...summarizeEvaluation([PLAY]),
  plays: [PLAY],
};

describe('schema v2 -> v3', () => {
  it('keeps every run, epoch, environment and state as it was, and adds an empty evals store', async () => {
    const name = 'v3-upgrade-intact';
    await restoreV2Database(name);
    const before = await openDB<SpadeDbSchema>(name, 2);
    expect([...before.objectStoreNames]).not.toContain('evals');
    const rows = {
      runs: await before.getAll('runs'),
      environments: await before.getAll('environments'),
      episodes: await before.count('episodes'),
      state: await before.getAll('state'),
    };
    before.close();

    const store = await openIndexedDbRunStore({ name });
    expect(store.db.version).toBe(DB_VERSION);
    expect([...store.db.objectStoreNames]).toContain('evals');
    expect(await store.db.count('evals')).toBe(0);
    expect(await store.db.getAll('runs')).toEqual(rows.runs);
    expect(await store.db.getAll('environments')).toEqual(rows.environments);
    expect(await store.db.count('episodes')).toBe(rows.episodes);
    expect(await store.db.getAll('state')).toEqual(rows.state);
    for (const run of readV1Dump().stores.runs) expect(await store.evaluationsOf(run.id)).toEqual([]);
    expect((await store.loadRun('real'))!.meta.epochsCompleted).toBe(2);
    store.close();
  });

  it('a migrated run takes evaluations and playbook edits', async () => {
    const name = 'v3-upgrade-use';
    await restoreV2Database(name);
    const store = await openIndexedDbRunStore({ name });
    await store.addEvaluation('real', RECORD);
    await store.updatePlaybook('real', []);
    expect(await store.evaluationsOf('real')).toEqual([RECORD]);
    expect(await store.evaluationsOf('mixed')).toEqual([]);
    expect((await store.loadRun('real'))!.state).toMatchObject({ epoch: 2, playbook: [] });
    store.close();
  });
});
