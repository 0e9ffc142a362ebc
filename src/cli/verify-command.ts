import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { StateFile } from '../formats/export/run-files.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, RolloutRow } from '../core/records.ts';
import type { EvalRecord } from '../core/eval/eval-record.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { Mismatch } from '../verify/checker.ts';
import type { VerifyConfig } from '../verify/recompute-epoch.ts';
import { recomputeRun, type StoredRun } from '../verify/recompute-run.ts';
import { parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { errorMessage } from '../core/error-message.ts';

async function text(dir: string, file: string, optional = false): Promise<string | null> {
  try {
    return await readFile(join(dir, file), 'utf8');
  } catch (error) {
    if (optional && (error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw new Error(`cannot read ${join(dir, file)}: ${errorMessage(error)}`);
  }
}

async function jsonLines<T extends { epoch: number }>(dir: string, file: string, epochs: number | null, optional = false): Promise<T[]> {
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

const shown = (value: unknown) => (value === undefined ? '(missing)' : (JSON.stringify(value) ?? String(value)).slice(0, 200));

/** One mismatch as printed: `mismatch <file> <id> <field>: stored X, recomputed Y`. */
export function mismatchLine(m: Mismatch): string {
  return `mismatch ${m.file} ${m.id} ${m.field}: stored ${shown(m.stored)}, recomputed ${shown(m.recomputed)}`;
}

/** The flags of `spade verify`. */
export const VERIFY_OPTIONS = {
  run: { type: 'string', value: 'DIR', help: 'the run directory to check; required' },
  json: { type: 'boolean', help: 'print the checked count and every mismatch as one JSON object' },
} as const satisfies OptionTable;

/** `verify --run DIR [--json]`: recomputes a run's derived values from its turns; exit 0 all match, 1 otherwise. */
export async function runVerify(argv: string[], _runtime: () => SandboxRuntime, print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, VERIFY_OPTIONS);
  if (positionals.length > 0) throw new UsageError(`verify takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.run) throw new UsageError('verify needs --run DIR');
  const report = recomputeRun(await readStoredRun(String(values.run)));
  if (values.json) print(JSON.stringify({ run: values.run, checked: report.checked, mismatches: report.mismatches }));
  else {
    for (const m of report.mismatches) print(mismatchLine(m));
    print(`verify ${values.run}: ${report.checked} values recomputed, ${report.mismatches.length} mismatch(es)`);
  }
  return report.mismatches.length === 0 ? 0 : 1;
}
