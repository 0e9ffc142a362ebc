import type { EpochMetrics } from '../records.ts';

/** An epoch's headline means, null where the epoch has none to average (shown as "no data", never as 0). */
export interface EpochFigures {
  /** Share of design attempts that validated; null when the epoch made no attempt (a fixed pool's epoch). */
  validity: number | null;
  /** Mean regret, win rate and designer reward of the scored environments; null when none was scored. */
  regret: number | null;
  winRate: number | null;
  designerReward: number | null;
}

/** True when the epoch has scores: at least one valid environment and played episodes (an imported pool's epoch has none). */
export const isScoredEpoch = (m: EpochMetrics): boolean => m.validEnvironments > 0 && m.episodes > 0;

/** The epoch's means, each null where the stored 0 stands for "nothing to average" rather than a measured 0. */
export function epochFigures(m: EpochMetrics): EpochFigures {
  const scored = isScoredEpoch(m);
  return {
    validity: m.attempts > 0 ? m.validityRate : null,
    regret: scored ? m.meanRegret : null,
    winRate: scored ? m.meanWinRate : null,
    designerReward: scored ? m.meanDesignerReward : null,
  };
}
