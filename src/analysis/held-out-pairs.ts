import { pairedDifference, winRateInterval, type PairedDifference, type WinCount } from '../core/eval/bootstrap.ts';
import { countsByEnvironment, EVAL_BOOTSTRAP_SEED, type EvalRecord } from '../core/eval/eval-record.ts';

/** A run's last held-out win rate minus the first run's: paired over the environments both played, or why it cannot be. */
export type HeldOutDifference = ({ kind: 'paired' } & PairedDifference) | { kind: 'unpaired'; reason: string };

/** Wins and plays of each environment of an evaluation, by id. */
function countsById(record: EvalRecord): Map<string, WinCount> {
  const ids = [...new Set(record.plays.map((p) => p.envId))];
  const counts = countsByEnvironment(record.plays);
  return new Map(ids.map((id, i) => [id, counts[i]!]));
}

/**
 * The paired difference of two evaluations (`a` minus `b`): both must have played the same suite
 * (same digest) with as many seeds per environment, so every environment's plays used the same
 * seeds in both; then the bootstrap resamples environments once for both (pairedDifference).
 */
export function heldOutDifference(a: EvalRecord | undefined, b: EvalRecord | undefined): HeldOutDifference {
  if (!a || !b) return { kind: 'unpaired', reason: 'not evaluated' };
  if (a.suiteSha256 !== b.suiteSha256) return { kind: 'unpaired', reason: 'another suite' };
  if (a.seedsPerEnvironment !== b.seedsPerEnvironment) return { kind: 'unpaired', reason: 'other seeds' };
  const ca = countsById(a);
  const cb = countsById(b);
  const ids = [...ca.keys()];
  if (ids.length !== cb.size || ids.some((id) => !cb.has(id)))
    return { kind: 'unpaired', reason: 'other environments' };
  const paired = pairedDifference(
    ids.map((id) => ca.get(id)!),
    ids.map((id) => cb.get(id)!),
    EVAL_BOOTSTRAP_SEED,
  );
  return paired ? { kind: 'paired', ...paired } : { kind: 'unpaired', reason: 'no plays' };
}

/** Runs that differ only in their seed, taken together: their mean held-out win rate and its interval. */
export interface SeedGroup {
  /** The settings the group differs in from the other groups (`reward=blend`), or `every run` when there is one group. */
  label: string;
  /** Labels of its runs, in run order. */
  runs: string[];
  seeds: number[];
  /** Mean of the runs' last held-out win rates, over the runs that were evaluated (null: none was). */
  meanWinRate: number | null;
  /** Runs with a held-out evaluation. */
  evaluated: number;
  /** Interval of the mean: winRateInterval over each environment's plays summed over the runs (null unless every run was evaluated on the same suite). */
  ci95: [number, number] | null;
}

/** Every environment's wins and plays summed over evaluations of one suite, in first-seen order. */
function summedCounts(records: readonly EvalRecord[]): WinCount[] {
  const sums = new Map<string, WinCount>();
  for (const record of records)
    for (const [id, count] of countsById(record)) {
      const sum = sums.get(id) ?? { wins: 0, plays: 0 };
      sums.set(id, { wins: sum.wins + count.wins, plays: sum.plays + count.plays });
    }
  return [...sums.values()];
}

/** One group of runs that share every setting but the seed, from their last evaluations (undefined: not evaluated). */
export function seedGroup(
  label: string,
  runs: ReadonlyArray<{ label: string; seed: number; last: EvalRecord | undefined }>,
): SeedGroup {
  const records = runs.flatMap((run) => (run.last ? [run.last] : []));
  const sameSuite =
    records.length === runs.length &&
    records.every(
      (r) => r.suiteSha256 === records[0]!.suiteSha256 && r.seedsPerEnvironment === records[0]!.seedsPerEnvironment,
    );
  const counts = sameSuite ? summedCounts(records) : [];
  return {
    label,
    runs: runs.map((run) => run.label),
    seeds: runs.map((run) => run.seed),
    meanWinRate: records.length === 0 ? null : records.reduce((sum, r) => sum + r.winRate, 0) / records.length,
    evaluated: records.length,
    ci95: sameSuite && records.length > 0 ? winRateInterval(counts, EVAL_BOOTSTRAP_SEED) : null,
  };
}
