import { count } from '../../formats/plural.ts';

/** The place of an environment id in the app's words (`epoch 2, slot 3` for e0001-s02; ids count from 0 as the run's files do), for the views. */
export { placeOfId } from '../../core/loop/epoch.ts';

/** A count with its noun: `no slot`, `1 slot`, `2 slots` (the plural is the singular plus `s` unless given). */
export function counted(n: number, singular: string, plural = `${singular}s`): string {
  if (n === 0) return `no ${singular}`;
  return `${n} ${n === 1 ? singular : plural}`;
}

/** A count with its noun, digits always (`0 slots`, `1 slot`), where `counted`'s "no slot" would read wrong. */
export { count };

/** Line numbers for a message: `line 3`, `lines 3, 5`. */
export function lineList(lines: readonly number[]): string {
  return `${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}`;
}

/** The designer advantage's group for the Learn page: `a group of 3 designs of X`; a record without the size (older runs) says so. */
export function designGroup(size: unknown, skill: string): string {
  return typeof size === 'number'
    ? `a group of ${count(size, 'design')} of ${skill}`
    : `a group of designs of ${skill} whose size this run did not record`;
}

/** Which epochs of a run are saved: `No epoch is saved`, `Epoch 1 is saved`, `Epochs 1 to 3 are saved` (the app counts epochs from 1). */
export function savedEpochs(completed: number): string {
  if (completed <= 0) return 'No epoch is saved';
  return completed === 1 ? 'Epoch 1 is saved' : `Epochs 1 to ${completed} are saved`;
}

/**
 * What the designer made, for the Learn page: `wrote 5 environments as Python programs, of which 4
 * passed the sandbox's checks (load, probe, determinism) and 1 slot was rejected after all attempts,
 * with the exact reason`; attempts that failed before a slot's valid one are counted too (`2 of its 6
 * attempts failed the checks and were tried again`), so "no slot was rejected" never hides a
 * rejected attempt; zero and one read as words.
 */
export function designerTally(valid: number, rejected: number, failedAttempts: number): string {
  const total = valid + rejected;
  const checks = "the sandbox's checks (load, probe, determinism)";
  if (total === 0) return 'wrote no environment';
  const wrote =
    total === 1 ? 'wrote 1 environment as a Python program' : `wrote ${total} environments as Python programs`;
  if (rejected === 0 && failedAttempts === 0)
    return `${wrote}, ${total === 1 ? 'and it' : `and all ${total}`} passed ${checks} at the first attempt; no attempt was rejected`;
  if (rejected === 0) {
    const attempts = `${failedAttempts} of its ${total + failedAttempts} attempts ${failedAttempts === 1 ? 'was' : 'were'} rejected by ${checks}, each with the exact reason, and tried again`;
    return `${wrote}: ${attempts}; every slot ended with a valid environment`;
  }
  const passed = valid === 0 ? 'none' : String(valid);
  const slots =
    rejected === 1
      ? '1 slot was rejected after all attempts, with the exact reason'
      : `${rejected} slots were rejected after all attempts, each with the exact reason`;
  return `${wrote}, of which ${passed} passed ${checks} and ${slots} (${counted(Math.max(failedAttempts, rejected), 'attempt')} rejected in all)`;
}

/** `text` as one sentence: trimmed, ending with exactly one full stop (or its own ! or ?), so a message ending in "." never gets a second. */
export function asSentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}
