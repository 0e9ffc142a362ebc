/** The part of a step the return depends on. */
export interface ReturnStep {
  reward: number;
  terminated: boolean;
}

/** SPADE's episode return: the last step's reward clipped to [-1, 1] if the episode terminated, else 0. */
export function episodeReturn(steps: readonly ReturnStep[]): number {
  const last = steps[steps.length - 1];
  if (!last || !last.terminated) return 0;
  return Math.max(-1, Math.min(1, last.reward));
}
