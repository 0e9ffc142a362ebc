import { mean, populationStd } from './regret.ts';

/** Added to the std so a near-constant group does not explode. */
export const ADVANTAGE_EPSILON = 1e-8;
/** Cap of the designer advantage scale. */
export const MAX_DESIGNER_SCALE = 50;

/** GRPO agent advantages within one group: (r - mean) / (std + 1e-8), population std; a constant group gets 0. */
export function groupAdvantages(returns: readonly number[]): number[] {
  const m = mean(returns);
  const std = populationStd(returns);
  if (std === 0) return returns.map(() => 0);
  return returns.map((r) => (r - m) / (std + ADVANTAGE_EPSILON));
}

/** Designer advantage scale: min(N_agent / N_designer * R, 50), N_agent the kept unhinted plays of one rollout; 0 without designer samples. */
export function designerScale(agentSamples: number, designerSamples: number, rollouts: number): number {
  if (designerSamples === 0) return 0;
  return Math.min((agentSamples / designerSamples) * rollouts, MAX_DESIGNER_SCALE);
}

/** The designer scale of an epoch with what it is made of: N_agent (kept unhinted plays of rollout 0, all environments together), N_designer (scored designs) and R (rollouts). */
export interface DesignerScaleParts {
  agentPlays: number;
  designs: number;
  rollouts: number;
  scale: number;
}

/** One designer sample to centre: its skill and reward. */
export interface DesignerSample {
  skill: string;
  reward: number;
}

/** Designer advantages: reward minus the mean reward of same-skill samples in the batch, times scale. */
export function designerAdvantages(samples: readonly DesignerSample[], scale: number): number[] {
  const bySkill = new Map<string, number[]>();
  for (const s of samples) bySkill.set(s.skill, [...(bySkill.get(s.skill) ?? []), s.reward]);
  return samples.map((s) => (s.reward - mean(bySkill.get(s.skill)!)) * scale);
}
