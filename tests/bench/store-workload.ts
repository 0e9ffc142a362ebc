// The store benchmark's workload, the same in Node (fake-indexeddb) and in Chromium (real
// IndexedDB): synthetic epochs cloned from one real scripted epoch, committed one by one, then
// explorer queries, the charts' data and exports. Environment-agnostic: the caller opens the store and gives a clock.
import { exportRun } from '../../src/adapters/store/export-run.ts';
import { ChartDataLoader } from '../../src/app/charts/chart-data.ts';
import { buildCharts, pointCount } from '../../src/app/charts/chart-series.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import { environmentId, type EpochResult } from '../../src/core/loop/epoch.ts';
import type { EnvironmentRecord, Episode, RolloutRow } from '../../src/core/records.ts';
import type { EnvironmentQuery, RunMeta, RunStore } from '../../src/core/ports/store-port.ts';

/** Sizes of the workload. */
export interface StoreWorkload {
  /** Epochs committed (each with `envsPerEpoch` environments). */
  epochs: number;
  envsPerEpoch: number;
  episodesPerEnv: number;
  /** Environments in the run exported (the first epochs of the big run are copied into it). */
  exportEnvironments: number;
}

/** The issue's sizes: 10,000 environments and 100,000 episodes; export of 1,000 environments. */
export const ISSUE_WORKLOAD: StoreWorkload = {
  epochs: 2500,
  envsPerEpoch: 4,
  episodesPerEnv: 10,
  exportEnvironments: 1000,
};

/** Benchmark figures, in milliseconds. */
export interface StoreFigures {
  environments: number;
  episodes: number;
  commitMedianMs: number;
  commitP95Ms: number;
  /** Median of each query's runs (20, or as many as fit in 2 s, at least 3), by label. */
  queries: Record<string, number>;
  exportPoolMs: number;
  exportArchiveMs: number;
  exportPoolBytes: number;
  /** The charts of the big run: first read of the store, a re-read with every epoch already summarised, building the chart series. */
  charts: { coldLoadMs: number; warmLoadMs: number; buildMs: number; points: number };
}

const SKILLS = [
  'Mathematical Reasoning',
  'Logical Deduction',
  'Spatial Reasoning',
  'Pattern Recognition',
  'Optimization',
  'Causal Inference',
];

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Epoch `epoch` of the synthetic run: real records re-labelled, scores varied, one slot in eight rejected. */
export function benchEpoch(base: EpochResult, epoch: number, w: StoreWorkload): EpochResult {
  const environments: EnvironmentRecord[] = [];
  const episodes: Episode[] = [];
  const rollouts: RolloutRow[] = [];
  for (let slot = 0; slot < w.envsPerEpoch; slot++) {
    const n = epoch * w.envsPerEpoch + slot;
    const src = base.environments[n % base.environments.length]!;
    const id = environmentId(epoch, slot);
    const rejected = n % 8 === 7;
    const r = ((n * 2654435761) >>> 0) / 2 ** 32;
    environments.push({
      ...src,
      id,
      epoch,
      slot,
      skill: SKILLS[n % SKILLS.length]!,
      status: rejected ? 'rejected' : 'valid',
      stats: rejected ? null : { ...src.stats!, regret: r * 2 - 1, winRate: (r * 7) % 1, designerReward: (r * 13) % 1 },
    });
    const own = base.episodes.filter((e) => e.envId === src.id);
    for (let i = 0; i < w.episodesPerEnv; i++) {
      const e = own[i % own.length]!;
      episodes.push({ ...e, id: `${id}-p${i}`, envId: id, epoch, index: i });
      rollouts.push({ ...base.rollouts[i % base.rollouts.length]!, envId: id, epoch });
    }
  }
  return {
    ...base,
    epoch,
    environments,
    episodes,
    rollouts,
    metrics: { ...base.metrics, epoch },
    timings: { ...base.timings, epoch },
    nextState: { ...base.nextState, epoch: epoch + 1 },
  };
}

const QUERIES: Array<[string, EnvironmentQuery]> = [
  ['page 1, epoch order (limit 50)', { limit: 50 }],
  ['top 50 by regret', { sortBy: 'regret', descending: true, limit: 50 }],
  ['skill filter, by win rate (limit 50)', { skill: 'Optimization', sortBy: 'winRate', limit: 50 }],
  [
    'valid, by reward, deep page (offset 5000)',
    { status: 'valid', sortBy: 'designerReward', descending: true, offset: 5000, limit: 50 },
  ],
  ['one epoch (all)', { epoch: 1234 }],
  ['one skill (all, ~1,700)', { skill: 'Logical Deduction' }],
];

function meta(id: string): RunMeta {
  return {
    id,
    name: id,
    createdAt: 0,
    updatedAt: 0,
    config: DEFAULT_CONFIG,
    modelId: 'bench',
    status: 'paused',
    epochsCompleted: 0,
    epochsPlanned: 0,
    lastError: null,
  };
}

async function measureCharts(store: RunStore, now: () => number): Promise<StoreFigures['charts']> {
  const loader = new ChartDataLoader(store);
  let start = now();
  const input = await loader.load('big');
  const coldLoadMs = now() - start;
  start = now();
  await loader.load('big');
  const warmLoadMs = now() - start;
  start = now();
  const specs = buildCharts(input);
  const buildMs = now() - start;
  return { coldLoadMs, warmLoadMs, buildMs, points: specs.reduce((sum, spec) => sum + pointCount(spec), 0) };
}

/** Runs the workload against an empty store. */
export async function runStoreWorkload(
  store: RunStore,
  base: EpochResult,
  now: () => number,
  w: StoreWorkload = ISSUE_WORKLOAD,
): Promise<StoreFigures> {
  await store.createRun(meta('big'));
  const commits: number[] = [];
  for (let epoch = 0; epoch < w.epochs; epoch++) {
    const result = benchEpoch(base, epoch, w);
    const start = now();
    await store.commitEpoch('big', result);
    commits.push(now() - start);
  }
  const queries: Record<string, number> = {};
  const time = async (label: string, run: () => Promise<unknown>) => {
    const runs: number[] = [];
    const began = now();
    while (runs.length < 20 && (runs.length < 3 || now() - began < 2000)) {
      const start = now();
      await run();
      runs.push(now() - start);
    }
    queries[label] = quantile(runs, 0.5);
  };
  for (const [label, query] of QUERIES) {
    await time(label, () => store.queryEnvironments('big', query));
    await time(`${label} [summaries]`, () => store.queryEnvironmentSummaries('big', query));
  }
  await time('count: skill and status', () =>
    store.countEnvironments('big', { skill: 'Optimization', status: 'valid' }),
  );
  await time('count: one skill', () => store.countEnvironments('big', { skill: 'Optimization' }));
  await time('episodes of one environment (of 100,000)', () => store.episodesOf('big', environmentId(1717, 2)));
  const charts = await measureCharts(store, now);
  await store.createRun(meta('export'));
  for (let epoch = 0; epoch < w.exportEnvironments / w.envsPerEpoch; epoch++)
    await store.commitEpoch('export', benchEpoch(base, epoch, w));
  let start = now();
  const pool = await exportRun(store, 'export', 'pool');
  const exportPoolMs = now() - start;
  start = now();
  await exportRun(store, 'export', 'archive');
  const exportArchiveMs = now() - start;
  return {
    environments: w.epochs * w.envsPerEpoch,
    episodes: w.epochs * w.envsPerEpoch * w.episodesPerEnv,
    commitMedianMs: quantile(commits, 0.5),
    commitP95Ms: quantile(commits, 0.95),
    queries,
    exportPoolMs,
    exportArchiveMs,
    exportPoolBytes: pool.bytes.length,
    charts,
  };
}
