import { describe, expect, it } from 'vitest';
import { bootstrapInterval, pooledRate } from '../../../src/core/eval/bootstrap.ts';
import { jeffreysInterval } from '../../../src/core/eval/beta.ts';
import { summarizeEvaluation, type EvalPlay } from '../../../src/core/eval/eval-record.ts';

const play = (envId: string, skill: string, won: boolean): EvalPlay => ({
  envId,
  skill,
  seed: 0,
  return: won ? 1 : 0,
  won,
  turns: 1,
  error: null,
});

describe('bootstrap over environments', () => {
  it('pools wins over plays', () => {
    expect(
      pooledRate([
        { wins: 1, plays: 2 },
        { wins: 3, plays: 6 },
      ]),
    ).toBe(0.5);
    expect(pooledRate([])).toBe(0);
  });

  it('collapses to the rate when every environment has the same rate, and is [0, 0] with nothing to resample', () => {
    expect(
      bootstrapInterval(
        [
          { wins: 1, plays: 2 },
          { wins: 2, plays: 4 },
          { wins: 0, plays: 0 },
        ].slice(0, 2),
      ),
    ).toEqual([0.5, 0.5]);
    expect(bootstrapInterval([])).toEqual([0, 0]);
  });

  it('is reproducible for a seed, contains the pooled rate, and widens when environments disagree', () => {
    const mixed = [
      { wins: 2, plays: 2 },
      { wins: 0, plays: 2 },
      { wins: 2, plays: 2 },
      { wins: 0, plays: 2 },
    ];
    const [lo, hi] = bootstrapInterval(mixed, 5);
    expect(bootstrapInterval(mixed, 5)).toEqual([lo, hi]);
    expect(lo).toBeLessThan(0.5);
    expect(hi).toBeGreaterThan(0.5);
    const agreeing = mixed.map(() => ({ wins: 1, plays: 2 }));
    expect(bootstrapInterval(agreeing, 5)).toEqual([0.5, 0.5]);
  });

  it('resamples whole environments, so many plays of few environments do not look certain', () => {
    const fewEnvs = [
      { wins: 100, plays: 100 },
      { wins: 0, plays: 100 },
    ];
    const [lo, hi] = bootstrapInterval(fewEnvs, 3);
    expect(lo).toBe(0);
    expect(hi).toBe(1);
  });

  it('summarizes an evaluation overall and per skill', () => {
    const plays = [
      play('a', 'Optimization', true),
      play('a', 'Optimization', false),
      play('b', 'Logical Deduction', true),
      play('b', 'Logical Deduction', true),
    ];
    const summary = summarizeEvaluation(plays);
    expect(summary).toMatchObject({ environments: 2, episodes: 4, wins: 3, winRate: 0.75 });
    expect(Object.keys(summary.perSkill)).toEqual(['Optimization', 'Logical Deduction']);
    // One environment per skill: the bootstrap alone would give a point; the Jeffreys floor over one environment does not.
    expect(summary.perSkill['Optimization']).toMatchObject({
      environments: 1,
      episodes: 2,
      wins: 1,
      winRate: 0.5,
      ci95: jeffreysInterval(0.5, 1),
    });
    expect(summary.perSkill['Logical Deduction']!.ci95).toEqual(jeffreysInterval(1, 1));
    expect(summary.perSkill['Logical Deduction']!.ci95[0]).toBeLessThan(0.5);
  });
});
