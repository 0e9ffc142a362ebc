// A run's stored plays as the reference's failure rule would have kept them (docs/method.md
// section 1, "Failures"), for plays recorded under the tab's rule. Nothing is played again: only
// what the stored records already decide is changed.
import { RESET_CRASH_CODES, STEP_CRASH_CODES, CRASH_REWARD } from '../loop/step-crash.ts';
import { HANG_CODES } from '../loop/fresh-instances.ts';
import type { EnvErrorCode } from '../env/env-error.ts';
import type { Episode, Turn } from '../records.ts';

/** The plays under the reference's failure rule, and the plays that rule would have played differently. */
export interface ReferencePlays {
  episodes: Episode[];
  /**
   * Ids of plays that stay as they ran because the reference would have played them anew: a reset
   * that failed (the reference plays on from an error observation), and the plays a hang skipped
   * when that hang was a retry the reference never makes.
   */
  needReplay: string[];
}

/** The play an episode record belongs to, as its episode id (a retried first attempt and its retry share it). */
export const playKey = (e: Episode): string => `${e.envId}-r${e.rollout}-${e.arm}-${e.index}`;

const failedIn = (e: Episode, codes: ReadonlySet<EnvErrorCode>) => e.error !== null && codes.has(e.error.code);

// The crash as the reference's step wrapper ends the play: a terminal step of reward -1 answering the reply that broke it.
function keptCrash(e: Episode): Episode {
  const error = e.error!;
  const reply = e.messages.filter((m) => m.role === 'assistant').at(-1)?.content ?? '';
  const crashStep: Turn = {
    reply,
    action: '',
    observation: `Error: ${error.message}`,
    reward: CRASH_REWARD,
    terminated: true,
    truncated: false,
  };
  return {
    ...e,
    turns: [...e.turns, crashStep],
    return: CRASH_REWARD,
    error: null,
    crash: { at: 'step', code: error.code, message: error.message },
    dropped: false,
    retried: false,
  };
}

/**
 * Rewrites a play's records under the reference's rule: the first record whose step crashed is kept
 * with return -1 (in either arm) and the records after it (its retry) are left out; records before
 * it (an attempt that failed otherwise, then retried) stay as they ran.
 */
function playUnderReference(records: readonly Episode[]): Episode[] {
  const crashed = records.findIndex((e) => failedIn(e, STEP_CRASH_CODES));
  return crashed < 0 ? [...records] : [...records.slice(0, crashed), keptCrash(records[crashed]!)];
}

/** Every play of `episodes` (in their order) under the reference's failure rule. */
export function playsUnderReference(episodes: readonly Episode[]): ReferencePlays {
  const byPlay = new Map<string, Episode[]>();
  for (const e of episodes) byPlay.set(playKey(e), [...(byPlay.get(playKey(e)) ?? []), e]);
  const kept = [...byPlay.values()].flatMap(playUnderReference);
  const left = new Set(kept);
  const hungOnlyInRetry = new Set(episodes.filter((e) => !left.has(e) && failedIn(e, HANG_CODES)).map((e) => e.envId));
  const skipped = episodes.filter((e) => hungOnlyInRetry.has(e.envId) && e.error?.code === 'env_hung');
  return {
    episodes: kept,
    needReplay: episodes.filter((e) => failedIn(e, RESET_CRASH_CODES) || skipped.includes(e)).map((e) => e.id),
  };
}
