import { pageStorage, readPreference, writePreference, type PreferenceStorage } from '../shell/preferences.ts';
import type { LiveEpoch } from './live-epoch.ts';

/** How long an epoch's final scores stay on screen before the next epoch starts: not at all, some seconds, or until Next epoch now is pressed. */
export type ScoreHold = 'off' | '5s' | '15s' | 'click';

/** The holds in the order the control offers them, with their labels. */
export const SCORE_HOLDS: ReadonlyArray<{ hold: ScoreHold; label: string }> = [
  { hold: 'off', label: 'no hold' },
  { hold: '5s', label: '5 s' },
  { hold: '15s', label: '15 s' },
  { hold: 'click', label: 'until Next epoch now' },
];

/** The hold a browser uses until its person picks another: a few seconds, enough for a room to read the score cards. */
export const DEFAULT_SCORE_HOLD: ScoreHold = '5s';

/** How many completed epochs of this tab's start stay reachable from the live view's epoch picker. */
export const RECENT_EPOCHS = 5;

/** The hold's length in milliseconds, or null for one that lasts until Next epoch now is pressed. */
export function holdMs(hold: ScoreHold): number | null {
  if (hold === 'click') return null;
  return hold === 'off' ? 0 : hold === '5s' ? 5_000 : 15_000;
}

/** Reads the saved hold; anything unreadable or unknown is the default. */
export function readScoreHold(storage: PreferenceStorage | null): ScoreHold {
  const saved = readPreference(storage, 'scoreHold');
  return SCORE_HOLDS.find((h) => h.hold === saved)?.hold ?? DEFAULT_SCORE_HOLD;
}

/** Saves the hold; a storage that refuses (private mode, full) only loses the preference. */
export function saveScoreHold(storage: PreferenceStorage | null, hold: ScoreHold): void {
  writePreference(storage, 'scoreHold', hold);
}

let current: ScoreHold | null = null;

/** The hold in force in this tab (read from storage once). */
export function currentScoreHold(): ScoreHold {
  current ??= readScoreHold(pageStorage());
  return current;
}

/** Changes the hold, also for a hold under way at its next check, and keeps it for later visits. */
export function setScoreHold(hold: ScoreHold): void {
  current = hold;
  saveScoreHold(pageStorage(), hold);
}

/** The completed epochs kept for the picker after `finished` is replaced by the next epoch: the newest last, at most RECENT_EPOCHS (an unfinished or halted epoch is not kept). */
export function keepRecent(recent: readonly LiveEpoch[], finished: LiveEpoch | null): LiveEpoch[] {
  if (!finished || finished.stage !== 'done' || finished.halted) return [...recent];
  return [...recent.filter((e) => e.epoch !== finished.epoch), finished].slice(-RECENT_EPOCHS);
}

/** The words under the live epoch while its scores are held before epoch `next` (an index): how long is left, or that the button starts it. */
export function holdText(next: number, leftMs: number | null): string {
  const epoch = `epoch ${next + 1}`;
  if (leftMs === null) return `Scores held: ${epoch} starts when you press Next epoch now.`;
  return `Scores held: ${epoch} starts in ${Math.max(1, Math.ceil(leftMs / 1000))} s.`;
}
