import { comparableModelId } from '../adapters/llm/scripted/bundled-scripts.ts';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { compareRuns, settingText, type ComparedRun, type RunComparison } from '../analysis/compare-runs.ts';
import type { HeldOutDifference, SeedGroup } from '../analysis/held-out-pairs.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { comparisonCsv } from '../formats/export/comparison-csv.ts';
import { parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { count } from './plural.ts';

/** Reads the run in directory `dir` for a comparison, named `label` (default: the directory as given). */
export async function comparedRun(dir: string, label = dir): Promise<ComparedRun> {
  const store = new FileRunStore(dir);
  const [meta] = await store.listRuns();
  if (!meta) throw new UsageError(`${dir} holds no run (expected the directory spade run --out wrote)`);
  return { label, meta, metrics: await store.metricsOf(meta.id), evaluations: await store.evaluationsOf(meta.id) };
}

const figure = (value: number | null) => (value === null ? 'no data' : value.toFixed(2));

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

const interval = ([lo, hi]: [number, number]) => `${figure(lo)} to ${figure(hi)}`;
const signed = (n: number) => `${n > 0 ? '+' : ''}${figure(n)}`;

/** A run's held-out difference from the first run as a cell: `+0.25 (-0.08 to +0.58)`, `-` for the first run, or why it is not paired. */
function differenceCell(difference: HeldOutDifference | null): string {
  if (difference === null) return '-';
  if (difference.kind === 'unpaired') return `none (${difference.reason})`;
  return `${signed(difference.difference)} (${signed(difference.ci95[0])} to ${signed(difference.ci95[1])})`;
}

/** Lines of the runs grouped over seeds (only when some group holds two runs or more): seeds, mean held-out win rate and its interval. */
function seedGroupLines(groups: readonly SeedGroup[]): string[] {
  if (!groups.some((g) => g.runs.length > 1)) return [];
  const rows = groups.map((g) => [
    g.label,
    g.seeds.join(','),
    g.meanWinRate === null
      ? 'none'
      : `${figure(g.meanWinRate)}${g.ci95 ? ` (${interval(g.ci95)})` : ''}${g.evaluated < g.runs.length ? ` over ${g.evaluated} of ${g.runs.length} runs` : ''}`,
  ]);
  return ['', 'over seeds:', ...aligned([['runs', 'seeds', 'mean held-out win rate (95% CI)'], ...rows])];
}

/** A comparison for the terminal: one row per run with the settings that differ, then its final figures (`no data` where the run has none, e.g. a fixed pool's validity; `none` for a run never evaluated on a held-out suite), its held-out difference from the first run, and the runs grouped over seeds. */
export function comparisonLines(comparison: RunComparison): string[] {
  const first = comparison.runs[0]?.label ?? '';
  const header = [
    'run',
    ...comparison.differences.map((d) => d.key),
    'epochs',
    'win rate',
    'regret',
    'validity',
    'designer reward',
    'held-out win rate (95% CI)',
    `held-out minus ${first} (paired 95% CI)`,
  ];
  const rows = comparison.runs.map((run, i) => {
    const held = run.heldOut
      ? `${figure(run.heldOut.winRate)} (${interval(run.heldOut.ci95)}) after ${count(run.heldOut.afterEpochs, 'epoch')}`
      : 'none';
    return [
      run.label,
      ...comparison.differences.map((d) => settingText(d.values[i] ?? null)),
      String(run.epochs),
      figure(run.winRate),
      figure(run.regret),
      figure(run.validity),
      figure(run.designerReward),
      held,
      differenceCell(comparison.versusFirst[i] ?? null),
    ];
  });
  const note =
    comparison.differences.length === 0
      ? ['every setting is the same in all runs']
      : [
          `${count(comparison.differences.length, 'setting')} ${comparison.differences.length === 1 ? 'differs' : 'differ'}: ${comparison.differences.map((d) => d.key).join(', ')}`,
        ];
  return [...note, ...aligned([header, ...rows]), ...seedGroupLines(comparison.seedGroups)];
}

/** The flags of `spade compare`. */
export const COMPARE_OPTIONS = {
  json: { type: 'boolean', help: 'print the comparison as one JSON object' },
  csv: { type: 'boolean', help: 'print the comparison as CSV, one row per run' },
} as const satisfies OptionTable;

/** `compare DIR... [--json | --csv]`: the settings that differ between runs and each run's final figures, as a table, JSON or CSV. */
export async function runCompare(
  argv: string[],
  _runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, COMPARE_OPTIONS);
  if (positionals.length === 0) throw new UsageError('compare needs at least one run directory');
  if (values.json && values.csv) throw new UsageError('compare prints --json or --csv, not both');
  const comparison = compareRuns(await Promise.all(positionals.map((dir) => comparedRun(dir))), comparableModelId);
  if (values.json) print(JSON.stringify(comparison));
  else if (values.csv) print(comparisonCsv(comparison).trimEnd());
  else comparisonLines(comparison).forEach((line) => print(line));
  return 0;
}
