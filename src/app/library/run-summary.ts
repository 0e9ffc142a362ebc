import { completeConfig } from '../../core/config.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';
import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import type { EpochMetrics } from '../../core/records.ts';
import { epochFigures } from '../../core/scoring/epoch-figures.ts';

/** A run's key settings and headline numbers, as the Runs list shows them. */
export interface RunSummary {
  reward: string;
  memory: boolean;
  corpus: boolean;
  playbook: boolean;
  seed: number;
  /** Unhinted plays per rollout. */
  k: number;
  /** The fixed pool's name (SPADE's `fixed_env` baseline), or null when a designer makes the environments. */
  fixedPool: string | null;
  /** The last stored held-out evaluation, or null when the run has none. */
  heldOut: { winRate: number; ci95: [number, number]; afterEpochs: number } | null;
  /** The last committed epoch's mean win rate and regret (1-based epoch; null figures when it scored no environment), or null before the first commit. */
  lastEpoch: { epoch: number; winRate: number | null; regret: number | null } | null;
}

/** The part of the run store the summaries read. */
export type SummaryStore = Pick<RunStore, 'metricsOf' | 'evaluationsOf'>;

const onOff = (on: boolean) => (on ? 'on' : 'off');
const rate = (value: number) => value.toFixed(2);

/** Summarises one run from its meta, metrics and evaluations (the last of each counts). */
export function summarizeRun(
  meta: RunMeta,
  metrics: readonly EpochMetrics[],
  evaluations: readonly EvalRecord[],
): RunSummary {
  const config = completeConfig(meta.config);
  const last = metrics.reduce<EpochMetrics | null>(
    (best, m) => (best === null || m.epoch > best.epoch ? m : best),
    null,
  );
  const evaluation = evaluations.at(-1);
  return {
    reward: config.reward,
    memory: config.useMemory,
    corpus: config.useCorpus,
    playbook: config.usePlaybook,
    seed: config.seed,
    k: config.playsPerArm,
    fixedPool: meta.fixedPool?.name ?? null,
    heldOut: evaluation
      ? { winRate: evaluation.winRate, ci95: evaluation.ci95, afterEpochs: evaluation.afterEpochs }
      : null,
    lastEpoch: last
      ? { epoch: last.epoch + 1, winRate: epochFigures(last).winRate, regret: epochFigures(last).regret }
      : null,
  };
}

/** The summaries of `runs` by run id, each read from the store (a run that cannot be read is left out). */
export async function summarizeRuns(
  store: SummaryStore,
  runs: readonly RunMeta[],
): Promise<Record<string, RunSummary>> {
  const read = await Promise.all(
    runs.map(async (meta) => {
      try {
        const [metrics, evaluations] = await Promise.all([store.metricsOf(meta.id), store.evaluationsOf(meta.id)]);
        return [[meta.id, summarizeRun(meta, metrics, evaluations)] as const];
      } catch {
        return [];
      }
    }),
  );
  return Object.fromEntries(read.flat());
}

/** The settings in one line: `reward blend · memory on · corpus off · playbook off · seed 1 · K 4 · designer`. */
export function settingsLine(summary: RunSummary): string {
  const source = summary.fixedPool === null ? 'designer' : `fixed pool ${summary.fixedPool}`;
  return [
    `reward ${summary.reward}`,
    `memory ${onOff(summary.memory)}`,
    `corpus ${onOff(summary.corpus)}`,
    `playbook ${onOff(summary.playbook)}`,
    `seed ${summary.seed}`,
    `K ${summary.k}`,
    source,
  ].join(' · ');
}

/** The held-out figure in words: `held-out 0.42 (95% 0.25 to 0.60) after 3 epochs`, or `not evaluated`. */
export function heldOutLine(summary: RunSummary): string {
  const held = summary.heldOut;
  if (!held) return 'not evaluated';
  const after =
    held.afterEpochs === 0
      ? 'before training'
      : `after ${held.afterEpochs} ${held.afterEpochs === 1 ? 'epoch' : 'epochs'}`;
  return `held-out ${rate(held.winRate)} (95% ${rate(held.ci95[0])} to ${rate(held.ci95[1])}) ${after}`;
}

/** The last epoch's figures in words: `last epoch 3: win rate 0.50, regret 0.25`, `last epoch 3: no data (no environment scored)`, or `no epoch yet`. */
export function lastEpochLine(summary: RunSummary): string {
  const last = summary.lastEpoch;
  if (!last) return 'no epoch yet';
  if (last.winRate === null || last.regret === null) return `last epoch ${last.epoch}: no data (no environment scored)`;
  return `last epoch ${last.epoch}: win rate ${rate(last.winRate)}, regret ${rate(last.regret)}`;
}
