import { loadComparison, seedGroupHeldOut, type ComparisonStore } from './compare-data.ts';
import type { SweepPlan } from './sweep-plan.ts';

/** One row of the sweep's table: a grid cell over its seeds, how many of its runs are completed, and its held-out mean with its interval. */
export interface SweepFigureRow {
  /** The cell's settings as the comparison labels its seed groups (`usePlaybook=on`), or `every run` when the grid has one cell. */
  cell: string;
  seeds: string;
  /** `1 of 2 runs completed`. */
  completed: string;
  /** The mean of its runs' last held-out win rates and the interval, in the compare view's words. */
  heldOut: string;
}

/** What a cell whose runs schedule no held-out evaluation shows instead of a figure. */
const NOT_SCHEDULED = 'not evaluated (eval-every is 0: add eval-every=1 to the shared settings)';

/**
 * The sweep's figures per grid cell: its runs read and grouped over seeds by the comparison itself
 * (compareRuns' seed groups, so the numbers and the interval are the compare view's and `spade
 * compare --json`'s), read again as cells finish; runs deleted since are left out.
 */
export async function loadSweepFigures(store: ComparisonStore, plan: SweepPlan): Promise<SweepFigureRow[]> {
  const data = await loadComparison(
    store,
    plan.cells.map((c) => c.runId),
  );
  const statusOf = new Map(plan.cells.map((c) => [c.runId, c.status]));
  const runOf = new Map(data.runs.map((run) => [run.label, run]));
  return data.comparison.seedGroups.map((group) => {
    const runs = group.runs.map((label) => runOf.get(label)!);
    const completed = runs.filter((run) => statusOf.get(run.meta.id) === 'completed').length;
    const unscheduled = group.evaluated === 0 && runs.every((run) => run.meta.config.evalEvery === 0);
    return {
      cell: group.label,
      seeds: group.seeds.join(', '),
      completed: `${completed} of ${runs.length} ${runs.length === 1 ? 'run' : 'runs'} completed`,
      heldOut: unscheduled ? NOT_SCHEDULED : seedGroupHeldOut(group),
    };
  });
}
