import type { EnvironmentRecord, Episode, EpochMetrics } from '../../core/records.ts';
import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import { MEMORY_CAPACITY } from '../../core/loop/memory.ts';
import { plateau } from '../../core/scoring/regret.ts';

/** The numbers the Learn page explains, taken from one stored run. */
export interface LearnFigures {
  meta: RunMeta;
  epochs: EpochMetrics[];
  /** The valid environment with the highest regret (the clearest example of the hint helping). */
  example: EnvironmentRecord | null;
  exampleEpisodes: Episode[];
  /** plateau(w) of the example. */
  examplePlateau: number;
  validCount: number;
  rejectedCount: number;
  /** Design attempts the sandbox's checks rejected, in every epoch (those of slots that later validated too). */
  failedAttempts: number;
  /** Records the designer's memory holds now. */
  memorySize: number;
  /** A later environment whose prompt showed remembered examples, if any. */
  memoryUse: EnvironmentRecord | null;
}

/** Reads what the Learn page needs from the store; null when the run has no committed epoch yet. */
export async function buildLearnFigures(store: RunStore, runId: string): Promise<LearnFigures | null> {
  const loaded = await store.loadRun(runId);
  if (!loaded || loaded.meta.epochsCompleted === 0) return null;
  const [epochs, byRegret, validCount, rejectedCount] = await Promise.all([
    store.metricsOf(runId),
    store.queryEnvironments(runId, { status: 'valid', sortBy: 'regret', descending: true, limit: 1 }),
    store.countEnvironments(runId, { status: 'valid' }),
    store.countEnvironments(runId, { status: 'rejected' }),
  ]);
  const example = byRegret[0] ?? null;
  const later = await store.queryEnvironments(runId, { status: 'valid', sortBy: 'epoch', descending: true, limit: 50 });
  return {
    meta: loaded.meta,
    epochs,
    example,
    exampleEpisodes: example ? await store.episodesOf(runId, example.id) : [],
    examplePlateau: example?.stats ? plateau(example.stats.winRate) : 0,
    validCount,
    rejectedCount,
    failedAttempts: epochs.reduce((n, m) => n + Math.round(m.attempts * (1 - m.validityRate)), 0),
    memorySize: Math.min(MEMORY_CAPACITY, loaded.state.memory.length),
    memoryUse: later.find((e) => e.memoryShown.positives.length > 0 || e.memoryShown.negative !== null) ?? null,
  };
}
