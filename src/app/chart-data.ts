import type { EnvironmentRecord, EpochMetrics, EpochTimings } from '../core/records.ts';
import type { RunStore } from '../core/ports/store-port.ts';

/** What the charts need from one epoch's valid environments (kept small so it can be cached). */
export interface EpochEnvSummary {
  epoch: number;
  /** Valid environments of the epoch. */
  environments: number;
  /** Valid environments with at least one won unhinted play (stats.turnsToWin set). */
  wonEnvironments: number;
  /** Mean of the won environments' turns to win (each the mean over its won unhinted plays); null when none was won. */
  meanTurnsToWin: number | null;
  /** Mean code length in characters (Unicode code points) of the valid environments; null when there are none. */
  meanCodeChars: number | null;
  /** Mean designer reward per skill over the scored valid environments; skills without any are absent. */
  designerRewardBySkill: Record<string, number>;
}

/** Everything the charts are built from, for one run. */
export interface ChartInput {
  metrics: EpochMetrics[];
  timings: EpochTimings[];
  environments: EpochEnvSummary[];
}

/** The part of the run store the charts read. */
export type ChartStore = Pick<RunStore, 'metricsOf' | 'timingsOf' | 'queryEnvironments'>;

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length);

/** Summarises one epoch's valid environments (rejected ones and unfinite scores are ignored). */
export function summarizeEnvironments(epoch: number, records: readonly EnvironmentRecord[]): EpochEnvSummary {
  const valid = records.filter((r) => r.status === 'valid' && r.epoch === epoch);
  const turns = valid.map((r) => r.stats?.turnsToWin).filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  const rewards = new Map<string, number[]>();
  for (const r of valid) {
    const reward = r.stats?.designerReward;
    if (typeof reward !== 'number' || !Number.isFinite(reward)) continue;
    rewards.set(r.skill, [...(rewards.get(r.skill) ?? []), reward]);
  }
  const designerRewardBySkill: Record<string, number> = {};
  for (const [skill, values] of rewards) designerRewardBySkill[skill] = mean(values)!;
  return {
    epoch,
    environments: valid.length,
    wonEnvironments: turns.length,
    meanTurnsToWin: mean(turns),
    meanCodeChars: mean(valid.map((r) => Array.from(r.code).length)),
    designerRewardBySkill,
  };
}

/**
 * Loads a run's chart input. Committed epochs never change, so each epoch's environments are read
 * once (one `queryEnvironments` per new epoch) and later loads only read the epochs added since.
 */
export class ChartDataLoader {
  private runId: string | null = null;
  private summaries = new Map<number, EpochEnvSummary>();

  constructor(private readonly store: ChartStore) {}

  /** The chart input of `runId`, reading only what was not read before for this run. */
  async load(runId: string): Promise<ChartInput> {
    if (runId !== this.runId) {
      this.runId = runId;
      this.summaries = new Map();
    }
    const summaries = this.summaries;
    const [metrics, timings] = await Promise.all([this.store.metricsOf(runId), this.store.timingsOf(runId)]);
    const missing = metrics.map((m) => m.epoch).filter((epoch) => !summaries.has(epoch));
    const read = await Promise.all(missing.map(async (epoch) => summarizeEnvironments(epoch, await this.store.queryEnvironments(runId, { epoch, status: 'valid' }))));
    for (const summary of read) summaries.set(summary.epoch, summary);
    return { metrics, timings, environments: metrics.map((m) => summaries.get(m.epoch)!) };
  }
}
