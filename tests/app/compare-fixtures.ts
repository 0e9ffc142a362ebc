// Synthetic stored runs for the comparison tests and the compare view benchmark: epochs with
// metrics only (no environments), a scheduled held-out evaluation every few epochs.
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { EvalRecord } from '../../src/core/eval/eval-record.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import type { RunMeta, RunStore } from '../../src/core/ports/store-port.ts';
import type { EpochMetrics } from '../../src/core/records.ts';

/** A run's meta over the tab defaults, `epochsPlanned` planned and none committed. */
export function syntheticMeta(id: string, config: Partial<Config> = {}, epochsPlanned = 2): RunMeta {
  return {
    id,
    name: id,
    createdAt: 0,
    updatedAt: 0,
    config: { ...DEFAULT_CONFIG, ...config },
    modelId: 'scripted:spade-lab-demo',
    status: 'new',
    epochsCompleted: 0,
    epochsPlanned,
    lastError: null,
  };
}

/** Epoch metrics whose figures follow from the epoch and a run number (all four means in [0, 1]). */
export function syntheticMetrics(epoch: number, run: number): EpochMetrics {
  const wave = (k: number) => 0.5 + 0.4 * Math.sin((epoch + run * 3 + k) / 5);
  return {
    epoch,
    slots: 4,
    validEnvironments: 3,
    attempts: 5,
    validityRate: wave(1),
    meanRegret: wave(2) / 2,
    meanWinRate: wave(3),
    meanDesignerReward: wave(4) / 2,
    episodes: 24,
    droppedEpisodes: 0,
    quarantined: 0,
    designerScale: 2,
    promptTokens: 0,
    completionTokens: 0,
    perSkill: {},
  };
}

/** A scheduled evaluation after `afterEpochs` on suite `suite`, win rate `winRate` with the interval ±0.2 (clipped). */
export function syntheticEvaluation(afterEpochs: number, winRate: number, suite = 'builtin'): EvalRecord {
  const ci95: [number, number] = [Math.max(0, winRate - 0.2), Math.min(1, winRate + 0.2)];
  return {
    environments: 24,
    episodes: 48,
    wins: Math.round(winRate * 48),
    winRate,
    ci95,
    epoch: afterEpochs - 1,
    suite,
    suiteSha256: `sha-${suite}`,
    afterEpochs,
    trigger: 'schedule',
    playbook: false,
    lessonsShown: 0,
    seedsPerEnvironment: 2,
    perSkill: {},
    plays: [],
  };
}

/** Commits `epochs` synthetic epochs to a created run, an evaluation after every `evalEvery` (0: none). */
export async function commitSyntheticEpochs(
  store: RunStore,
  runId: string,
  run: number,
  epochs: number,
  evalEvery = 0,
): Promise<void> {
  for (let epoch = 0; epoch < epochs; epoch++) {
    const evaluations =
      evalEvery > 0 && (epoch + 1) % evalEvery === 0
        ? [syntheticEvaluation(epoch + 1, Math.min(1, 0.2 + 0.01 * epoch + 0.05 * run))]
        : [];
    const result: EpochResult = {
      epoch,
      environments: [],
      episodes: [],
      rollouts: [],
      metrics: syntheticMetrics(epoch, run),
      timings: { epoch, totalMs: 1000, modelMs: 800, sandboxMs: 100 },
      evaluations,
      nextState: { epoch: epoch + 1, memory: [], skillAverages: {} },
    };
    await store.commitEpoch(runId, result);
  }
}

/** Stores `count` completed runs of `epochs` epochs each (ids `run-0`..), rewards alternating, evaluated every 5 epochs; returns their ids. */
export async function storeSyntheticRuns(store: RunStore, count: number, epochs: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = `run-${i}`;
    await store.createRun(syntheticMeta(id, { reward: i % 2 === 0 ? 'blend' : 'regret', seed: i + 1 }, epochs));
    await commitSyntheticEpochs(store, id, i, epochs, 5);
    await store.updateRun(id, { status: 'completed' });
    ids.push(id);
  }
  return ids;
}
