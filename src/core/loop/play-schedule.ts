import type { Config } from '../config.ts';
import { deriveSeed } from './random.ts';
import type { Arm } from '../records.ts';

/** One play of an environment's schedule. */
export interface PlannedPlay {
  rollout: number;
  arm: Arm;
  index: number;
  seed: number;
}

/**
 * The plays of one environment: rollout 0 has K unhinted plays then the hinted ones (on the first
 * seeds of the unhinted ones), later rollouts K unhinted plays each. No hint, no hint arm.
 */
export function playSchedule(config: Config, envId: string, withHint = true): PlannedPlay[] {
  const seed = (rollout: number, index: number) => deriveSeed(config.seed, envId, 'play', rollout, index);
  const schedule: PlannedPlay[] = [];
  for (let rollout = 0; rollout < config.rolloutsPerEpoch; rollout++) {
    for (let index = 0; index < config.playsPerArm; index++)
      schedule.push({ rollout, arm: 'nohint', index, seed: seed(rollout, index) });
    if (rollout === 0 && withHint) {
      for (let index = 0; index < config.hintPlays; index++)
        schedule.push({ rollout, arm: 'hint', index, seed: seed(0, index) });
    }
  }
  return schedule;
}

/** The id of a play (`-failed` marks a first attempt that was retried). */
export function playId(envId: string, play: PlannedPlay): string {
  return `${envId}-r${play.rollout}-${play.arm}-${play.index}`;
}

/** A play's place in its environment's schedule, as a sort key (the same whether or not there is a hint arm). */
export function scheduleKey(play: PlannedPlay): number[] {
  return [play.rollout, play.arm === 'hint' ? 1 : 0, play.index];
}
