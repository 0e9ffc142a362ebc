// The v4 explorer queries (summaries and their order index) against the v3 query path
// (legacy-idb-query.ts) on the same fake-indexeddb database: every filter, sort, direction and
// page gives the same environments in the same order, the same counts, and summaries of them.
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { openIndexedDbRunStore, type IndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { summarizeEnvironment } from '../../../src/analysis/env-summary.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import type { EnvironmentQuery } from '../../../src/core/ports/store-port.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';
import { countEnvironmentRows, queryEnvironmentRows } from './legacy-idb-query.ts';
import { ALL_QUERIES } from './run-store-contract.ts';
import { scriptedEpochs, syntheticEpochs, testMeta } from './store-fixtures.ts';

const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);
let store: IndexedDbRunStore;

/** The synthetic epochs with harder cases: quarantined environments, one score not finite (unscored, yet its other scores shown), negative zero. */
function awkwardEpochs(real: EpochResult[]): EpochResult[] {
  return syntheticEpochs(real, 5, 11).map((epoch) => ({
    ...epoch,
    environments: epoch.environments.map((env, i) => {
      if (env.stats === null) return env;
      if (i === 3) return { ...env, status: 'quarantined' as const };
      if (i === 5) return { ...env, stats: { ...env.stats, regret: Number.NaN } };
      if (i === 8) return { ...env, stats: { ...env.stats, winRate: -0, designerReward: Number.POSITIVE_INFINITY } };
      return env;
    }),
  }));
}

const EXTRA: EnvironmentQuery[] = [
  { status: 'quarantined', sortBy: 'regret', descending: true, limit: 3 },
  { status: 'quarantined', skill: 'Optimization' },
  { skill: 'Optimization', status: 'valid', sortBy: 'winRate', offset: 4, limit: 2 },
  { skill: 'Optimization', status: 'valid', sortBy: 'winRate', descending: true, offset: 9, limit: 50 },
  { epoch: 3, sortBy: 'designerReward', descending: true, offset: 1, limit: 4 },
  { sortBy: 'winRate', descending: true, offset: 30, limit: 40 },
];

beforeAll(async () => {
  const epochs = awkwardEpochs(await scriptedEpochs(sandbox, 2));
  store = await openIndexedDbRunStore({ name: 'v4-queries' });
  for (const id of ['q', 'q2']) {
    await store.createRun(testMeta(id));
    for (const result of epochs) await store.commitEpoch(id, result);
  }
});

describe('v4 explorer queries against the v3 query path', () => {
  it('every page gives the same environments in the same order, every filter the same count (the contract checks the summaries of every query)', async () => {
    // Pages are the path v4 changed (a query without a limit reads the records as v3 did); counts ignore sort and page, so each filter is counted once.
    for (const query of [...ALL_QUERIES, ...EXTRA].filter((q) => q.limit !== undefined)) {
      const label = JSON.stringify(query);
      expect(
        (await store.queryEnvironments('q', query)).map((e) => e.id),
        label,
      ).toEqual((await queryEnvironmentRows(store.db, 'q', query)).map((e) => e.id));
    }
    const filters = new Map(
      [...ALL_QUERIES, ...EXTRA].map((q) => [
        JSON.stringify([q.skill, q.status, q.epoch]),
        { skill: q.skill, status: q.status, epoch: q.epoch },
      ]),
    );
    for (const [label, filter] of filters)
      expect(await store.countEnvironments('q', filter), label).toBe(await countEnvironmentRows(store.db, 'q', filter));
    for (const query of EXTRA)
      expect(await store.queryEnvironmentSummaries('q', query), JSON.stringify(query)).toEqual(
        (await queryEnvironmentRows(store.db, 'q', query)).map(summarizeEnvironment),
      );
  });

  it('the awkward cases are in the data, and another run with the same records does not leak in', async () => {
    expect(await store.countEnvironments('q', { status: 'quarantined' })).toBeGreaterThan(0);
    const summaries = await store.queryEnvironmentSummaries('q');
    expect(summaries.some((s) => !s.scored && s.winRate !== null && s.regret === null)).toBe(true);
    expect(summaries.some((s) => !s.scored && s.designerReward === null && s.winRate === 0)).toBe(true);
    expect(await store.countEnvironments('q')).toBe(55);
    await store.deleteRun('q2');
    expect(await store.countEnvironments('q2', { skill: 'Optimization' })).toBe(0);
    expect(await store.db.count('envSummaries')).toBe(55);
  });
});
