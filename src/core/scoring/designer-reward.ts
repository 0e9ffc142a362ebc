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

/**
 * Updates a skill's averages once per epoch with the mean return r of the skill's kept unhinted
 * plays: mu <- (1 - g) * mu + g * r; both start at the first r (SPADE's per-skill tracker).
 */
export function updateSkillAverages(previous: SkillAverages | undefined, r: number): SkillAverages {
  if (!previous) return { fast: r, slow: r };
  return {
    fast: (1 - GAMMA_FAST) * previous.fast + GAMMA_FAST * r,
    slow: (1 - GAMMA_SLOW) * previous.slow + GAMMA_SLOW * r,
  };
}

/** What the designer reward of one environment depends on. */
export interface DesignerRewardInput {
  /** Matched regret: r_hint - r_nohint of the first rollout (0 without a hint arm). */
  regret: number;
  /** Mean return of the hinted plays; null without a hint arm. */
  rHint: number | null;
  /** Mean return of all kept unhinted plays of the epoch (the window). */
  winRate: number;
  /** How many kept unhinted plays the window holds. */
  windowPlays: number;
  /** The skill's slow average after this epoch's update (learning potential's baseline). */
  baseline: number;
  /** Whether a load, reset or step timed out during play. */
  hung: boolean;
}

/**
 * SPADE's designer reward for one environment under the chosen variant (docs/method.md section 2):
 * blend on the matched regret and the window's win rate; regret on the window (r_hint minus the
 * window's mean, floored at 0; -0.5 after a timeout); solve rate; learning potential as the
 * distance of the window's mean from the skill's slow average, 0 for an empty window (docs/method.md
 * section 2).
 */
export function designerReward(variant: RewardVariant, input: DesignerRewardInput): number {
  switch (variant) {
    case 'blend':
      return (
        BLEND_REGRET_WEIGHT * Math.min(1, Math.max(0, input.regret / BLEND_REGRET_SCALE)) +
        BLEND_PLATEAU_WEIGHT * plateau(input.winRate)
      );
    case 'regret':
      return input.hung ? HUNG_REGRET_REWARD : Math.max(0, (input.rHint ?? 0) - input.winRate);
    case 'solve_rate':
      return plateau(input.winRate);
    case 'learning_potential':
      return input.windowPlays === 0 ? 0 : Math.abs(input.winRate - input.baseline);
  }
}
