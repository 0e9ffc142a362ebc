import { describe, expect, it } from 'vitest';
import { whyRegret, WHY_REGRET_ENVS } from '../../src/app/learn/why-regret.ts';
import { designerReward, REWARD_VARIANTS } from '../../src/core/scoring/designer-reward.ts';
import { hintRegret, mean, plateau, winRate } from '../../src/core/scoring/regret.ts';

describe('why regret: illustrative environments under every reward variant', () => {
  const result = whyRegret();
  const row = (id: string) => result.rows.find((r) => r.env.id === id)!;

  it("gives each row the scoring module's numbers for its returns", () => {
    const allReturns = WHY_REGRET_ENVS.flatMap((e) => e.unhinted);
    expect(result.muSlow).toBe(mean(allReturns));
    for (const r of result.rows) {
      const { unhinted, hinted } = r.env;
      expect(r.rNoHint).toBe(mean(unhinted));
      expect(r.rHint).toBe(mean(hinted));
      expect(r.regret).toBe(hintRegret(hinted, unhinted));
      expect(r.winRate).toBe(winRate(unhinted));
      expect(r.plateau).toBe(plateau(r.winRate));
      for (const variant of REWARD_VARIANTS) {
        expect(r.rewards[variant]).toBe(
          designerReward(variant, {
            regret: r.regret,
            rHint: r.rHint,
            winRate: r.winRate,
            windowPlays: unhinted.length,
            baseline: result.muSlow,
            hung: false,
          }),
        );
      }
    }
  });

  it('matches the closed forms: blend = 0.4 x clip(regret / 0.15, 0, 1) + 0.6 x plateau(w)', () => {
    expect(row('frontier')).toMatchObject({ rNoHint: 0.5, rHint: 0.75, regret: 0.25, winRate: 0.5, plateau: 1 });
    expect(row('frontier').rewards).toEqual({ blend: 1, regret: 0.25, solve_rate: 1, learning_potential: 0 });
    expect(row('coin-flip').rewards).toEqual({ blend: 0.6, regret: 0, solve_rate: 1, learning_potential: 0 });
    expect(row('too-hard').rewards).toEqual({ blend: 0, regret: 0, solve_rate: 0, learning_potential: 0.5 });
    expect(row('too-easy').rewards).toEqual({ blend: 0, regret: 0, solve_rate: 0, learning_potential: 0.5 });
  });

  it('regret-based rewards put the frontier first alone; solve rate cannot tell it from a coin flip', () => {
    expect(result.best).toEqual({
      blend: ['frontier'],
      regret: ['frontier'],
      solve_rate: ['frontier', 'coin-flip'],
      learning_potential: ['too-hard', 'too-easy'],
    });
  });
});
