import type { RunStore } from '../../core/ports/store-port.ts';
import { ChartDataLoader } from '../charts/chart-data.ts';
import { heldOutCharts } from '../charts/chart-heldout.ts';
import type { ChartSpec } from '../charts/chart-series.ts';
import { loadEnvPage, type EnvPageData } from '../explorer/env-page.ts';
import { openExplorerSource, type ExplorerSource } from '../explorer/explorer-window.ts';
import { buildLearnFigures, type LearnFigures } from '../learn/learn.ts';
import { loadNextMemory, type NextMemory } from '../learn/next-memory.ts';

/** What the views read from stored runs (Learn, Charts, Explorer, an environment's page), bound to the app's store. */
export interface RunViews {
  /** What the Learn page explains about a run; null before its first committed epoch. */
  learnFigures(runId: string): Promise<LearnFigures | null>;
  /** What the designer will see from memory in a run's next epoch; null when the run is not stored. */
  nextMemory(runId: string): Promise<NextMemory | null>;
  /** A new loader of a run's chart input (it reads each committed epoch once). */
  chartLoader(): ChartDataLoader;
  /** The held-out charts of a run's evaluations (none before its first evaluation). */
  heldOutCharts(runId: string): Promise<ChartSpec[]>;
  /** The explorer's source of a run's environments; null when the run is no longer stored. */
  explorer(runId: string): Promise<ExplorerSource | null>;
  /** One environment with its episodes and its run; null when either is missing. */
  envPage(runId: string, envId: string): Promise<EnvPageData | null>;
}

/** The views' reads over `store`. */
export function runViews(store: RunStore): RunViews {
  return {
    learnFigures: (runId) => buildLearnFigures(store, runId),
    nextMemory: (runId) => loadNextMemory(store, runId),
    chartLoader: () => new ChartDataLoader(store),
    heldOutCharts: async (runId) => heldOutCharts(await store.evaluationsOf(runId)),
    explorer: (runId) => openExplorerSource(store, runId),
    envPage: (runId, envId) => loadEnvPage(store, runId, envId),
  };
}
