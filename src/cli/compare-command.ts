import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { compareRuns, type ComparedRun, type RunComparison, type SettingValue } from '../core/experiments/compare-runs.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { comparisonCsv } from '../formats/export/comparison-csv.ts';
import { parseCommandArgs, UsageError } from './args.ts';

/** Reads the run in directory `dir` for a comparison, named `label` (default: the directory as given). */
export async function comparedRun(dir: string, label = dir): Promise<ComparedRun> {
  const store = new FileRunStore(dir);
  const [meta] = await store.listRuns();
  if (!meta) throw new UsageError(`${dir} holds no run (expected the directory spade run --out wrote)`);
  return { label, meta, metrics: await store.metricsOf(meta.id), evaluations: await store.evaluationsOf(meta.id) };
}

const figure = (value: number | null) => (value === null ? 'no data' : value.toFixed(2));
const setting = (value: SettingValue) => (value === null ? '-' : typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value));

/** Rows of words as lines whose columns line up. */
function aligned(rows: readonly string[][]): string[] {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows.map((row) =>
    row
      .map((word, column) => word.padEnd(widths[column]!))
      .join('  ')
      .trimEnd(),
  );
}

/** A comparison for the terminal: one row per run with the settings that differ, then its final figures (`no data` where the run has none, e.g. a fixed pool's validity; `none` for a run never evaluated on a held-out suite). */
export function comparisonLines(comparison: RunComparison): string[] {
  const header = ['run', ...comparison.differences.map((d) => d.key), 'epochs', 'win rate', 'regret', 'validity', 'designer reward', 'held-out win rate (95% CI)'];
  const rows = comparison.runs.map((run, i) => {
    const held = run.heldOut ? `${figure(run.heldOut.winRate)} (${figure(run.heldOut.ci95[0])}-${figure(run.heldOut.ci95[1])}) after ${run.heldOut.afterEpochs} epoch(s)` : 'none';
    return [
      run.label,
      ...comparison.differences.map((d) => setting(d.values[i] ?? null)),
      String(run.epochs),
      figure(run.winRate),
      figure(run.regret),
      figure(run.validity),
      figure(run.designerReward),
      held,
    ];
  });
  const note =
    comparison.differences.length === 0 ? ['every setting is the same in all runs'] : [`${comparison.differences.length} setting(s) differ: ${comparison.differences.map((d) => d.key).join(', ')}`];
  return [...note, ...aligned([header, ...rows])];
}

/** `compare DIR... [--json | --csv]`: the settings that differ between runs and each run's final figures, as a table, JSON or CSV. */
export async function runCompare(argv: string[], _runtime: () => SandboxRuntime, print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { json: { type: 'boolean' }, csv: { type: 'boolean' } });
  if (positionals.length === 0) throw new UsageError('compare needs at least one run directory');
  if (values.json && values.csv) throw new UsageError('compare prints --json or --csv, not both');
  const comparison = compareRuns(await Promise.all(positionals.map((dir) => comparedRun(dir))));
  if (values.json) print(JSON.stringify(comparison));
  else if (values.csv) print(comparisonCsv(comparison).trimEnd());
  else comparisonLines(comparison).forEach((line) => print(line));
  return 0;
}
