/** The part of a step the return depends on. */
export interface ReturnStep {
  reward: number;
  terminated: boolean;
}

/**
 * SPADE's episode return: the last step's reward clipped to [-1, 1] if the episode terminated, else 0.
 * The clip compares as the reference's max(-1, min(1, reward)) does, so a NaN reward (which only
 * `coerceStepReturns` lets through) clips to 1 (docs/method.md section 5, "Odd step returns").
 */
export function episodeReturn(steps: readonly ReturnStep[]): number {
  const last = steps[steps.length - 1];
  if (!last || !last.terminated) return 0;
  const belowOne = last.reward < 1 ? last.reward : 1;
  return belowOne > -1 ? belowOne : -1;
}
