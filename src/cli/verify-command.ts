import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateFile } from '../formats/export/run-files.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, RolloutRow } from '../core/records.ts';
import type { EvalRecord } from '../core/eval/eval-record.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { Mismatch } from '../verify/checker.ts';
import type { VerifyConfig } from '../verify/recompute-epoch.ts';
import { recomputeRun, type StoredRun } from '../verify/recompute-run.ts';
import { completeConfig, type Config } from '../core/config.ts';
import { compareWithReference, type StoredEpoch } from '../core/scoring/reference-recompute.ts';
import { parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { referenceLines } from './reference-lines.ts';
import { errorMessage } from '../core/error-message.ts';
import { count } from './plural.ts';

async function text(dir: string, file: string, optional = false): Promise<string | null> {
  try {
    return await readFile(join(dir, file), 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read ${join(dir, file)}: ${errorMessage(error)}`);
  }
}

async function jsonLines<T extends { epoch: number }>(
  dir: string,
  file: string,
  epochs: number | null,
  optional = false,
): Promise<T[]> {
  const rows = ((await text(dir, file, optional)) ?? '').split('\n').flatMap((line, i) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as T];
    } catch {
      throw new Error(`${join(dir, file)}:${i + 1} is not valid JSON`);
    }
  });
  return epochs === null ? rows : rows.filter((row) => row.epoch < epochs);
}

/** A run directory's whole config, completed as the run itself reads it (knobs an earlier version lacked get the values it ran with). */
export async function readRunConfig(dir: string): Promise<Config> {
  return completeConfig((JSON.parse((await text(dir, 'config.json'))!) as { config: Config }).config);
}

/** The stored epochs of a run, in order, as the reference recomputation reads them. */
function storedEpochs(run: StoredRun): StoredEpoch[] {
  const epochs = [...new Set([...run.environments, ...run.episodes].map((r) => r.epoch))].sort((a, b) => a - b);
  return epochs.map((epoch) => ({
    epoch,
    environments: run.environments.filter((e) => e.epoch === epoch),
    episodes: run.episodes.filter((e) => e.epoch === epoch),
  }));
}

/** Reads a run directory as `spade run` writes it (records of uncommitted epochs are left out). */
export async function readStoredRun(dir: string): Promise<StoredRun> {
  const { config } = JSON.parse((await text(dir, 'config.json'))!) as { config: VerifyConfig };
  const stateText = await text(dir, 'state.json', true);
  const state = stateText === null ? null : (JSON.parse(stateText) as StateFile);
  const epochs = state?.epochsCompleted ?? null;
  return {
    config: {
      reward: config.reward,
      rolloutsPerEpoch: config.rolloutsPerEpoch,
      playsPerArm: config.playsPerArm,
      crashesLose: config.crashesLose === true,
      toolUseMasks: config.toolUseMasks === true,
      setting: config.setting ?? 'games',
    },
    environments: await jsonLines<EnvironmentRecord>(dir, 'environments.jsonl', epochs),
    episodes: await jsonLines<Episode>(dir, 'episodes.jsonl', epochs),
    rollouts: await jsonLines<RolloutRow>(dir, 'rollouts.jsonl', epochs),
    epochs: await jsonLines<EpochMetrics>(dir, 'epochs.jsonl', epochs),
    state: state ? { memory: state.state.memory, skillAverages: state.state.skillAverages } : null,
    evaluations: await jsonLines<EvalRecord>(dir, 'evals.jsonl', epochs, true),
  };
}

const shown = (value: unknown) =>
  value === undefined ? '(missing)' : (JSON.stringify(value) ?? String(value)).slice(0, 200);

/** One mismatch as printed: `mismatch <file> <id> <field>: stored X, recomputed Y`. */
export function mismatchLine(m: Mismatch): string {
  return `mismatch ${m.file} ${m.id} ${m.field}: stored ${shown(m.stored)}, recomputed ${shown(m.recomputed)}`;
}

/** The flags of `spade verify`. */
export const VERIFY_OPTIONS = {
  run: { type: 'string', value: 'DIR', help: 'the run directory to check; required' },
  json: { type: 'boolean', help: 'print the checked count and every mismatch as one JSON object' },
} as const satisfies OptionTable;

/**
 * `verify --run DIR [--json]`: recomputes a run's derived values from its turns, then what they
 * would be under the reference's rules where the run used a tab difference (informational); exit 0
 * when every stored value matches its recomputation, 1 otherwise.
 */
export async function runVerify(
  argv: string[],
  _runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, VERIFY_OPTIONS);
  if (positionals.length > 0)
    throw new UsageError(`verify takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.run) throw new UsageError('verify needs --run DIR');
  const run = await readStoredRun(String(values.run));
  const report = recomputeRun(run);
  const reference = compareWithReference(await readRunConfig(String(values.run)), storedEpochs(run));
  if (values.json)
    print(JSON.stringify({ run: values.run, checked: report.checked, mismatches: report.mismatches, reference }));
  else {
    for (const m of report.mismatches) print(mismatchLine(m));
    for (const line of referenceLines(reference)) print(line);
    print(
      `verify ${values.run}: ${report.checked} values recomputed, ${count(report.mismatches.length, 'mismatch', 'mismatches')}`,
    );
  }
  return report.mismatches.length === 0 ? 0 : 1;
}
