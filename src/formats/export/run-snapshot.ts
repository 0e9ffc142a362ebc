import type { EpochResult, RunState } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import { RUN_STATUSES, type RunMeta, type RunStore } from '../../core/ports/store-port.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';

/** Everything a store holds about one run, as plain data (what an archive carries). */
export interface RunSnapshot {
  meta: RunMeta;
  /** The state after the last committed epoch. */
  state: RunState;
  /** Metrics and timings of each committed epoch, in epoch order. */
  epochs: Array<{ metrics: EpochMetrics; timings: EpochTimings }>;
  /** In the explorer's default order (epoch, then slot). */
  environments: EnvironmentRecord[];
  /** Grouped by environment in the order above, each environment's in play order. */
  episodes: Episode[];
  rollouts: RolloutRow[];
  /** Held-out evaluations in stored order. */
  evaluations: EvalRecord[];
}

/** Reads a whole run out of a store; null when there is no such run. */
export async function snapshotRun(store: RunStore, runId: string): Promise<RunSnapshot | null> {
  const loaded = await store.loadRun(runId);
  if (!loaded) return null;
  const [metrics, timings, environments, rollouts, evaluations] = await Promise.all([
    store.metricsOf(runId),
    store.timingsOf(runId),
    store.queryEnvironments(runId),
    store.rolloutsOf(runId),
    store.evaluationsOf(runId),
  ]);
  const episodes: Episode[] = [];
  for (const env of environments) episodes.push(...(await store.episodesOf(runId, env.id)));
  const timingOf = new Map(timings.map((t) => [t.epoch, t]));
  return {
    meta: loaded.meta,
    state: loaded.state,
    epochs: metrics.map((m) => ({
      metrics: m,
      timings: timingOf.get(m.epoch) ?? { epoch: m.epoch, totalMs: 0, modelMs: 0, sandboxMs: 0 },
    })),
    environments,
    episodes,
    rollouts,
    evaluations,
  };
}

/**
 * Splits a snapshot back into one EpochResult per epoch. Only the last carries the run's real
 * state; earlier ones carry it with their own epoch index (a store keeps only the latest state).
 */
export function epochResultsOf(snapshot: RunSnapshot): EpochResult[] {
  const environments = groupByEpoch(snapshot.environments);
  const episodes = groupByEpoch(snapshot.episodes);
  const rollouts = groupByEpoch(snapshot.rollouts);
  const last = snapshot.epochs.length - 1;
  return snapshot.epochs.map(({ metrics, timings }, index) => ({
    epoch: metrics.epoch,
    environments: environments.get(metrics.epoch) ?? [],
    episodes: episodes.get(metrics.epoch) ?? [],
    rollouts: rollouts.get(metrics.epoch) ?? [],
    metrics,
    timings,
    evaluations: snapshot.evaluations.filter((e) => e.trigger === 'schedule' && e.epoch === metrics.epoch),
    nextState: index === last ? snapshot.state : { ...snapshot.state, epoch: metrics.epoch + 1 },
  }));
}

function groupByEpoch<T extends { epoch: number }>(rows: readonly T[]): Map<number, T[]> {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const group = groups.get(row.epoch);
    if (group) group.push(row);
    else groups.set(row.epoch, [row]);
  }
  return groups;
}

/** Marks a run whose import has not finished (it keeps this error if the tab dies midway). */
export const IMPORT_IN_PROGRESS = 'The import of this run did not finish; delete it and import again.';

/**
 * Writes a snapshot into a store as a new run, one committed epoch at a time (then its on-demand
 * evaluations), then restores its status. A run that was running when exported, or whose file
 * names no known status, comes back paused.
 */
export async function restoreRun(store: RunStore, snapshot: RunSnapshot): Promise<void> {
  const { meta } = snapshot;
  await store.createRun({ ...meta, status: 'paused', epochsCompleted: 0, lastError: IMPORT_IN_PROGRESS });
  for (const result of epochResultsOf(snapshot)) await store.commitEpoch(meta.id, result);
  for (const record of snapshot.evaluations.filter((e) => e.trigger === 'demand'))
    await store.addEvaluation(meta.id, record);
  const known = (RUN_STATUSES as readonly unknown[]).includes(meta.status) && meta.status !== 'running';
  await store.updateRun(meta.id, { status: known ? meta.status : 'paused', lastError: meta.lastError });
}
