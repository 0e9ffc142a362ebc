// Upgrading a frozen schema-v1 database (tests/fixtures/store/v1-dump.json) with the current code.
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { DB_VERSION } from '../../../src/adapters/store/idb-schema.ts';
import { isScored, selectEnvironments } from '../../../src/analysis/env-query.ts';
import type { EnvironmentQuery } from '../../../src/core/ports/store-port.ts';
import { environmentId } from '../../../src/core/loop/epoch.ts';
import { epochsOfDump, readV1Dump, restoreV1Database } from './dump-fixture.ts';

let n = 0;
const fresh = () => `migration-${++n}`;

describe('schema v1 -> v2 from the frozen dump', () => {
  it('the dump is a real v1 database: no scored field, no byScored index, both scored and unscored environments', () => {
    const dump = readV1Dump();
    expect(dump.version).toBe(1);
    expect(dump.indexes.environments).not.toContain('byScored');
    expect(dump.stores.environments.some((r) => 'scored' in r)).toBe(false);
    const scored = dump.stores.environments.map((r) => isScored(r.record));
    expect(scored).toContain(true);
    expect(scored).toContain(false);
  });

  it('upgradeToV2 derives scored for every environment and adds its index; every record survives unchanged', async () => {
    const name = fresh();
    const dump = readV1Dump();
    await restoreV1Database(name, dump);
    const store = await openIndexedDbRunStore({ name });
    expect(store.db.version).toBe(DB_VERSION);
    expect([...store.db.transaction('environments').store.indexNames]).toContain('byScored');
    const rows = await store.db.getAll('environments');
    expect(rows).toHaveLength(dump.stores.environments.length);
    for (const row of rows) {
      const before = dump.stores.environments.find((r) => r.runId === row.runId && r.envId === row.envId)!;
      expect(row).toEqual({ ...before, scored: isScored(before.record) ? 1 : 0 });
    }
    expect(await store.db.countFromIndex('environments', 'byScored', ['mixed', 0])).toBe(
      dump.stores.environments.filter((r) => r.runId === 'mixed' && !isScored(r.record)).length,
    );
    store.close();
  });

  it('after the upgrade, runs load where they stopped and the explorer answers from the new index', async () => {
    const name = fresh();
    const dump = readV1Dump();
    await restoreV1Database(name, dump);
    const store = await openIndexedDbRunStore({ name });
    expect((await store.listRuns()).map((r) => [r.id, r.epochsCompleted])).toEqual([
      ['mixed', 3],
      ['real', 2],
    ]);
    expect((await store.loadRun('real'))!.state).toEqual(dump.stores.state.find((s) => s.runId === 'real')!.state);
    const mixed = dump.stores.environments.filter((r) => r.runId === 'mixed').map((r) => r.record);
    const queries: EnvironmentQuery[] = [
      { sortBy: 'regret', descending: true, limit: 20 },
      { sortBy: 'winRate', offset: 8, limit: 5 },
      { sortBy: 'designerReward', status: 'valid', limit: 4 },
      { skill: 'Optimization', epoch: 1 },
    ];
    for (const q of queries)
      expect(
        (await store.queryEnvironments('mixed', q)).map((e) => e.id),
        JSON.stringify(q),
      ).toEqual(selectEnvironments(mixed, q).map((e) => e.id));
    const env = mixed[0]!;
    expect(await store.episodesOf('mixed', env.id)).toEqual(
      dump.stores.episodes.filter((e) => e.runId === 'mixed' && e.envId === env.id).map((e) => e.episode),
    );
    store.close();
  });

  it('a migrated run takes its next epoch', async () => {
    const name = fresh();
    const dump = readV1Dump();
    await restoreV1Database(name, dump);
    const store = await openIndexedDbRunStore({ name });
    const last = epochsOfDump(dump, 'real')[1]!;
    const next = {
      ...last,
      epoch: 2,
      environments: last.environments.map((e) => ({ ...e, epoch: 2, id: environmentId(2, e.slot) })),
      episodes: [],
      rollouts: [],
      metrics: { ...last.metrics, epoch: 2 },
      timings: { ...last.timings, epoch: 2 },
      nextState: { ...last.nextState, epoch: 3 },
    };
    await store.commitEpoch('real', next);
    expect((await store.loadRun('real'))!.meta.epochsCompleted).toBe(3);
    expect((await store.queryEnvironments('real', { epoch: 2 })).map((e) => e.id)).toEqual(['e0002-s00', 'e0002-s01']);
    expect((await store.db.get('environments', ['real', 'e0002-s00']))!.scored).toBe(1);
    store.close();
  });

  it('a failing upgrade aborts: the open fails and the v1 database is left as it was', async () => {
    const name = fresh();
    const dump = readV1Dump();
    (dump.stores.environments[3] as { record: unknown }).record = null;
    await restoreV1Database(name, dump);
    await expect(openIndexedDbRunStore({ name })).rejects.toThrow();
    const raw = await openDB(name);
    expect(raw.version).toBe(1);
    expect([...raw.transaction('environments').store.indexNames]).not.toContain('byScored');
    expect((await raw.getAll('environments')).some((r: Record<string, unknown>) => 'scored' in r)).toBe(false);
    raw.close();
  });
});
