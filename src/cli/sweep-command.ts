import { basename } from 'node:path';
import { formatModelId } from '../adapters/llm/model-id.ts';
import { bundledScriptOf, comparableModelId, demoSweepNote } from '../adapters/llm/scripted/bundled-scripts.ts';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { KNOBS } from '../core/config-table.ts';
import { compareRuns, type ComparedRun } from '../analysis/compare-runs.ts';
import { cellDirectory, sweepRunArgs } from '../analysis/sweep-commands.ts';
import { parseSweepGrid, sweepCells, SweepGridError, type SweepCell, type SweepGrid } from '../analysis/sweep-grid.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { RunMeta } from '../core/ports/store-port.ts';
import { integerOption, parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { comparedRun, comparisonLines } from './compare-command.ts';
import { CONFIG_FLAG_OPTIONS } from './config-flags.ts';
import { RUN_OPTIONS, runRun } from './run-command.ts';
import { errorMessage } from '../core/error-message.ts';
import { count } from './plural.ts';

/** The flags only the sweep reads; every other flag goes to each cell's `spade run` as written. */
export const SWEEP_OPTIONS = {
  grid: {
    type: 'string',
    value: "'KEY=A,B;KEY2=C,D'",
    help: 'the axes: config keys (or their flags) and the values each takes; one run per cell of their product; required',
  },
  seeds: { type: 'string', value: 'S1,S2,..', help: 'the seeds each cell runs with, one run each (default 1)' },
  model: RUN_OPTIONS.model,
  epochs: { type: 'string', value: 'N', help: 'epochs of every run (default 1)' },
  out: {
    type: 'string',
    value: 'DIR',
    help: "the sweep's directory: one run directory per cell and seed in it; required",
  },
} as const satisfies OptionTable;

/** The run flags a sweep passes to every cell: all of `spade run`'s but those the sweep sets itself (it continues unfinished cells on its own, so no --resume or --replace). */
export const SWEEP_RUN_OPTIONS: OptionTable = Object.fromEntries(
  Object.entries(RUN_OPTIONS).filter(([name]) => !(name in SWEEP_OPTIONS) && name !== 'resume' && name !== 'replace'),
);

function parseSweepArgs(argv: string[]) {
  return parseCommandArgs(argv, { ...SWEEP_OPTIONS, ...SWEEP_RUN_OPTIONS, ...CONFIG_FLAG_OPTIONS });
}

/** The grid and its cells, a mistake in either as a usage error. */
function plannedCells(gridText: string, seedsText: string): { grid: SweepGrid; cells: SweepCell[] } {
  const seeds = seedsText.split(',').map((seed) => integerOption(seed.trim(), 'seeds', 0));
  try {
    const grid = parseSweepGrid(gridText);
    return { grid, cells: sweepCells(grid, seeds) };
  } catch (error) {
    throw error instanceof SweepGridError ? new UsageError(error.message) : error;
  }
}

/** The run flags given to every cell, refusing any that a grid axis (or the seeds) also sets. */
function sharedWords(tokens: NonNullable<ReturnType<typeof parseSweepArgs>['tokens']>, grid: SweepGrid): string[] {
  const swept = new Map<string, string>([['seed', 'the seeds (--seeds)']]);
  for (const axis of grid) {
    const knob = KNOBS.find((k) => k.key === axis.key)!;
    for (const flag of [knob.flag, knob.kind === 'toggle' ? knob.negatedFlag : undefined])
      if (flag) swept.set(flag, `the grid's ${axis.name}`);
  }
  return tokens.flatMap((token) => {
    if (token.kind !== 'option' || token.name in SWEEP_OPTIONS) return [];
    const clash = swept.get(token.name);
    if (clash) throw new UsageError(`--${token.name} is set by ${clash}; leave it out of the sweep's flags`);
    return token.value === undefined ? [`--${token.name}`] : [`--${token.name}`, token.value];
  });
}

/** The run a cell's directory holds already, if any. */
async function storedRun(dir: string): Promise<RunMeta | null> {
  const [meta] = await new FileRunStore(dir).listRuns();
  return meta ?? null;
}

/**
 * `sweep --model SPEC --grid 'k=a,b;k2=c,d' [--seeds 1,2,3] --epochs N --out DIR [run flags]`: one
 * `spade run` per grid cell and seed, each in DIR/<cell name>, skipping cells whose directory already
 * holds a completed run of N epochs and continuing (`--resume`) one that holds fewer (so a sweep
 * that stopped resumes), then the comparison of all cells. Exit 1 when a cell failed (the others still run).
 */
export async function runSweep(
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals, tokens } = parseSweepArgs(argv);
  if (positionals.length > 0) throw new UsageError(`sweep takes no positional arguments, got ${positionals.join(' ')}`);
  if (typeof values.model !== 'string' || typeof values.out !== 'string' || typeof values.grid !== 'string')
    throw new UsageError('sweep needs --model, --grid and --out');
  const epochs = integerOption(values.epochs, 'epochs', 1);
  if (epochs < 1) throw new UsageError('--epochs must be at least 1');
  const { grid, cells } = plannedCells(values.grid, typeof values.seeds === 'string' ? values.seeds : '1');
  const options = { model: values.model, epochs, out: values.out, shared: sharedWords(tokens, grid) };
  const demoNote =
    values.model.startsWith('scripted:') &&
    bundledScriptOf(formatModelId({ kind: 'scripted', name: basename(values.model.slice('scripted:'.length)) }))
      ? demoSweepNote(grid)
      : null;
  if (demoNote) print(`note: ${demoNote}`);
  let failed = 0;
  for (const [i, cell] of cells.entries()) {
    const dir = cellDirectory(cell, values.out);
    const stored = await storedRun(dir);
    const done = stored?.status === 'completed' && stored.epochsCompleted >= epochs;
    print(
      `cell ${i + 1}/${cells.length} ${cell.name}${done ? `: skipped, ${dir} already holds a completed run of ${count(stored.epochsCompleted, 'epoch')}` : ''}`,
    );
    if (done) continue;
    try {
      await runRun([...sweepRunArgs(cell, options).slice(1), ...(stored ? ['--resume'] : [])], runtime, print);
    } catch (error) {
      if (error instanceof UsageError) throw error;
      failed++;
      print(`cell ${cell.name} failed: ${errorMessage(error)}`);
    }
  }
  const runs: ComparedRun[] = [];
  for (const cell of cells) {
    const dir = cellDirectory(cell, values.out);
    if ((await new FileRunStore(dir).listRuns()).length > 0) runs.push(await comparedRun(dir, cell.name));
  }
  print('');
  comparisonLines(compareRuns(runs, comparableModelId)).forEach((line) => print(line));
  return failed > 0 ? 1 : 0;
}
