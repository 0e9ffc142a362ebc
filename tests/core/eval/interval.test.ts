// The interval rule of docs/method.md section 7: the Beta quantiles behind the Jeffreys floor
// (checked against closed forms), the floor itself, and the paired bootstrap of a difference.
import { describe, expect, it } from 'vitest';
import { betaCdf, betaQuantile, jeffreysInterval } from '../../../src/core/eval/beta.ts';
import {
  bootstrapInterval,
  pairedDifference,
  winRateInterval,
  type WinCount,
} from '../../../src/core/eval/bootstrap.ts';
import { summarizePlays, type EvalPlay } from '../../../src/core/eval/eval-record.ts';

const counts = (wins: number[], plays = 4): WinCount[] => wins.map((w) => ({ wins: w, plays }));

describe('Beta quantiles', () => {
  it('match the closed forms of Beta(1, 1), Beta(a, 1), Beta(1, b) and Beta(1/2, 1/2)', () => {
    expect(betaQuantile(0.3, 1, 1)).toBeCloseTo(0.3, 10);
    expect(betaQuantile(0.975, 3, 1)).toBeCloseTo(0.975 ** (1 / 3), 10);
    expect(betaQuantile(0.025, 1, 4)).toBeCloseTo(1 - 0.975 ** (1 / 4), 10);
    // The arcsine law: F(x) = (2 / pi) asin(sqrt x).
    expect(betaCdf(0.25, 0.5, 0.5)).toBeCloseTo(1 / 3, 10);
    expect(betaQuantile(0.5, 7.5, 7.5)).toBeCloseTo(0.5, 10);
  });

  it('give the Jeffreys interval, its ends pinned at 0 and 1 when nothing or everything succeeded', () => {
    const [lo, hi] = jeffreysInterval(0, 24);
    expect(lo).toBe(0);
    // The upper end solves F(hi) = 0.975 for Beta(1/2, 24.5).
    expect(betaCdf(hi, 0.5, 24.5)).toBeCloseTo(0.975, 9);
    expect(hi).toBeGreaterThan(0.05);
    expect(jeffreysInterval(4, 4)[1]).toBe(1);
    const [mLo, mHi] = jeffreysInterval(12, 24);
    expect(mLo + mHi).toBeCloseTo(1, 10);
    expect(jeffreysInterval(0, 0)).toEqual([0, 1]);
  });
});

describe('the win-rate interval', () => {
  it('never says "0.00 (0.00 to 0.00)" for 24 environments that all lose, as the bootstrap alone did', () => {
    const allLost = counts(Array(24).fill(0));
    expect(bootstrapInterval(allLost)).toEqual([0, 0]);
    const [lo, hi] = winRateInterval(allLost);
    expect(lo).toBe(0);
    expect(hi).toBe(jeffreysInterval(0, 24)[1]);
    expect(hi.toFixed(2)).toBe('0.10');
    const allWon = winRateInterval(counts(Array(4).fill(4)));
    expect(allWon[1]).toBe(1);
    expect(allWon[0]).toBeLessThan(0.6);
  });

  it('keeps the bootstrap where environments disagree more than the floor allows', () => {
    const split = counts([4, 0]);
    expect(bootstrapInterval(split, 3)).toEqual([0, 1]);
    expect(winRateInterval(split, 3)).toEqual([0, 1]);
  });

  it('is what an evaluation records, and [0, 1] with no plays', () => {
    const play = (envId: string, won: boolean): EvalPlay => ({
      envId,
      skill: 'Optimization',
      seed: 0,
      return: won ? 1 : 0,
      won,
      turns: 1,
      error: null,
    });
    const plays = Array.from({ length: 24 }, (_, i) => [play(`e${i}`, false), play(`e${i}`, false)]).flat();
    expect(summarizePlays(plays).ci95).toEqual(winRateInterval(counts(Array(24).fill(0), 2), 20240601));
    expect(summarizePlays([]).ci95).toEqual([0, 1]);
  });
});

describe('the paired difference', () => {
  it('is never a point: runs that agree everywhere, or differ everywhere, keep the Jeffreys width of 0 of n environments; unmatched lists are refused', () => {
    const won = counts(Array(6).fill(4));
    const lost = counts(Array(6).fill(0));
    const floor = jeffreysInterval(0, 6)[1];
    expect(pairedDifference(won, lost)).toEqual({ difference: 1, ci95: [1 - floor, 1], environments: 6 });
    const same = counts(Array(24).fill(2));
    const agreeing = pairedDifference(same, same)!;
    expect(agreeing.ci95).toEqual([-jeffreysInterval(0, 24)[1], jeffreysInterval(0, 24)[1]]);
    expect(agreeing.ci95[1].toFixed(2)).toBe('0.10');
    expect(pairedDifference(won, lost.slice(1))).toBeNull();
    expect(pairedDifference([], [])).toBeNull();
  });

  it('spans 2k/24 - 1 for k at the 2.5% and 97.5% points of Binomial(24, 1/2) when each wins exactly the half the other loses', () => {
    // Run a wins environments 0-11, run b 12-23: a resample with k draws from the first half gives
    // a - b = k/24 - (24 - k)/24 = 2k/24 - 1, k ~ Binomial(24, 1/2), whose 2.5% and 97.5% points are 7 and 17.
    const a = counts([...Array(12).fill(4), ...Array(12).fill(0)]);
    const b = counts([...Array(12).fill(0), ...Array(12).fill(4)]);
    const paired = pairedDifference(a, b, 11)!;
    expect(paired.difference).toBe(0);
    expect(paired.ci95[0]).toBeCloseTo((2 * 7) / 24 - 1, 12);
    expect(paired.ci95[1]).toBeCloseTo((2 * 17) / 24 - 1, 12);
  });

  it('is narrower than the unpaired spread when both runs share which environments are hard', () => {
    // Both lose the same hard half; a also wins one play more on each easy environment.
    const a = counts([...Array(12).fill(4), ...Array(12).fill(0)]);
    const b = counts([...Array(12).fill(3), ...Array(12).fill(0)]);
    const paired = pairedDifference(a, b, 5)!;
    expect(paired.difference).toBeCloseTo(12 / 96, 12);
    const [aLo, aHi] = winRateInterval(a, 5);
    const [bLo, bHi] = winRateInterval(b, 5);
    expect(paired.ci95[1] - paired.ci95[0]).toBeLessThan((aHi - aLo + bHi - bLo) / 2);
    expect(paired.ci95[0]).toBeGreaterThan(0);
  });
});
