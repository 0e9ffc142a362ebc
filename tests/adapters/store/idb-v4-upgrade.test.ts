// Upgrading a schema-v3 database with data (the frozen v1 dump taken to v3, plus an evaluation)
// to v4: nothing stored changes, every environment gets its explorer summary and every epoch its
// chart summary, derived from the records; a failing upgrade leaves the v3 database as it was.
// Then v4 to v5: summaries written before v5 get the environment's class name.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { DB_VERSION, type SpadeDbSchema } from '../../../src/adapters/store/idb-schema.ts';
import { upgradeToV2, upgradeToV3, upgradeToV4 } from '../../../src/adapters/store/idb-upgrade.ts';
import { orderKeys } from '../../../src/adapters/store/idb-summaries.ts';
import { selectEnvironments } from '../../../src/analysis/env-query.ts';
import { summarizeEnvironment } from '../../../src/analysis/env-summary.ts';
import { summarizeEnvironments } from '../../../src/analysis/epoch-summary.ts';
import { summarizeEvaluation, type EvalRecord } from '../../../src/core/eval/eval-record.ts';
import type { EnvironmentQuery } from '../../../src/core/ports/store-port.ts';
import { readV1Dump, restoreV1Database, type V1Dump } from './dump-fixture.ts';

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
  suiteSha256: 'b'.repeat(64),
  afterEpochs: 2,
  trigger: 'demand',
  playbook: false,
  lessonsShown: 0,
  seedsPerEnvironment: 1,
  ...summarizeEvaluation([PLAY]),
  plays: [PLAY],
};
const STORES = ['runs', 'epochs', 'environments', 'episodes', 'rollouts', 'state', 'evals'] as const;

/** A v3 database holding the dump's runs and one stored evaluation of run `real`. */
async function restoreV3Database(name: string, dump: V1Dump = readV1Dump()): Promise<void> {
  await restoreV1Database(name, dump);
  const db = await openDB<SpadeDbSchema>(name, 3, {
    upgrade: (database, _old, _new, tx) => {
      void upgradeToV2(tx);
      upgradeToV3(database);
    },
  });
  await db.put('evals', { runId: 'real', seq: 0, record: RECORD });
  db.close();
}

async function readAll(name: string, version: number) {
  const db = await openDB<SpadeDbSchema>(name, version);
  const [runs, epochs, environments, episodes, rollouts, state, evals] = await Promise.all([
    db.getAll('runs'),
    db.getAll('epochs'),
    db.getAll('environments'),
    db.getAll('episodes'),
    db.getAll('rollouts'),
    db.getAll('state'),
    db.getAll('evals'),
  ]);
  db.close();
  const rows = { runs, epochs, environments, episodes, rollouts, state, evals };
  return rows;
}

describe('schema v3 -> v4', () => {
  it('keeps every row as it was and derives the explorer and chart summaries from the records', async () => {
    const name = 'v4-upgrade-intact';
    await restoreV3Database(name);
    const before = await readAll(name, 3);
    expect(before.environments.length).toBeGreaterThan(10);
    const store = await openIndexedDbRunStore({ name });
    expect(store.db.version).toBe(DB_VERSION);
    for (const s of STORES.filter((s) => s !== 'epochs'))
      expect(await store.db.getAll(s), s).toEqual((before as Record<string, unknown[]>)[s]);
    const recordsOf = (runId: string) => before.environments.filter((e) => e.runId === runId).map((e) => e.record);
    expect(await store.db.getAll('epochs')).toEqual(
      before.epochs.map((row) => ({ ...row, envSummary: summarizeEnvironments(row.epoch, recordsOf(row.runId)) })),
    );
    const summaries = await store.db.getAll('envSummaries');
    expect(summaries).toHaveLength(before.environments.length);
    for (const row of before.environments) {
      const summary = summarizeEnvironment(row.record);
      expect(summaries.find((s) => s.runId === row.runId && s.envId === row.envId)).toEqual({
        runId: row.runId,
        envId: row.envId,
        epoch: row.epoch,
        slot: row.slot,
        summary,
        keys: orderKeys(row.runId, summary),
      });
    }
    expect(await store.evaluationsOf('real')).toEqual([RECORD]);
    store.close();
  });

  it('after the upgrade the explorer and the charts read the migrated runs', async () => {
    const name = 'v4-upgrade-queries';
    const dump = readV1Dump();
    await restoreV3Database(name, dump);
    const store = await openIndexedDbRunStore({ name });
    const mixed = dump.stores.environments.filter((r) => r.runId === 'mixed').map((r) => r.record);
    const queries: EnvironmentQuery[] = [
      {},
      { sortBy: 'regret', descending: true, limit: 7 },
      { status: 'valid', sortBy: 'winRate', offset: 3, limit: 4 },
      { skill: 'Optimization', status: 'rejected' },
      { epoch: 2, sortBy: 'designerReward' },
    ];
    for (const q of queries) {
      expect(await store.queryEnvironmentSummaries('mixed', q), JSON.stringify(q)).toEqual(
        selectEnvironments(mixed, q).map(summarizeEnvironment),
      );
      expect(await store.countEnvironments('mixed', q), JSON.stringify(q)).toBe(
        selectEnvironments(mixed, { ...q, offset: 0, limit: undefined }).length,
      );
    }
    const rows = await store.chartRowsOf('mixed');
    expect(rows.map((r) => r.environments)).toEqual([0, 1, 2].map((epoch) => summarizeEnvironments(epoch, mixed)));
    expect(rows.map((r) => r.metrics)).toEqual(
      dump.stores.epochs.filter((e) => e.runId === 'mixed').map((e) => e.metrics),
    );
    store.close();
  });

  it('a failing upgrade aborts: the open fails and the v3 database is left as it was', async () => {
    const name = 'v4-upgrade-fails';
    await restoreV3Database(name);
    const raw = await openDB<SpadeDbSchema>(name, 3);
    const row = (await raw.getAll('environments'))[5]!;
    await raw.put('environments', { ...row, record: null } as never);
    raw.close();
    const before = await readAll(name, 3);
    await expect(openIndexedDbRunStore({ name })).rejects.toThrow();
    const after = await openDB(name);
    expect(after.version).toBe(3);
    expect([...after.objectStoreNames]).not.toContain('envSummaries');
    after.close();
    expect(await readAll(name, 3)).toEqual(before);
  });
});

describe('schema v4 -> v5', () => {
  it("rebuilds summaries written before v5 so each names its environment's class", async () => {
    const name = 'v5-upgrade-class-names';
    await restoreV3Database(name);
    const v4 = await openDB<SpadeDbSchema>(name, 4, {
      upgrade: (database, _old, _new, tx) => void upgradeToV4(database, tx),
    });
    // As a v4 app wrote them: no class name.
    for (const row of await v4.getAll('envSummaries')) {
      const { className: _dropped, ...summary } = row.summary;
      await v4.put('envSummaries', { ...row, summary: summary as typeof row.summary });
    }
    expect((await v4.getAll('envSummaries')).some((r) => 'className' in r.summary)).toBe(false);
    const records = new Map((await v4.getAll('environments')).map((r) => [`${r.runId}/${r.envId}`, r.record]));
    v4.close();
    const store = await openIndexedDbRunStore({ name });
    expect(store.db.version).toBe(DB_VERSION);
    const summaries = await store.db.getAll('envSummaries');
    expect(summaries.map((r) => r.summary.className)).toEqual(
      summaries.map((r) => summarizeEnvironment(records.get(`${r.runId}/${r.envId}`)!).className),
    );
    expect(summaries.map((r) => r.summary.className)).toContain('GlowKeyEnv');
    store.close();
  });
});
