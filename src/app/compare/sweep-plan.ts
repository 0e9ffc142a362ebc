import { DEFAULT_CONFIG, type Config } from '../../core/config.ts';
import { sweepCommands } from '../../analysis/sweep-commands.ts';
import { parseSweepGrid, sweepCells, SweepGridError, type SweepCell } from '../../analysis/sweep-grid.ts';
import { demoSweepNote } from '../../adapters/llm/scripted/bundled-scripts.ts';
import { parseModelId } from '../../adapters/llm/model-id.ts';
import { PREFERENCE_KEYS } from '../shell/preferences.ts';

/** What the sweep form holds. */
export interface SweepForm {
  /** e.g. `reward=blend,regret;memory=on,off`. */
  grid: string;
  /** Comma-separated run seeds, e.g. `1,2,3`. */
  seeds: string;
  epochs: number;
  /** Settings every cell shares, one value per key in the grid's syntax (e.g. `slots=2;plays=2`); empty: the tab defaults. */
  shared: string;
  modelId: string;
  /** How the form names the model. */
  modelLabel: string;
}

/** One run the sweep will create. */
export interface PlannedCell {
  name: string;
  config: Config;
}

/** A sweep form read: the runs it makes, the equivalent command lines, and what the scripted demo would not respond to; or what is wrong with it. */
export type SweepPreview =
  { cells: PlannedCell[]; commands: string[]; commandNote: string | null; demoNote: string | null } | { error: string };

/** The form a new sweep starts from: a grid the scripted demo responds to (its playbook, off first so the comparison's difference is on minus off), two seeds, and a held-out evaluation every epoch so the comparison has the answer with its interval. */
export const FIRST_SWEEP_FORM = { grid: 'playbook=off,on', seeds: '1,2', epochs: 2, shared: 'eval-every=1' } as const;

/** Where a cell of a sweep stands. */
export type CellStatus = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled';

/** One cell of a sweep under way: its run and how it went. */
export interface SweepPlanCell {
  name: string;
  runId: string;
  status: CellStatus;
  /** Why the cell failed, or null. */
  error: string | null;
}

/** Where a sweep stands: running (or interrupted by a reload), finished, or cancelled. */
export type SweepStatus = 'running' | 'finished' | 'cancelled';

/** A sweep as it is kept across reloads: its form, its runs, and each cell's status. */
export interface SweepPlan {
  form: SweepForm;
  status: SweepStatus;
  cells: SweepPlanCell[];
  createdAt: number;
}

/** Where the sweep plan is kept between reloads. */
export interface SweepPlanStorage {
  load(): SweepPlan | null;
  save(plan: SweepPlan): void;
  clear(): void;
}

/** The folder the copied commands write the sweep's runs to. */
const SWEEP_COMMAND_OUT = 'runs/sweep';

/** The `--model` of the copied commands: the demo's script file, an OpenAI-compatible server as is, else null (the command line runs no in-browser model). */
export function commandModel(modelId: string, demoModelId: string): string | null {
  if (modelId === demoModelId) return 'scripted:public/demo/demo-script.json';
  return parseModelId(modelId)?.kind === 'openai' ? modelId : null;
}

/** Reads `1, 2,3` as seeds; throws SweepGridError on anything else. */
export function parseSeeds(text: string): number[] {
  const words = text
    .split(',')
    .map((w) => w.trim())
    .filter((w) => w !== '');
  if (words.length === 0) throw new SweepGridError('expected at least one seed, e.g. 1,2,3');
  return words.map((word) => {
    if (!/^\d+$/.test(word))
      throw new SweepGridError(
        `expected seeds that are non-negative integers separated by commas, saw ${JSON.stringify(word)}`,
      );
    return Number(word);
  });
}

/** The shared settings as one cell (one value per key, none of them a grid key), and whether they set the hinted plays themselves. */
function sharedCell(text: string, gridKeys: ReadonlySet<string>): { cell: SweepCell; setsHintPlays: boolean } | null {
  if (text.trim() === '') return null;
  const shared = parseSweepGrid(text);
  for (const axis of shared) {
    if (axis.values.length !== 1)
      throw new SweepGridError(
        `shared settings take one value each; ${axis.name} has ${axis.values.length} (sweep it in the grid instead)`,
      );
    if (gridKeys.has(axis.key))
      throw new SweepGridError(`${axis.name} is both in the grid and in the shared settings; keep it in one`);
  }
  return { cell: sweepCells(shared, [0])[0]!, setsHintPlays: shared.some((axis) => axis.key === 'hintPlays') };
}

/**
 * Reads a sweep form: the grid's cells (named by `sweepCells`), each over the tab defaults with the
 * shared settings and then the cell's own applied (a shared `hint-plays` stays when the grid sweeps
 * `plays`, as `spade run` keeps an explicit `--hint-plays`), and the CLI lines doing the same.
 */
export function previewSweep(form: SweepForm, demoModelId: string): SweepPreview {
  try {
    if (!Number.isInteger(form.epochs) || form.epochs < 1)
      throw new SweepGridError(`expected a whole number of epochs of at least 1, saw ${form.epochs}`);
    const grid = parseSweepGrid(form.grid);
    const cells = sweepCells(grid, parseSeeds(form.seeds));
    const shared = sharedCell(form.shared, new Set(grid.map((axis) => axis.key)));
    const { seed: _seed, ...sharedPatch } = shared?.cell.patch ?? {};
    const planned = cells.map((cell) => {
      const config: Config = { ...DEFAULT_CONFIG, ...sharedPatch, ...cell.patch };
      if (shared?.setsHintPlays) config.hintPlays = sharedPatch.hintPlays!;
      return { name: cell.name, config };
    });
    const model = commandModel(form.modelId, demoModelId);
    const commands = sweepCommands(cells, {
      model: model ?? 'openai:http://127.0.0.1:8080/v1#MODEL',
      epochs: form.epochs,
      out: SWEEP_COMMAND_OUT,
      shared: shared?.cell.args ?? [],
    });
    const commandNote = model
      ? null
      : `The command line cannot run ${form.modelLabel} (a model loaded in this tab); the commands name an OpenAI-compatible server instead: edit --model.`;
    return {
      cells: planned,
      commands,
      commandNote,
      demoNote: form.modelId === demoModelId ? demoSweepNote(grid) : null,
    };
  } catch (error) {
    if (error instanceof SweepGridError) return { error: error.message };
    throw error;
  }
}

/** Counts of a plan's cells by status, and the cell under way (1-based, null when none). */
export function sweepProgress(plan: SweepPlan): {
  done: number;
  failed: number;
  total: number;
  current: number | null;
} {
  const index = plan.cells.findIndex((c) => c.status === 'running');
  return {
    done: plan.cells.filter((c) => c.status === 'completed').length,
    failed: plan.cells.filter((c) => c.status === 'failed').length,
    total: plan.cells.length,
    current: index < 0 ? null : index + 1,
  };
}

const STATUSES: readonly CellStatus[] = ['pending', 'running', 'completed', 'failed', 'cancelled'];

/** A stored plan read back, or null when the text is not one (an older or damaged entry is dropped, never half-read). */
export function parsePlan(text: string | null): SweepPlan | null {
  if (!text) return null;
  try {
    const plan = JSON.parse(text) as SweepPlan;
    const cellsOk =
      Array.isArray(plan.cells) &&
      plan.cells.every((c) => typeof c.name === 'string' && typeof c.runId === 'string' && STATUSES.includes(c.status));
    const formOk =
      typeof plan.form?.grid === 'string' &&
      typeof plan.form.modelId === 'string' &&
      typeof plan.form.epochs === 'number';
    return cellsOk && formOk && ['running', 'finished', 'cancelled'].includes(plan.status) ? plan : null;
  } catch {
    return null;
  }
}

/** The sweep plan in a Storage (the page's localStorage in the app; one sweep at a time); a storage that refuses or is denied keeps the sweep for this tab only. */
export function localSweepStorage(
  storage: () => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>,
): SweepPlanStorage {
  const attempt = <T>(action: () => T, fallback: T): T => {
    try {
      return action();
    } catch {
      return fallback;
    }
  };
  return {
    load: () => attempt(() => parsePlan(storage().getItem(PREFERENCE_KEYS.sweep)), null),
    save: (plan) => attempt(() => storage().setItem(PREFERENCE_KEYS.sweep, JSON.stringify(plan)), undefined),
    clear: () => attempt(() => storage().removeItem(PREFERENCE_KEYS.sweep), undefined),
  };
}
