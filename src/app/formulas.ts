import { BLEND_PLATEAU_WEIGHT, BLEND_REGRET_SCALE, BLEND_REGRET_WEIGHT, type RewardVariant } from '../core/scoring/designer-reward.ts';
import { PLATEAU_BAND, PLATEAU_RAMP, plateau } from '../core/scoring/regret.ts';

/** One-line explanations of each number the live view shows, next to the number. */
export const FORMULAS = {
  episodeReturn: 'Return of an episode: the last reward clipped to [-1, 1] if the game ended, else 0.',
  rHint: 'r_hint: mean return of the plays that got the hint.',
  rNoHint: 'r_nohint: mean return of the plays without it, on the same seeds.',
  regret: 'Regret = r_hint - r_nohint: how much the hint helps. High regret marks the agent\'s frontier.',
  winRate: `Win rate w: mean return of all unhinted plays. The plateau band [${PLATEAU_BAND[0]}, ${PLATEAU_BAND[1]}] is where learning is fastest.`,
  agentAdvantage: 'Agent advantage (GRPO): (r - mean) / (std + 1e-8) within the plays of one environment.',
  designerAdvantage: 'Designer advantage: reward minus the mean reward of same-skill designs, times min(N_agent / N_designer x R, 50).',
} as const;

/** The chosen designer reward's formula in words. */
export function rewardFormula(variant: RewardVariant): string {
  switch (variant) {
    case 'blend':
      return `Designer reward (blend) = ${BLEND_REGRET_WEIGHT} x clip(regret / ${BLEND_REGRET_SCALE}, 0, 1) + ${BLEND_PLATEAU_WEIGHT} x plateau(w).`;
    case 'regret':
      return 'Designer reward (regret) = max(0, regret); -0.5 if the environment hung.';
    case 'solve_rate':
      return 'Designer reward (solve rate) = plateau(w).';
    case 'learning_potential':
      return 'Designer reward (learning potential) = |mean return - slow moving average of the skill\'s returns|.';
  }
}

/** plateau(w) with its definition, for the band chart. */
export function plateauText(w: number): string {
  return `plateau(${w.toFixed(2)}) = ${plateau(w).toFixed(2)} (1 inside the band, falling to 0 within ${PLATEAU_RAMP} outside it)`;
}
