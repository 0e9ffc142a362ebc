// Runs as a comparison reads them: a meta over the tab defaults, epoch metrics and evaluations.
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { EvalRecord } from '../../src/core/eval/eval-record.ts';
import type { ComparedRun } from '../../src/analysis/compare-runs.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';
import type { EpochMetrics } from '../../src/core/records.ts';

/** A completed two-epoch run's meta with these settings. */
export function meta(config: Partial<Config> = {}, extra: Partial<RunMeta> = {}): RunMeta {
  return {
    id: 'r',
    name: 'r',
    createdAt: 0,
    updatedAt: 0,
    config: { ...DEFAULT_CONFIG, ...config },
    modelId: 'scripted:a.json',
    status: 'completed',
    epochsCompleted: 2,
    epochsPlanned: 2,
    lastError: null,
    ...extra,
  };
}

/** An epoch's metrics: win rate as given, regret 0.25 + epoch, validity 0.6, designer reward 0.125. */
export function metrics(epoch: number, winRate: number): EpochMetrics {
  return {
    epoch,
    slots: 4,
    validEnvironments: 3,
    attempts: 5,
    validityRate: 0.6,
    meanRegret: 0.25 + epoch,
    meanWinRate: winRate,
    meanDesignerReward: 0.125,
    episodes: 16,
    droppedEpisodes: 0,
    quarantined: 0,
    designerScale: 1,
    promptTokens: 0,
    completionTokens: 0,
    perSkill: {},
  };
}

/** A scheduled evaluation on `tiny` after `afterEpochs` epochs, interval [0.1, 0.9]. */
export function evaluation(afterEpochs: number, winRate: number): EvalRecord {
  const summary = { environments: 2, episodes: 4, wins: 2, winRate, ci95: [0.1, 0.9] as [number, number] };
  return {
    ...summary,
    epoch: afterEpochs - 1,
    suite: 'tiny',
    suiteSha256: 'ab',
    afterEpochs,
    trigger: 'schedule',
    playbook: false,
    lessonsShown: 0,
    seedsPerEnvironment: 2,
    perSkill: {},
    plays: [],
  };
}

/** A run to compare. */
export const run = (label: string, m: RunMeta, epochs: EpochMetrics[] = [], evals: EvalRecord[] = []): ComparedRun => ({
  label,
  meta: m,
  metrics: epochs,
  evaluations: evals,
});
