// Hand-made chart inputs for the chart tests: two skills, a skill missing in one epoch, a timing missing.
import type { ChartInput } from '../../src/app/charts/chart-data.ts';
import type { EpochEnvSummary } from '../../src/core/ports/store-port.ts';
import type { EpochMetrics } from '../../src/core/records.ts';

/** Metrics of one epoch with the given fields overridden. */
export function metric(epoch: number, patch: Partial<EpochMetrics> = {}): EpochMetrics {
  return {
    epoch,
    slots: 4,
    validEnvironments: 3,
    attempts: 5,
    validityRate: 0.6,
    meanRegret: 0.25,
    meanWinRate: 0.5,
    meanDesignerReward: 0.4,
    episodes: 24,
    droppedEpisodes: 0,
    quarantined: 0,
    designerScale: 2,
    promptTokens: 1000,
    completionTokens: 250,
    perSkill: {},
    ...patch,
  };
}

/** An environment summary of one epoch with the given fields overridden. */
export function envSummary(epoch: number, patch: Partial<EpochEnvSummary> = {}): EpochEnvSummary {
  return {
    epoch,
    environments: 3,
    wonEnvironments: 2,
    meanTurnsToWin: 2.5,
    meanCodeChars: 1200,
    designerRewardBySkill: {},
    ...patch,
  };
}

/** Two epochs: "Spatial" and "Logic" in epoch 0, only "Logic" in epoch 1; no timings for epoch 1. */
export const TWO_EPOCHS: ChartInput = {
  metrics: [
    metric(0, {
      perSkill: {
        Spatial: { environments: 1, meanRegret: 0.5, meanWinRate: 0.25 },
        Logic: { environments: 2, meanRegret: 0.125, meanWinRate: 0.625 },
      },
    }),
    metric(1, {
      validityRate: 0.8,
      meanRegret: 0.375,
      meanWinRate: 0.45,
      meanDesignerReward: 0.55,
      promptTokens: 1500,
      completionTokens: 400,
      perSkill: { Logic: { environments: 3, meanRegret: 0.375, meanWinRate: 0.45 } },
    }),
  ],
  timings: [{ epoch: 0, totalMs: 45_000, modelMs: 30_000, sandboxMs: 12_500 }],
  environments: [
    envSummary(0, { designerRewardBySkill: { Logic: 0.3, Spatial: 0.6 } }),
    envSummary(1, {
      meanTurnsToWin: null,
      wonEnvironments: 0,
      meanCodeChars: 1500.5,
      designerRewardBySkill: { Logic: 0.55 },
    }),
  ],
};
