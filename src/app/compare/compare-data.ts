import { comparableModelId } from '../../adapters/llm/scripted/bundled-scripts.ts';
import { compareRuns, type ComparedRun, type RunComparison } from '../../analysis/compare-runs.ts';
import type { HeldOutDifference, SeedGroup } from '../../analysis/held-out-pairs.ts';
import type { RunStore } from '../../core/ports/store-port.ts';
import { overlayCharts, type OverlayChart } from './compare-charts.ts';

/** The part of the run store a comparison reads. */
export type ComparisonStore = Pick<RunStore, 'loadRun' | 'metricsOf' | 'evaluationsOf'>;

/** What the compare view shows: the runs read, their differences and finals, and the overlay charts. */
export interface ComparisonData {
  /** The run ids asked for, in order. */
  ids: string[];
  runs: ComparedRun[];
  comparison: RunComparison;
  charts: OverlayChart[];
  /** Labels of the runs without any held-out evaluation. */
  unevaluated: string[];
  /** Selected runs that are no longer stored (deleted since), by id. */
  missing: string[];
}

/**
 * Labels for runs by name, numbered `name (2)`, `name (3)` where names repeat, so every line and
 * row is told apart; a number is skipped when another run is already called that (runs named
 * "Twin", "Twin (2)" and "Twin" give "Twin", "Twin (2)" and "Twin (3)").
 */
export function runLabels(names: readonly string[]): string[] {
  const taken = new Set<string>();
  const counts = new Map<string, number>();
  const numbered = (name: string, repeats: number) => (repeats === 0 ? name : `${name} (${repeats + 1})`);
  return names.map((name) => {
    let repeats = counts.get(name) ?? 0;
    while (taken.has(numbered(name, repeats))) repeats++;
    counts.set(name, repeats + 1);
    taken.add(numbered(name, repeats));
    return numbered(name, repeats);
  });
}

/** Reads the runs `ids` (in that order) and compares them. */
export async function loadComparison(store: ComparisonStore, ids: readonly string[]): Promise<ComparisonData> {
  const read = await Promise.all(
    ids.map(async (id) => {
      const loaded = await store.loadRun(id);
      if (!loaded) return { id, run: null };
      const [metrics, evaluations] = await Promise.all([store.metricsOf(id), store.evaluationsOf(id)]);
      return { id, run: { meta: loaded.meta, metrics, evaluations } };
    }),
  );
  const found = read.flatMap((r) => (r.run ? [r.run] : []));
  const labels = runLabels(found.map((r) => r.meta.name));
  const runs: ComparedRun[] = found.map((r, i) => ({ label: labels[i]!, ...r }));
  return {
    ids: [...ids],
    runs,
    comparison: compareRuns(runs, comparableModelId),
    charts: overlayCharts(runs),
    unevaluated: runs.filter((r) => r.evaluations.length === 0).map((r) => r.label),
    missing: read.filter((r) => !r.run).map((r) => r.id),
  };
}

const two = (n: number) => n.toFixed(2);
const signed = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : ''}${two(Math.abs(n))}`;

/** A run's held-out difference from the first run as the compare view words it: `+0.25 (−0.08 to +0.58)`, `baseline` for the first run, or why it is not paired. */
export function differenceText(difference: HeldOutDifference | null): string {
  if (difference === null) return 'baseline';
  if (difference.kind === 'unpaired') return `no paired difference (${difference.reason})`;
  return `${signed(difference.difference)} (${signed(difference.ci95[0])} to ${signed(difference.ci95[1])}) over ${difference.environments} environments`;
}

/** One row of the compare view's "over seeds" table. */
export interface SeedGroupRow {
  label: string;
  seeds: string;
  heldOut: string;
}

/** A group's mean held-out win rate and its interval in words (`0.38 (0.10 to 0.70)`), with how many of its runs were evaluated when not all were. */
export function seedGroupHeldOut(g: SeedGroup): string {
  if (g.meanWinRate === null) return 'not evaluated';
  const interval = g.ci95
    ? ` (${two(g.ci95[0])} to ${two(g.ci95[1])})`
    : ' (no interval: the runs played different suites or were not all evaluated)';
  return `${two(g.meanWinRate)}${interval}${g.evaluated < g.runs.length ? `, ${g.evaluated} of ${g.runs.length} runs evaluated` : ''}`;
}

/** The rows of the "over seeds" table, or null when no two runs differ only in their seed (the table is then not shown). */
export function seedGroupRows(groups: readonly SeedGroup[]): SeedGroupRow[] | null {
  if (!groups.some((g) => g.runs.length > 1)) return null;
  return groups.map((g) => ({ label: g.label, seeds: g.seeds.join(', '), heldOut: seedGroupHeldOut(g) }));
}
