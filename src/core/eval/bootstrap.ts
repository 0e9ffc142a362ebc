import { createRng } from '../loop/random.ts';
import { jeffreysInterval } from './beta.ts';

/** Resamples drawn by `bootstrapInterval`. */
export const BOOTSTRAP_RESAMPLES = 2000;

/** Wins and plays of one environment: the unit the bootstrap resamples. */
export interface WinCount {
  wins: number;
  plays: number;
}

/** Pooled win rate of some environments: all wins over all plays (0 with no plays). */
export function pooledRate(counts: readonly WinCount[]): number {
  const plays = counts.reduce((n, c) => n + c.plays, 0);
  return plays === 0 ? 0 : counts.reduce((n, c) => n + c.wins, 0) / plays;
}

/**
 * 95% percentile-bootstrap interval of the pooled win rate, resampling whole environments with
 * replacement (plays of one environment are not independent, so they are never split). The
 * generator is seeded, so the same counts always give the same interval.
 */
export function bootstrapInterval(
  counts: readonly WinCount[],
  seed = 1,
  resamples = BOOTSTRAP_RESAMPLES,
): [number, number] {
  if (counts.length === 0) return [0, 0];
  const rng = createRng(seed);
  const rates: number[] = [];
  for (let r = 0; r < resamples; r++) {
    let wins = 0;
    let plays = 0;
    for (let i = 0; i < counts.length; i++) {
      const pick = counts[rng.int(counts.length)]!;
      wins += pick.wins;
      plays += pick.plays;
    }
    rates.push(plays === 0 ? 0 : wins / plays);
  }
  rates.sort((a, b) => a - b);
  return [rates[Math.floor(0.025 * resamples)]!, rates[Math.ceil(0.975 * resamples) - 1]!];
}

/**
 * The 95% interval of a win rate that every evaluation reports (docs/method.md section 7,
 * "Interval"): the span of the bootstrap over environments and the Jeffreys interval of the pooled
 * rate with one trial per environment. The bootstrap follows how much environments disagree; the
 * Jeffreys floor keeps it from collapsing to a point when they all agree (24 lost environments give
 * 0 to 0.10, not 0 to 0). [0, 1] with no environment.
 */
export function winRateInterval(
  counts: readonly WinCount[],
  seed = 1,
  resamples = BOOTSTRAP_RESAMPLES,
): [number, number] {
  if (counts.length === 0) return [0, 1];
  const [bootLo, bootHi] = bootstrapInterval(counts, seed, resamples);
  const [floorLo, floorHi] = jeffreysInterval(pooledRate(counts) * counts.length, counts.length);
  return [Math.min(bootLo, floorLo), Math.max(bootHi, floorHi)];
}

/** The difference of two pooled win rates on the same environments, with its 95% paired-bootstrap interval. */
export interface PairedDifference {
  /** Pooled rate of the first minus that of the second. */
  difference: number;
  ci95: [number, number];
  /** Environments both played. */
  environments: number;
}

/**
 * Paired percentile bootstrap of `a`'s pooled win rate minus `b`'s, where `a[i]` and `b[i]` are the
 * same environment: each resample draws environments with replacement and takes the difference of
 * the two pooled rates over the same draw, so what the environments share cancels. Never narrower
 * than the difference plus or minus the Jeffreys upper end for 0 of n environments (the smallest
 * share n environments can rule out), so runs that agree everywhere do not get a point. Seeded;
 * null when the lists differ in length or are empty.
 */
export function pairedDifference(
  a: readonly WinCount[],
  b: readonly WinCount[],
  seed = 1,
  resamples = BOOTSTRAP_RESAMPLES,
): PairedDifference | null {
  if (a.length !== b.length || a.length === 0) return null;
  const rng = createRng(seed);
  const differences: number[] = [];
  for (let r = 0; r < resamples; r++) {
    const drawnA: WinCount[] = [];
    const drawnB: WinCount[] = [];
    for (let i = 0; i < a.length; i++) {
      const pick = rng.int(a.length);
      drawnA.push(a[pick]!);
      drawnB.push(b[pick]!);
    }
    differences.push(pooledRate(drawnA) - pooledRate(drawnB));
  }
  differences.sort((x, y) => x - y);
  const difference = pooledRate(a) - pooledRate(b);
  const floor = jeffreysInterval(0, a.length)[1];
  return {
    difference,
    ci95: [
      Math.max(-1, Math.min(differences[Math.floor(0.025 * resamples)]!, difference - floor)),
      Math.min(1, Math.max(differences[Math.ceil(0.975 * resamples) - 1]!, difference + floor)),
    ],
    environments: a.length,
  };
}
