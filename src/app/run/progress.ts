import type { Config } from '../../core/config.ts';
import type { LiveEpoch } from './live-epoch.ts';

/** Counts the progress bar shows for the live epoch. */
export interface EpochProgress {
  slotsDone: number;
  slots: number;
  attempts: number;
  playsDone: number;
  /** Plays planned for the environments that are valid so far. */
  plays: number;
  /** Fraction of the epoch's work done, 0..1 (design, then plays, then scoring). */
  fraction: number;
}

/** Derives progress counts from the live epoch and the run's config. */
export function epochProgress(live: LiveEpoch, config: Config): EpochProgress {
  const slotsDone = live.slots.filter((s) => s.phase !== 'waiting' && s.phase !== 'designing').length;
  const valid = live.slots.filter((s) => s.poolId !== null || s.attempts.some((a) => a.report?.ok)).length;
  const perEnv = config.playsPerArm * config.rolloutsPerEpoch + config.hintPlays;
  const playsDone = live.slots.reduce((n, s) => n + s.plays.filter((p) => p.return !== null).length, 0);
  const plays = valid * perEnv;
  const designShare = 0.4;
  const playShare = 0.55;
  const fraction =
    live.stage === 'done'
      ? 1
      : designShare * (slotsDone / Math.max(1, live.slots.length)) +
        playShare * (plays === 0 ? 0 : playsDone / plays) +
        (live.stage === 'score' ? 0.05 : 0);
  return {
    slotsDone,
    slots: live.slots.length,
    attempts: live.slots.reduce((n, s) => n + s.attempts.length, 0),
    playsDone,
    plays,
    fraction: Math.min(1, fraction),
  };
}
