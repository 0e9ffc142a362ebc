// A step's reward as the views show it. A reward JSON cannot hold (NaN or an infinity, which only
// `coerceStepReturns` lets through: docs/method.md section 5, "Odd step returns") is stored as null
// beside its name, so a view reads the name back (`returnedReward`, beside `storedStep`) rather than
// showing the null.
import { episodeReturn } from '../../core/scoring/episode-return.ts';
import { returnedReward } from '../../core/loop/stored-episode.ts';

/** The reward the environment returned (read back from its name when non-finite), for the views. */
export { returnedReward };

/** A reward in the environment's own (Python's) words: `0.5`, `nan`, `inf`, `-inf`; `not recorded` for null. */
export function rewardText(reward: number | null): string {
  if (reward === null) return 'not recorded';
  if (Number.isNaN(reward)) return 'nan';
  if (reward === Number.POSITIVE_INFINITY) return 'inf';
  if (reward === Number.NEGATIVE_INFINITY) return '-inf';
  return String(reward);
}

/**
 * How a non-finite reward at turn `index` (0-based) of an episode counted: as the return's clipped value
 * when it is the last reward of a terminated play that did not fail, else not at all; null for a finite
 * reward (the return's own line says how it counted).
 */
export function nonfiniteRewardNote(
  turns: ReadonlyArray<{ reward: unknown; nonfiniteReward?: unknown; terminated: boolean }>,
  index: number,
  failed: boolean,
): string | null {
  const turn = turns[index];
  const reward = turn ? returnedReward(turn) : null;
  if (reward === null || Number.isFinite(reward)) return null;
  if (index !== turns.length - 1 || !turn!.terminated)
    return 'not scored: only the last reward of a terminated play counts';
  if (failed) return 'not scored: the play failed';
  const scored = episodeReturn([{ reward, terminated: true }]);
  return `scored as a return of ${scored}: the return is max(-1, min(1, reward)), which gives ${scored} for ${rewardText(reward)}`;
}
