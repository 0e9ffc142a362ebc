/** Arithmetic mean; 0 for an empty list. */
export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((sum, v) => sum + v, 0) / values.length;
}

/** Population standard deviation; 0 for an empty list. */
export function populationStd(values: readonly number[]): number {
  const m = mean(values);
  return Math.sqrt(mean(values.map((v) => (v - m) ** 2)));
}

/** Hint-based regret: mean hinted return minus mean matched unhinted return (not floored). */
export function hintRegret(hintedReturns: readonly number[], unhintedReturns: readonly number[]): number {
  return mean(hintedReturns) - mean(unhintedReturns);
}

/** Win rate over a window of unhinted returns: the mean return (docs/method.md section 2). */
export function winRate(unhintedReturns: readonly number[]): number {
  return mean(unhintedReturns);
}

/** Fraction of returns above zero (the environment memory's win rate, docs/method.md section 2). */
export function fractionWon(returns: readonly number[]): number {
  return returns.length === 0 ? 0 : returns.filter((r) => r > 0).length / returns.length;
}

/** Lower and upper edge of the plateau band where plateau(w) = 1. */
export const PLATEAU_BAND = [0.4, 0.6] as const;
/** Distance over which plateau(w) falls from 1 to 0 outside the band. */
export const PLATEAU_RAMP = 0.25;

/** 1 on [0.4, 0.6], falling linearly to 0 at 0.15 and at 0.85. */
export function plateau(w: number): number {
  const [low, high] = PLATEAU_BAND;
  if (w < low) return Math.max(0, 1 - (low - w) / PLATEAU_RAMP);
  if (w > high) return Math.max(0, 1 - (w - high) / PLATEAU_RAMP);
  return 1;
}
