// The behaviour every RunStore shares (memory, IndexedDB, file): one suite, run against each.
import { describe, expect, it } from 'vitest';
import { selectEnvironments } from '../../../src/analysis/env-query.ts';
import { summarizeEnvironment } from '../../../src/analysis/env-summary.ts';
import { summarizeEnvironments } from '../../../src/analysis/epoch-summary.ts';
import { INITIAL_RUN_STATE, type EpochResult } from '../../../src/core/loop/epoch.ts';
import type { EnvironmentQuery, RunStore } from '../../../src/core/ports/store-port.ts';
import { StoreError } from '../../../src/core/ports/store-errors.ts';
import { testMeta } from './store-fixtures.ts';

/** What the suite needs from a test file. */
export interface ContractSetup {
  /** A fresh, empty store. */
  makeStore(): Promise<RunStore>;
  /** Real scripted epochs (two). */
  realEpochs(): EpochResult[];
  /** Synthetic epochs with varied skills, scores and statuses. */
  syntheticEpochs(): EpochResult[];
  /** The store holds many runs (the file store holds one per directory). */
  multiRun: boolean;
}

const FILTERS: EnvironmentQuery[] = [
  {},
  { skill: 'Optimization' },
  { status: 'valid' },
  { status: 'rejected' },
  { epoch: 1 },
  { epoch: 9 },
  { skill: 'Logical Deduction', status: 'valid' },
  { skill: 'Spatial Reasoning', epoch: 2, status: 'valid' },
  { skill: 'Nope' },
];
const SORTS: EnvironmentQuery[] = [
  {},
  { sortBy: 'epoch' },
  { sortBy: 'regret' },
  { sortBy: 'winRate' },
  { sortBy: 'designerReward' },
];
const PAGES: EnvironmentQuery[] = [
  {},
  { limit: 3 },
  { offset: 2, limit: 4 },
  { offset: 5 },
  { offset: 11, limit: 6 },
  { offset: 200, limit: 5 },
  { limit: 0 },
];

/** Every combination of filter, sort key, direction and page the explorer can ask for. */
export const ALL_QUERIES: EnvironmentQuery[] = FILTERS.flatMap((f) =>
  SORTS.flatMap((s) => [false, true].flatMap((descending) => PAGES.map((p) => ({ ...f, ...s, descending, ...p })))),
);

/** Registers the shared RunStore tests. */
export function runStoreContract(name: string, setup: ContractSetup): void {
  describe(`${name}: RunStore contract`, () => {
    it('a new run is listed and loads with the initial state', async () => {
      const store = await setup.makeStore();
      await store.createRun(testMeta('r1'));
      expect((await store.listRuns()).map((r) => r.id)).toEqual(['r1']);
      expect(await store.loadRun('r1')).toEqual({ meta: testMeta('r1'), state: INITIAL_RUN_STATE });
      expect(await store.loadRun('other')).toBeNull();
      await expect(store.createRun(testMeta('r1'))).rejects.toMatchObject({ code: 'run_exists' });
    });

    it('commitEpoch keeps everything of each epoch; loadRun continues from the last one', async () => {
      const store = await setup.makeStore();
      const epochs = setup.realEpochs();
      await store.createRun(testMeta('r1'));
      for (const result of epochs) await store.commitEpoch('r1', result);
      const loaded = await store.loadRun('r1');
      expect(loaded?.meta.epochsCompleted).toBe(2);
      expect(loaded?.state).toEqual(epochs[1]!.nextState);
      const envs = epochs.flatMap((r) => r.environments);
      expect(await store.queryEnvironments('r1')).toEqual(envs);
      for (const env of envs) {
        expect(await store.getEnvironment('r1', env.id)).toEqual(env);
        expect(await store.episodesOf('r1', env.id)).toEqual(
          epochs.flatMap((r) => r.episodes).filter((e) => e.envId === env.id),
        );
      }
      expect(await store.getEnvironment('r1', 'e9999-s00')).toBeNull();
      expect(await store.metricsOf('r1')).toEqual(epochs.map((r) => r.metrics));
      expect(await store.timingsOf('r1')).toEqual(epochs.map((r) => r.timings));
      expect(await store.rolloutsOf('r1')).toEqual(epochs.flatMap((r) => r.rollouts));
      expect(await store.chartRowsOf('r1')).toEqual(
        epochs.map((r) => ({
          metrics: r.metrics,
          timings: r.timings,
          environments: summarizeEnvironments(r.epoch, r.environments),
        })),
      );
    });

    it("each epoch's chart summary counts only its own valid environments", async () => {
      const store = await setup.makeStore();
      const epochs = setup.syntheticEpochs();
      await store.createRun(testMeta('c'));
      for (const result of epochs) await store.commitEpoch('c', result);
      const rows = await store.chartRowsOf('c');
      expect(rows.map((r) => r.environments.epoch)).toEqual(epochs.map((r) => r.epoch));
      expect(rows.map((r) => r.environments.environments)).toEqual(
        epochs.map((r) => r.environments.filter((e) => e.status === 'valid').length),
      );
      expect(rows.some((r) => r.environments.environments < epochs[0]!.environments.length)).toBe(true);
      expect(rows.map((r) => r.environments)).toEqual(
        epochs.map((r) => summarizeEnvironments(r.epoch, r.environments)),
      );
    });

    it('an epoch that does not follow the last committed one is refused and writes nothing', async () => {
      const store = await setup.makeStore();
      const [first, second] = setup.realEpochs();
      await store.createRun(testMeta('r1'));
      await expect(store.commitEpoch('r1', second!)).rejects.toMatchObject({ code: 'epoch_conflict' });
      await store.commitEpoch('r1', first!);
      const error = await store.commitEpoch('r1', first!).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect((error as StoreError).message).toMatch(/expected epoch 1 .* got epoch 0/);
      expect(await store.countEnvironments('r1')).toBe(first!.environments.length);
      expect((await store.loadRun('r1'))?.state).toEqual(first!.nextState);
      await expect(store.commitEpoch('missing', first!)).rejects.toMatchObject({ code: 'no_run' });
    });

    it('answers every explorer query (filters, sort keys, directions, pages) in the documented order', async () => {
      const store = await setup.makeStore();
      const epochs = setup.syntheticEpochs();
      await store.createRun(testMeta('q'));
      for (const result of epochs) await store.commitEpoch('q', result);
      const all = epochs.flatMap((r) => r.environments);
      for (const query of ALL_QUERIES) {
        const selected = selectEnvironments(all, query);
        const expected = selected.map((e) => e.id);
        expect(
          (await store.queryEnvironments('q', query)).map((e) => e.id),
          JSON.stringify(query),
        ).toEqual(expected);
        expect(await store.queryEnvironmentSummaries('q', query), JSON.stringify(query)).toEqual(
          selected.map(summarizeEnvironment),
        );
        expect(await store.countEnvironments('q', query), JSON.stringify(query)).toBe(
          selectEnvironments(all, { ...query, offset: 0, limit: undefined }).length,
        );
      }
    });

    it('updateRun patches the meta and refuses unknown runs', async () => {
      const store = await setup.makeStore();
      await store.createRun(testMeta('r1'));
      await store.updateRun('r1', { status: 'paused', lastError: 'quota' });
      const meta = (await store.loadRun('r1'))!.meta;
      expect(meta).toMatchObject({ id: 'r1', status: 'paused', lastError: 'quota', name: 'run r1' });
      expect(meta.updatedAt).toBeGreaterThan(testMeta('r1').updatedAt);
      await expect(store.updateRun('nope', { status: 'paused' })).rejects.toMatchObject({ code: 'no_run' });
    });

    it('deleteRun removes the run and everything of it', async () => {
      const store = await setup.makeStore();
      const epochs = setup.realEpochs();
      await store.createRun(testMeta('r1'));
      await store.commitEpoch('r1', epochs[0]!);
      await store.deleteRun('r1');
      expect(await store.loadRun('r1')).toBeNull();
      expect(await store.listRuns()).toEqual([]);
      expect(await store.queryEnvironments('r1')).toEqual([]);
      expect(await store.episodesOf('r1', epochs[0]!.environments[0]!.id)).toEqual([]);
      expect(await store.metricsOf('r1')).toEqual([]);
      expect(await store.chartRowsOf('r1')).toEqual([]);
      expect(await store.queryEnvironmentSummaries('r1', { limit: 5 })).toEqual([]);
      expect(await store.rolloutsOf('r1')).toEqual([]);
    });

    // A file store holds one run per directory, so only multi-run stores get this case.
    if (setup.multiRun)
      it('keeps runs apart and lists them oldest first', async () => {
        const store = await setup.makeStore();
        const [first] = setup.realEpochs();
        await store.createRun(testMeta('b', 2));
        await store.createRun(testMeta('a', 3));
        await store.createRun(testMeta('ab', 1));
        await store.commitEpoch('a', first!);
        expect((await store.listRuns()).map((r) => r.id)).toEqual(['ab', 'b', 'a']);
        expect(await store.countEnvironments('a')).toBe(2);
        expect(await store.countEnvironments('ab')).toBe(0);
        expect(await store.countEnvironments('b')).toBe(0);
        await store.deleteRun('ab');
        expect(await store.countEnvironments('a')).toBe(2);
      });
  });
}
