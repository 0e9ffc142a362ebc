import { loadComparison, seedGroupHeldOut, type ComparisonStore } from './compare-data.ts';
import type { SweepPlan } from './sweep-plan.ts';

/** One grid cell's figures as read from the store: its settings, seeds, run ids and held-out mean with its interval. */
export interface SweepCellFigures {
  /** The cell's settings as the comparison labels its seed groups (`usePlaybook=on`), or `every run` when the grid has one cell. */
  cell: string;
  seeds: string;
  /** The ids of the cell's runs still stored (their statuses are the plan's, read when shown). */
  runIds: string[];
  /** The mean of its runs' last held-out win rates and the interval, in the compare view's words. */
  heldOut: string;
}

/** One row of the sweep's table: a cell's figures with how many of its runs the current plan has completed. */
export interface SweepFigureRow extends Omit<SweepCellFigures, 'runIds'> {
  /** `1 of 2 runs completed`. */
  completed: string;
}

/** What a cell whose runs schedule no held-out evaluation shows instead of a figure. */
const NOT_SCHEDULED = 'not evaluated (eval-every is 0: add eval-every=1 to the shared settings)';

/**
 * The sweep's figures per grid cell: its runs read and grouped over seeds by the comparison itself
 * (compareRuns' seed groups, so the numbers and the interval are the compare view's and `spade
 * compare --json`'s), read again as cells finish; runs deleted since are left out.
 */
export async function loadSweepFigures(store: ComparisonStore, plan: SweepPlan): Promise<SweepCellFigures[]> {
  const data = await loadComparison(
    store,
    plan.cells.map((c) => c.runId),
  );
  const runOf = new Map(data.runs.map((run) => [run.label, run]));
  return data.comparison.seedGroups.map((group) => {
    const runs = group.runs.map((label) => runOf.get(label)!);
    const unscheduled = group.evaluated === 0 && runs.every((run) => run.meta.config.evalEvery === 0);
    return {
      cell: group.label,
      seeds: group.seeds.join(', '),
      runIds: runs.map((run) => run.meta.id),
      heldOut: unscheduled ? NOT_SCHEDULED : seedGroupHeldOut(group),
    };
  });
}

/**
 * The table's rows: each cell's figures with its runs counted as completed by `plan` as it stands
 * now, so a row never lags the progress line while the figures are read again.
 */
export function sweepFigureRows(figures: SweepCellFigures[], plan: SweepPlan): SweepFigureRow[] {
  const statusOf = new Map(plan.cells.map((c) => [c.runId, c.status]));
  return figures.map(({ runIds, ...row }) => {
    const completed = runIds.filter((id) => statusOf.get(id) === 'completed').length;
    return { ...row, completed: `${completed} of ${runIds.length} ${runIds.length === 1 ? 'run' : 'runs'} completed` };
  });
}
