import {
  BLEND_PLATEAU_WEIGHT,
  BLEND_REGRET_SCALE,
  BLEND_REGRET_WEIGHT,
  type RewardVariant,
} from '../../core/scoring/designer-reward.ts';
import { MAX_DESIGNER_SCALE, type DesignerScaleParts } from '../../core/scoring/advantages.ts';
import { PLATEAU_BAND, PLATEAU_RAMP, plateau } from '../../core/scoring/regret.ts';

/** One-line explanations of each number the live view shows, next to the number. */
export const FORMULAS = {
  episodeReturn: 'Return of an episode: the last reward clipped to [-1, 1] if the game ended, else 0.',
  rHint:
    "r_hint: mean return of the hinted plays (a failed hinted play counts 0; under the reference's crash rule a crashed step counts -1). They only measure the hint: no agent is trained on them.",
  rNoHint:
    "r_nohint: mean return of the first rollout's unhinted plays, on the same first seeds. A failed unhinted play is retried once, then dropped (under the reference's crash rule a crashed step is kept at -1).",
  regret:
    "Regret = r_hint - r_nohint: how much the hint helps. High regret marks the agent's frontier. 0 when no usable hint came.",
  winRate: `Win rate w: mean return of every kept unhinted play of the epoch (all rollouts). The plateau band [${PLATEAU_BAND[0]}, ${PLATEAU_BAND[1]}] is where learning is fastest.`,
  agentAdvantage:
    'Agent advantage (GRPO): (r - mean) / (std + 1e-8) within the unhinted plays of one environment in one rollout; hinted plays get none.',
  designerAdvantage:
    "Designer advantage: reward minus the mean reward of the epoch's same-skill designs, times the designer scale min(N_agent / N_designer x R, 50): N_agent the kept unhinted plays of rollout 0 of all the epoch's scored environments together (not one environment's K), N_designer the scored designs, R the rollouts.",
} as const;

/** The chosen designer reward's formula in words. */
export function rewardFormula(variant: RewardVariant): string {
  switch (variant) {
    case 'blend':
      return `Designer reward (blend) = ${BLEND_REGRET_WEIGHT} x clip(regret / ${BLEND_REGRET_SCALE}, 0, 1) + ${BLEND_PLATEAU_WEIGHT} x plateau(w).`;
    case 'regret':
      return "Designer reward (regret) = max(0, r_hint - w), over the whole window; -0.5 if a load, reset or step timed out (under the reference's crash rule, only in rollout 0).";
    case 'solve_rate':
      return 'Designer reward (solve rate) = plateau(w).';
    case 'learning_potential':
      return "Designer reward (learning potential) = |w - mu_slow|, mu_slow the skill's slow average after this epoch's update with the mean of its unhinted returns.";
  }
}

/** The designer scale with the numbers it is made of: `scale = min(16 / 4 x 1, 50) = 4`. */
export function scaleText(parts: DesignerScaleParts): string {
  return `Designer scale this epoch = min(N_agent / N_designer x R, ${MAX_DESIGNER_SCALE}) = min(${parts.agentPlays} / ${parts.designs} x ${parts.rollouts}, ${MAX_DESIGNER_SCALE}) = ${formatScale(parts.scale)}`;
}

const formatScale = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(3));

/** plateau(w) with its definition, for the band chart. */
export function plateauText(w: number): string {
  return `plateau(${w.toFixed(2)}) = ${plateau(w).toFixed(2)} (1 inside the band, falling to 0 within ${PLATEAU_RAMP} outside it)`;
}

/** Why a designer advantage is 0 when the environment is alone in its skill's group, else null. */
export function loneGroupNote(groupSize: number | undefined): string | null {
  return groupSize === 1
    ? 'Only design of its skill this epoch: centring within the skill leaves 0 by construction (more slots per skill, via skills per epoch, fix this).'
    : null;
}
