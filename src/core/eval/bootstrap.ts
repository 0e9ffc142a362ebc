import { createRng } from '../loop/random.ts';

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
export function bootstrapInterval(counts: readonly WinCount[], seed = 1, resamples = BOOTSTRAP_RESAMPLES): [number, number] {
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
