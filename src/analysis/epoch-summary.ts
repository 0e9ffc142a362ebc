import type { EnvironmentRecord, EpochMetrics, EpochTimings } from '../core/records.ts';
import type { EpochChartRow, EpochEnvSummary } from '../core/ports/store-port.ts';

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

/** Summarises one epoch's valid environments (other epochs' records, rejected ones and unfinite scores are ignored). */
export function summarizeEnvironments(epoch: number, records: readonly EnvironmentRecord[]): EpochEnvSummary {
  const valid = records.filter((r) => r.status === 'valid' && r.epoch === epoch);
  const turns = valid
    .map((r) => r.stats?.turnsToWin)
    .filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
  const rewards = new Map<string, number[]>();
  for (const r of valid) {
    const reward = r.stats?.designerReward;
    if (typeof reward !== 'number' || !Number.isFinite(reward)) continue;
    rewards.set(r.skill, [...(rewards.get(r.skill) ?? []), reward]);
  }
  const designerRewardBySkill: Record<string, number> = {};
  for (const [skill, values] of rewards) designerRewardBySkill[skill] = mean(values)!;
  const byDomain: Record<string, { winRate: number; regret: number }> = {};
  for (const domain of new Set(valid.map((r) => r.domain).filter((d): d is string => typeof d === 'string'))) {
    const stats = valid
      .filter(
        (r) => r.domain === domain && r.stats && Number.isFinite(r.stats.winRate) && Number.isFinite(r.stats.regret),
      )
      .map((r) => r.stats!);
    if (stats.length > 0)
      byDomain[domain] = { winRate: mean(stats.map((s) => s.winRate))!, regret: mean(stats.map((s) => s.regret))! };
  }
  return {
    epoch,
    environments: valid.length,
    wonEnvironments: turns.length,
    meanTurnsToWin: mean(turns),
    meanCodeChars: mean(valid.map((r) => Array.from(r.code).length)),
    designerRewardBySkill,
    ...(Object.keys(byDomain).length > 0 ? { byDomain } : {}),
  };
}

/** The chart rows of a run's epochs (metrics and timings in epoch order, one each), summarising its environments epoch by epoch. */
export function chartRowsOf(
  metrics: readonly EpochMetrics[],
  timings: readonly EpochTimings[],
  environments: readonly EnvironmentRecord[],
): EpochChartRow[] {
  const byEpoch = new Map<number, EnvironmentRecord[]>();
  for (const env of environments) {
    const list = byEpoch.get(env.epoch);
    if (list) list.push(env);
    else byEpoch.set(env.epoch, [env]);
  }
  return metrics.map((m, i) => ({
    metrics: m,
    timings: timings[i]!,
    environments: summarizeEnvironments(m.epoch, byEpoch.get(m.epoch) ?? []),
  }));
}
