import type { EpochMetrics, EpochTimings } from '../../core/records.ts';
import type { EpochEnvSummary } from '../../core/ports/store-port.ts';
import type { RunStore } from '../../core/ports/store-port.ts';

/** Everything the charts are built from, for one run. */
export interface ChartInput {
  metrics: EpochMetrics[];
  timings: EpochTimings[];
  environments: EpochEnvSummary[];
}

/** The part of the run store the charts read. */
export type ChartStore = Pick<RunStore, 'chartRowsOf'>;

/** Loads a run's chart input: one read of its epochs, each with the environment summary written when it was committed. */
export class ChartDataLoader {
  constructor(private readonly store: ChartStore) {}

  /** The chart input of `runId`. */
  async load(runId: string): Promise<ChartInput> {
    const rows = await this.store.chartRowsOf(runId);
    return {
      metrics: rows.map((r) => r.metrics),
      timings: rows.map((r) => r.timings),
      environments: rows.map((r) => r.environments),
    };
  }
}
