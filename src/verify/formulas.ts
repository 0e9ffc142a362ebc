// SPADE's scoring formulas, written again from the spec so a run can be checked against them.
// Nothing here is imported from src/core/scoring on purpose: the two must agree independently.

/** Error codes that mean the environment hung (a timeout), not merely crashed. */
export const HANG_ERRORS: readonly string[] = ['load_timeout', 'reset_timeout', 'step_timeout'];
/** The std guard of a GRPO group advantage. */
export const STD_GUARD = 1e-8;
/** The designer advantage scale never exceeds this. */
export const SCALE_CAP = 50;

/** Mean of a list, 0 when it is empty. */
export function average(xs: readonly number[]): number {
  let total = 0;
  for (const x of xs) total += x;
  return xs.length > 0 ? total / xs.length : 0;
}

/** Population standard deviation, 0 when the list is empty. */
export function spread(xs: readonly number[]): number {
  const m = average(xs);
  return Math.sqrt(average(xs.map((x) => (x - m) * (x - m))));
}

const clamp = (x: number, low: number, high: number) => Math.min(high, Math.max(low, x));

// Python's min(a, b) and max(a, b): the first argument unless the second compares smaller (larger).
const pythonMin = (a: number, b: number) => (b < a ? b : a);
const pythonMax = (a: number, b: number) => (b > a ? b : a);

const NONFINITE: Readonly<Record<string, number>> = {
  nan: Number.NaN,
  inf: Number.POSITIVE_INFINITY,
  '-inf': Number.NEGATIVE_INFINITY,
};

/**
 * An episode's return: the last step's reward clipped to [-1, 1] when it terminated, otherwise 0; 0 for a
 * failed play. A stored non-finite reward is read from its name, and the clip is Python's
 * max(-1, min(1, r)), under which NaN becomes 1.
 */
export function returnOf(
  turns: readonly { reward: number; nonfiniteReward?: string; terminated: boolean }[],
  failed: boolean,
): number {
  if (failed || turns.length === 0) return 0;
  const last = turns[turns.length - 1]!;
  if (!last.terminated) return 0;
  const reward = last.nonfiniteReward !== undefined ? (NONFINITE[last.nonfiniteReward] ?? Number.NaN) : last.reward;
  return pythonMax(-1, pythonMin(1, reward));
}

/** The solve-rate plateau: 1 for w in [0.4, 0.6], ramping to 0 over 0.25 on either side. */
export function plateauOf(w: number): number {
  if (w >= 0.4 && w <= 0.6) return 1;
  const distance = w < 0.4 ? 0.4 - w : w - 0.6;
  return Math.max(0, 1 - distance / 0.25);
}

/** What a designer reward is computed from. */
export interface RewardInputs {
  rHint: number | null;
  regret: number;
  winRate: number;
  /** Kept unhinted plays behind the win rate. */
  plays: number;
  hung: boolean;
  /** The skill's slow average after this epoch's update. */
  slow: number;
}

/** The designer reward of one environment under a reward variant (blend, regret, solve_rate, learning_potential; 0 for learning potential without plays). */
export function rewardOf(variant: string, x: RewardInputs): number {
  if (variant === 'blend') return 0.4 * clamp(x.regret / 0.15, 0, 1) + 0.6 * plateauOf(x.winRate);
  if (variant === 'regret') return x.hung ? -0.5 : Math.max(0, (x.rHint ?? 0) - x.winRate);
  if (variant === 'solve_rate') return plateauOf(x.winRate);
  if (variant === 'learning_potential') return x.plays > 0 ? Math.abs(x.winRate - x.slow) : 0;
  throw new Error(`unknown reward variant ${JSON.stringify(variant)}`);
}

/** A skill's fast and slow moving averages of returns. */
export interface Averages {
  fast: number;
  slow: number;
}

/** One epoch's update of a skill's averages with the epoch's mean return r (both start at the first r). */
export function advanceAverages(prior: Averages | undefined, r: number): Averages {
  if (prior === undefined) return { fast: r, slow: r };
  return { fast: 0.02 * prior.fast + 0.98 * r, slow: 0.15 * prior.slow + 0.85 * r };
}

/** GRPO advantages of one group: (r - mean) / (population std + 1e-8), all 0 when the std is 0. */
export function groupAdvantagesOf(returns: readonly number[]): number[] {
  const m = average(returns);
  const s = spread(returns);
  return returns.map((r) => (s === 0 ? 0 : (r - m) / (s + STD_GUARD)));
}

/** The designer advantage scale: min(N_agent / N_designer * R, 50), 0 without designs. */
export function scaleOf(agentPlays: number, designs: number, rollouts: number): number {
  return designs === 0 ? 0 : Math.min((agentPlays / designs) * rollouts, SCALE_CAP);
}
