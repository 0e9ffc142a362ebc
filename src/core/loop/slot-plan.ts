import type { Config } from '../config.ts';

/** Stable id of the environment designed in a slot: epoch and slot counted from 0, as the run's files count them (every seed of the slot derives from it). */
export function environmentId(epoch: number, slot: number): string {
  return `e${String(epoch).padStart(4, '0')}-s${String(slot).padStart(2, '0')}`;
}

/** Where an environment sits in the words people read, which count epochs and slots from 1: `epoch 2, slot 3` for e0001-s02. */
export function environmentPlace(epoch: number, slot: number): string {
  return `epoch ${epoch + 1}, slot ${slot + 1}`;
}

/** The place of an environment id as `environmentId` writes it (`epoch 2, slot 3` for e0001-s02), or null for any other text (an imported pool's own ids). */
export function placeOfId(id: string): string | null {
  const match = /^e(\d{4,})-s(\d{2,})$/.exec(id);
  return match ? environmentPlace(Number(match[1]), Number(match[2])) : null;
}

/**
 * The skills active in an epoch: a window of `skillsPerEpoch` that advances by its own size each
 * epoch (SPADE's skill rotation); all skills when the window covers them.
 */
export function activeSkills(config: Config, epoch: number): string[] {
  const n = config.skills.length;
  const k = config.skillsPerEpoch;
  if (k >= n) return [...config.skills];
  const start = (epoch * k) % n;
  return Array.from({ length: k }, (_, j) => config.skills[(start + j) % n]!);
}

/**
 * Plans an epoch's slots (docs/method.md section 1, step 1): with rotation, slots go round-robin
 * over the epoch's active skills (so each gets slots / skillsPerEpoch of them); without,
 * round-robin over all skills, from the first skill each epoch with `restartSkillCycle` (the
 * reference), else continuing across epochs.
 */
export function planSlots(config: Config, epoch: number): Array<{ slot: number; skill: string }> {
  const active = activeSkills(config, epoch);
  const continuing = active.length === config.skills.length && !config.restartSkillCycle;
  const offset = continuing ? epoch * config.slotsPerEpoch : 0;
  return Array.from({ length: config.slotsPerEpoch }, (_, slot) => ({
    slot,
    skill: active[(offset + slot) % active.length]!,
  }));
}
