import { plateau } from './regret.ts';

/** The designer reward variants a run can pick (the paper uses `blend`). */
export type RewardVariant = 'blend' | 'regret' | 'solve_rate' | 'learning_potential';

/** All reward variants, for validation and menus. */
export const REWARD_VARIANTS: readonly RewardVariant[] = ['blend', 'regret', 'solve_rate', 'learning_potential'];

/** Regret at which the blend's regret term saturates. */
export const BLEND_REGRET_SCALE = 0.15;
/** Weight of the regret term in `blend`. */
export const BLEND_REGRET_WEIGHT = 0.4;
/** Weight of the plateau term in `blend`. */
export const BLEND_PLATEAU_WEIGHT = 0.6;
/** `regret` reward of an environment that hung during play. */
export const HUNG_REGRET_REWARD = -0.5;

/** Per-skill fast and slow moving averages of returns (learning-potential reward). */
export interface SkillAverages {
  fast: number;
  slow: number;
}

/** Smoothing factor of the fast average. */
export const GAMMA_FAST = 0.98;
/** Smoothing factor of the slow average. */
export const GAMMA_SLOW = 0.85;

/** Updates a skill's averages with one return: mu <- (1 - g) * mu + g * r; both start at the first return. */
export function updateSkillAverages(previous: SkillAverages | undefined, r: number): SkillAverages {
  if (!previous) return { fast: r, slow: r };
  return {
    fast: (1 - GAMMA_FAST) * previous.fast + GAMMA_FAST * r,
    slow: (1 - GAMMA_SLOW) * previous.slow + GAMMA_SLOW * r,
  };
}

/** What the designer reward of one environment depends on. */
export interface DesignerRewardInput {
  regret: number;
  winRate: number;
  /** Mean return of this environment's plays (learning potential). */
  meanReturn: number;
  /** The skill's averages before this environment's update; undefined for the skill's first return. */
  skillAverages: SkillAverages | undefined;
  /** Whether the environment hung or crashed during play. */
  hung: boolean;
}

/** SPADE's designer reward for one environment under the chosen variant (SPADE.md section 5). */
export function designerReward(variant: RewardVariant, input: DesignerRewardInput): number {
  switch (variant) {
    case 'blend':
      return BLEND_REGRET_WEIGHT * Math.min(1, Math.max(0, input.regret / BLEND_REGRET_SCALE)) + BLEND_PLATEAU_WEIGHT * plateau(input.winRate);
    case 'regret':
      return input.hung ? HUNG_REGRET_REWARD : Math.max(0, input.regret);
    case 'solve_rate':
      return plateau(input.winRate);
    case 'learning_potential':
      return Math.abs(input.meanReturn - (input.skillAverages?.slow ?? input.meanReturn));
  }
}
