import { describe, expect, it } from 'vitest';
import { fractionWon, hintRegret, mean, plateau, populationStd, winRate } from '../../../src/core/scoring/regret.ts';
import {
  designerReward,
  updateSkillAverages,
  type DesignerRewardInput,
} from '../../../src/core/scoring/designer-reward.ts';
import { designerAdvantages, designerScale, groupAdvantages } from '../../../src/core/scoring/advantages.ts';
import { episodeReturn } from '../../../src/core/scoring/episode-return.ts';

describe('plateau', () => {
  it.each([
    [0, 0],
    [0.15, 0],
    [0.2, 0.2],
    [0.275, 0.5],
    [0.4, 1],
    [0.5, 1],
    [0.6, 1],
    [0.725, 0.5],
    [0.8, 0.2],
    [0.85, 0],
    [1, 0],
  ])('plateau(%f) = %f', (w, expected) => {
    expect(plateau(w)).toBeCloseTo(expected, 12);
  });
});

describe('returns and regret', () => {
  it('episode return clips the last reward when terminated, else 0', () => {
    expect(
      episodeReturn([
        { reward: 0.3, terminated: false },
        { reward: 5, terminated: true },
      ]),
    ).toBe(1);
    expect(episodeReturn([{ reward: -4, terminated: true }])).toBe(-1);
    expect(episodeReturn([{ reward: 0.5, terminated: true }])).toBe(0.5);
    expect(episodeReturn([{ reward: 1, terminated: false }])).toBe(0);
    expect(episodeReturn([])).toBe(0);
  });
  it("clips a non-finite terminal reward as the reference's max(-1, min(1, r)) does: NaN to 1", () => {
    const clipped = [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY].map((reward) =>
      episodeReturn([{ reward, terminated: true }]),
    );
    expect(clipped).toEqual([1, 1, -1]);
  });
  it('regret is r_hint - r_nohint and is not floored', () => {
    expect(hintRegret([1, 1, 0, 1], [0, 1, 0, 0])).toBeCloseTo(0.5, 12);
    expect(hintRegret([0, 0], [1, 0])).toBeCloseTo(-0.5, 12);
  });
  it('win rate is the mean return; memory win rate the fraction above zero', () => {
    expect(winRate([1, 0, 0.5, 0])).toBeCloseTo(0.375, 12);
    expect(fractionWon([1, 0, 0.5, -1])).toBe(0.5);
    expect(mean([])).toBe(0);
    expect(populationStd([1, 3])).toBe(1);
  });
});

describe('designer reward variants', () => {
  const base: DesignerRewardInput = {
    regret: 0.06,
    rHint: 0.36,
    winRate: 0.3,
    windowPlays: 8,
    baseline: 0.3,
    hung: false,
  };
  it('blend = 0.4 * clip(regret / 0.15, 0, 1) + 0.6 * plateau(w)', () => {
    expect(designerReward('blend', base)).toBeCloseTo(0.4 * 0.4 + 0.6 * 0.6, 12);
    expect(designerReward('blend', { ...base, regret: 0.5, winRate: 0.5 })).toBeCloseTo(1, 12);
    expect(designerReward('blend', { ...base, regret: -0.3, winRate: 0.9 })).toBe(0);
  });
  it('regret = max(0, r_hint - window win rate), -0.5 after a timeout, 0 without a hint arm', () => {
    expect(designerReward('regret', { ...base, rHint: 0.5, winRate: 0.2 })).toBeCloseTo(0.3, 12);
    expect(designerReward('regret', { ...base, regret: 0.9, rHint: 0.1, winRate: 0.3 })).toBe(0);
    expect(designerReward('regret', { ...base, hung: true })).toBe(-0.5);
    expect(designerReward('regret', { ...base, rHint: null, winRate: 0 })).toBe(0);
  });
  it('solve_rate = plateau(w)', () => {
    expect(designerReward('solve_rate', base)).toBeCloseTo(0.6, 12);
  });
  it('learning_potential = |window win rate - mu_slow|', () => {
    expect(designerReward('learning_potential', base)).toBe(0);
    expect(designerReward('learning_potential', { ...base, winRate: 0.9, baseline: 0.2 })).toBeCloseTo(0.7, 12);
    expect(designerReward('learning_potential', { ...base, winRate: 0.1, baseline: 0.4 })).toBeCloseTo(0.3, 12);
  });
  it('learning_potential is 0 without a kept unhinted play, not |0 - mu_slow|', () => {
    expect(designerReward('learning_potential', { ...base, winRate: 0, windowPlays: 0, baseline: 0.6 })).toBe(0);
    expect(designerReward('learning_potential', { ...base, winRate: 0, windowPlays: 1, baseline: 0.6 })).toBeCloseTo(
      0.6,
      12,
    );
  });
  it('skill averages start at the first return and move with g_fast = 0.98, g_slow = 0.85', () => {
    const first = updateSkillAverages(undefined, 0.4);
    expect(first).toEqual({ fast: 0.4, slow: 0.4 });
    const second = updateSkillAverages(first, 1);
    expect(second.fast).toBeCloseTo(0.02 * 0.4 + 0.98, 12);
    expect(second.slow).toBeCloseTo(0.15 * 0.4 + 0.85, 12);
  });
});

describe('advantages', () => {
  it('agent: (r - mean) / (std + 1e-8) with population std', () => {
    const adv = groupAdvantages([1, 0, 0, 0]);
    const std = Math.sqrt(0.1875);
    expect(adv[0]).toBeCloseTo(0.75 / (std + 1e-8), 12);
    expect(adv[1]).toBeCloseTo(-0.25 / (std + 1e-8), 12);
  });
  it('agent: a zero-variance group gets 0', () => {
    expect(groupAdvantages([1, 1, 1])).toEqual([0, 0, 0]);
    expect(groupAdvantages([-1])).toEqual([0]);
  });
  it('designer: centred per skill, times min(N_agent / N_designer * R, 50)', () => {
    expect(designerScale(16, 4, 1)).toBe(4);
    expect(designerScale(400, 2, 1)).toBe(50);
    expect(designerScale(10, 0, 1)).toBe(0);
    expect(designerScale(8, 4, 2)).toBe(4);
    const adv = designerAdvantages(
      [
        { skill: 'A', reward: 1 },
        { skill: 'A', reward: 0 },
        { skill: 'B', reward: 0.3 },
      ],
      2,
    );
    expect(adv[0]).toBeCloseTo(1, 12);
    expect(adv[1]).toBeCloseTo(-1, 12);
    expect(adv[2]).toBe(0);
  });
});
