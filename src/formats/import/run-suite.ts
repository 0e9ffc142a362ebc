import type { SuiteEnvironment } from '../../core/eval/suite.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import type { HashText, ImportProblem } from '../export/files.ts';
import { makeSuite, validateSuiteEnvironments, type ReadSuite, type SuiteValidation } from './suite-import.ts';
import { count } from '../plural.ts';

/** The run whose pool is frozen: its name and how many epochs it has committed. */
export interface FrozenRun {
  name: string;
  epochsCompleted: number;
}

/** The name of a run's pool frozen at `epoch` (counted as the app shows epochs: 1 is the first). */
export function runSuiteName(runName: string, epoch: number): string {
  return `run ${runName} at epoch ${epoch}`;
}

/** Why a run with `epochsCompleted` committed epochs cannot be frozen at `epoch` (app count, 1 is the first), with the valid range; null when it can. */
export function runSuiteEpochProblem(run: FrozenRun, epoch: number): string | null {
  if (run.epochsCompleted < 1)
    return `the run ${run.name} has no committed epoch, so it has no pool to evaluate on yet`;
  if (Number.isInteger(epoch) && epoch >= 1 && epoch <= run.epochsCompleted) return null;
  const range = run.epochsCompleted === 1 ? 'epoch 1' : `an epoch from 1 to ${run.epochsCompleted}`;
  return `the run ${run.name} has ${count(run.epochsCompleted, 'committed epoch')}: expected ${range}, got ${epoch}`;
}

const wellFormed = (env: EnvironmentRecord) =>
  typeof env.id === 'string' &&
  typeof env.skill === 'string' &&
  typeof env.code === 'string' &&
  Number.isInteger(env.epoch) &&
  Number.isInteger(env.slot);

/**
 * A run's pool after its first `epoch` epochs (app count: stored epochs 0 to `epoch` - 1): its
 * valid environments (never rejected or quarantined ones) in epoch then slot order, ids the
 * environment ids. An environment whose code an earlier one already has is left out (a fixed-pool
 * run plays its pool again and again), so each game counts once.
 */
export function runPoolEnvironments(environments: readonly EnvironmentRecord[], epoch: number): SuiteEnvironment[] {
  const taken = environments
    .filter((env) => wellFormed(env) && env.status === 'valid' && env.epoch < epoch)
    .sort((a, b) => a.epoch - b.epoch || a.slot - b.slot);
  const seen = new Set<string>();
  const pool: SuiteEnvironment[] = [];
  for (const env of taken) {
    if (seen.has(env.code.trim())) continue;
    seen.add(env.code.trim());
    pool.push({ id: env.id, skill: env.skill, code: env.code, title: null });
  }
  return pool;
}

/**
 * A run's pool frozen at `epoch` (app count, 1 is the first) as a suite named
 * `run <name> at epoch <epoch>`, hashed like any suite, validating every environment when
 * `validation` is given (each one left out comes back as a problem). Throws when the epoch is out
 * of range (saying the range) or no environment is left.
 */
export async function runPoolSuite(
  run: FrozenRun,
  environments: readonly EnvironmentRecord[],
  epoch: number,
  hashText: HashText,
  validation?: SuiteValidation,
): Promise<ReadSuite> {
  const range = runSuiteEpochProblem(run, epoch);
  if (range) throw new Error(range);
  const name = runSuiteName(run.name, epoch);
  const found = runPoolEnvironments(environments, epoch);
  const checked = validation
    ? await validateSuiteEnvironments(found, validation)
    : { valid: found, problems: [] as ImportProblem[] };
  if (checked.valid.length === 0) {
    const reasons = checked.problems.map((p) => `${p.source}: ${p.reason}`);
    throw new Error(
      `the suite ${name} has no usable environment${reasons.length > 0 ? ` (${reasons.slice(0, 3).join('; ')})` : `; the run has no valid environment in epochs 1 to ${epoch}`}`,
    );
  }
  return { suite: await makeSuite(name, checked.valid, hashText), problems: checked.problems };
}
