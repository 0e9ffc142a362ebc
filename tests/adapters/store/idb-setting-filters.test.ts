// The explorer's setting and domain filters on the IndexedDB store: a mixed pool's environments
// (games, and tool-use tasks in several domains) filtered and paged through the order index give
// exactly what the in-memory query over the same records gives.
import 'fake-indexeddb/auto';
import { beforeAll, describe, expect, it } from 'vitest';
import { openIndexedDbRunStore, type IndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { selectEnvironments } from '../../../src/analysis/env-query.ts';
import { summarizeEnvironment } from '../../../src/analysis/env-summary.ts';
import type { EnvironmentQuery } from '../../../src/core/ports/store-port.ts';
import type { EnvironmentRecord } from '../../../src/core/records.ts';
import { TOOL_USE_DOMAINS } from '../../../src/core/skills.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';
import { scriptedEpochs, syntheticEpochs, testMeta } from './store-fixtures.ts';

const [HOME, SHOP] = [TOOL_USE_DOMAINS[8]!, TOOL_USE_DOMAINS[6]!];
let store: IndexedDbRunStore;
let all: EnvironmentRecord[];

beforeAll(async () => {
  // Every third environment becomes a tool-use task, in one of two domains; one more keeps a tool-use skill without a domain.
  const epochs = syntheticEpochs(await scriptedEpochs(fakeSandbox(HINT_HELPS_DOUBLES), 2), 5, 11).map((epoch) => ({
    ...epoch,
    environments: epoch.environments.map((env, i) => {
      if (i % 3 === 0) return { ...env, skill: 'Error Recovery', domain: i % 2 === 0 ? HOME : SHOP };
      if (i === 4) return { ...env, skill: 'Tool Selection' };
      return env;
    }),
  }));
  all = epochs.flatMap((epoch) => epoch.environments);
  store = await openIndexedDbRunStore({ name: 'setting-filters' });
  await store.createRun(testMeta('m'));
  for (const result of epochs) await store.commitEpoch('m', result);
});

const QUERIES: EnvironmentQuery[] = [
  { setting: 'tool_use' },
  { setting: 'games', sortBy: 'regret', descending: true },
  { domain: HOME },
  { domain: SHOP, status: 'valid', sortBy: 'winRate', limit: 3 },
  { setting: 'tool_use', skill: 'Error Recovery', sortBy: 'designerReward', descending: true, offset: 1, limit: 4 },
  { setting: 'tool_use', domain: HOME, offset: 2, limit: 50 },
  { setting: 'games', domain: HOME },
  { setting: 'tool_use', epoch: 2 },
];

describe('setting and domain filters in IndexedDB', () => {
  it('give the environments, order, counts and summaries of the in-memory query', async () => {
    expect(all.filter((env) => env.domain !== undefined).length).toBeGreaterThan(4);
    for (const query of QUERIES) {
      const label = JSON.stringify(query);
      const expected = selectEnvironments(all, query);
      expect(
        (await store.queryEnvironments('m', query)).map((env) => env.id),
        label,
      ).toEqual(expected.map((env) => env.id));
      expect(await store.queryEnvironmentSummaries('m', query), label).toEqual(expected.map(summarizeEnvironment));
      expect(await store.countEnvironments('m', { ...query, offset: undefined, limit: undefined }), label).toBe(
        selectEnvironments(all, { ...query, offset: undefined, limit: undefined }).length,
      );
    }
    expect(await store.countEnvironments('m', { setting: 'games', domain: HOME })).toBe(0);
    expect(await store.countEnvironments('m', { setting: 'tool_use' })).toBe(
      all.filter((env) => env.domain !== undefined || env.skill === 'Tool Selection').length,
    );
  });
});
