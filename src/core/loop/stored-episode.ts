// What an epoch stores of its episodes, within limits stated in docs/method.md section 2 ("What is
// stored"): an environment chooses its observations, so its text is cut to size before it is
// recorded, and the cut is flagged. Scores never read text, so cutting never changes a number.
import type { StepResult } from '../env/contract.ts';
import type { Episode, Turn } from '../records.ts';
import { hasShortEscape } from '../json-escape.ts';

/** Most characters one stored string of an episode takes in the run files (as written: a control character counts 6). */
export const STORED_STRING_CHARS = 200_000;
/** Most characters the text of one stored episode takes in the run files, all its strings together. */
export const EPISODE_TEXT_CHARS = 4_000_000;
/** Most characters the text of one epoch's stored episodes takes in the run files, all episodes together. */
export const EPOCH_TEXT_CHARS = 256_000_000;
/** Ends a stored string that was cut. */
export const CLIP_MARKER = '\n[…cut here: the rest of this text was not stored (storage limits, docs/method.md)]';

/** What a turn keeps of a step: never its info dict, which no score or view reads; a non-finite reward is named too, as JSON writes it as null. */
export function storedStep(
  step: StepResult,
): Pick<Turn, 'observation' | 'reward' | 'nonfiniteReward' | 'terminated' | 'truncated'> {
  const stored = {
    observation: step.observation,
    reward: step.reward,
    terminated: step.terminated,
    truncated: step.truncated,
  };
  if (Number.isFinite(step.reward)) return stored;
  return { ...stored, nonfiniteReward: Number.isNaN(step.reward) ? 'nan' : step.reward > 0 ? 'inf' : '-inf' };
}

const NAMED_REWARDS: Readonly<Record<NonNullable<Turn['nonfiniteReward']>, number>> = {
  nan: Number.NaN,
  inf: Number.POSITIVE_INFINITY,
  '-inf': Number.NEGATIVE_INFINITY,
};

/** The reward the environment returned, as `storedStep` kept it: the stored number, or NaN or an infinity read back from its name; null when the record holds no number. */
export function returnedReward(turn: { reward: unknown; nonfiniteReward?: unknown }): number | null {
  const named = turn.nonfiniteReward;
  if (typeof named === 'string' && Object.hasOwn(NAMED_REWARDS, named))
    return NAMED_REWARDS[named as keyof typeof NAMED_REWARDS];
  return typeof turn.reward === 'number' ? turn.reward : null;
}

// Characters a UTF-16 unit takes in a JSON Lines file: JSON.stringify's escapes, and U+0085,
// U+2028 and U+2029, which a line reader may take for line ends, counted as escaped too.
function writtenUnit(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (hasShortEscape(unit)) return 2;
  if (unit < 0x20 || unit === 0x85 || unit === 0x2028 || unit === 0x2029) return 6;
  if (unit >= 0xd800 && unit < 0xdc00) return (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 1 : 6;
  if (unit >= 0xdc00 && unit < 0xe000) return (text.charCodeAt(i - 1) & 0xfc00) === 0xd800 ? 1 : 6;
  return 1;
}

/** Characters a string takes inside the quotes of a JSON Lines file. */
export function writtenLength(text: string): number {
  let size = 0;
  for (let i = 0; i < text.length; i++) size += writtenUnit(text, i);
  return size;
}

const MARKER_CHARS = writtenLength(CLIP_MARKER);

/** The string cut to at most `limit` written characters, marker included (never splitting a surrogate pair); the string itself when it fits. */
export function clipText(text: string, limit: number): string {
  if (writtenLength(text) <= limit) return text;
  const room = limit - MARKER_CHARS;
  let end = 0;
  for (let used = 0; end < text.length; end++) {
    used += writtenUnit(text, end);
    if (used > room) break;
  }
  if (end > 0 && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end -= 1;
  return text.slice(0, end) + CLIP_MARKER;
}

/**
 * The largest cap c such that the sizes, each cut to c, sum to at most `budget` (Infinity when they
 * already fit): big items are cut to the same size and small ones are kept whole, whatever their order.
 */
export function fairCap(sizes: readonly number[], budget: number): number {
  let left = budget;
  const sorted = [...sizes].sort((a, b) => a - b);
  if (sorted.reduce((sum, size) => sum + size, 0) <= budget) return Number.POSITIVE_INFINITY;
  for (let i = 0; i < sorted.length; i++) {
    const share = Math.floor(left / (sorted.length - i));
    if (sorted[i]! > share) return share;
    left -= sorted[i]!;
  }
  return Number.POSITIVE_INFINITY;
}

// The characters a string takes around its text in a JSON array or object: two quotes and a comma.
const STRING_FRAME = 3;

type Texts = { sizes: number[]; rebuild: (cut: (text: string) => string) => Episode };

// Every string of an episode an environment or a model chose, and the episode rebuilt with each one cut.
function texts(e: Episode): Texts {
  const all: string[] = [
    e.firstObservation,
    ...(e.instructions ?? []),
    ...e.messages.map((m) => m.content),
    e.error?.message ?? '',
  ];
  for (const t of e.turns)
    all.push(
      t.reply,
      t.action,
      t.observation,
      ...(t.progress?.criteria ?? []).map((c) => (typeof c === 'string' ? c : '')),
    );
  const booleans = e.turns.reduce(
    (n, t) => n + (t.progress?.criteria ?? []).filter((c) => typeof c === 'boolean').length,
    0,
  );
  const rebuild = (cut: (text: string) => string): Episode => ({
    ...e,
    firstObservation: cut(e.firstObservation),
    ...(e.instructions ? { instructions: e.instructions.map(cut) } : {}),
    messages: e.messages.map((m) => ({ ...m, content: cut(m.content) })),
    turns: e.turns.map((t) => ({
      ...t,
      reply: cut(t.reply),
      action: cut(t.action),
      observation: cut(t.observation),
      ...(t.progress
        ? {
            progress: { ...t.progress, criteria: t.progress.criteria.map((c) => (typeof c === 'string' ? cut(c) : c)) },
          }
        : {}),
    })),
    error: e.error ? { ...e.error, message: cut(e.error.message) } : null,
  });
  // Each string costs its quotes and comma too, and a criterion's truth its six characters, so a
  // task with many criteria or instructions cannot take room the budget does not count.
  return { sizes: [...all.map((text) => writtenLength(text) + STRING_FRAME), booleans * 6], rebuild };
}

// Text sizes already measured (an epoch measures each stored episode once more before it commits).
const measured = new WeakMap<Episode, number>();
const total = (sizes: readonly number[]) => sizes.reduce((sum, size) => sum + size, 0);

/** The written characters of an episode's text, as the storage limits count them. */
export function episodeTextSize(e: Episode): number {
  let size = measured.get(e);
  if (size === undefined) measured.set(e, (size = total(texts(e).sizes)));
  return size;
}

/**
 * The episode as it is stored: each string cut to STORED_STRING_CHARS and all of them together to
 * `budget` (the longest cut to the same size first), marked `clipped` when anything was cut.
 */
export function clipEpisode(e: Episode, budget = EPISODE_TEXT_CHARS): Episode {
  const { sizes, rebuild } = texts(e);
  measured.set(e, total(sizes));
  const fixed = sizes.pop()!;
  const cap = Math.min(STORED_STRING_CHARS + STRING_FRAME, fairCap(sizes, Math.max(0, budget - fixed)));
  if (sizes.every((size) => size <= cap)) return e;
  return { ...rebuild((text) => clipText(text, Math.max(cap - STRING_FRAME, MARKER_CHARS))), clipped: true };
}

/** An epoch's episodes as they are stored: each one within the episode limits, and all of them within `budget` (the largest cut to the same size first). */
export function clipEpochEpisodes(episodes: readonly Episode[], budget = EPOCH_TEXT_CHARS): Episode[] {
  const clipped = episodes.map((e) => clipEpisode(e));
  const cap = fairCap(clipped.map(episodeTextSize), budget);
  return Number.isFinite(cap) ? clipped.map((e) => (episodeTextSize(e) > cap ? clipEpisode(e, cap) : e)) : clipped;
}

// Wider than any number JSON.stringify writes ("-0.0000012345678901234567": 25 characters).
const WIDEST_NUMBER = -0.0000012345678901234567;

/**
 * The longest line a stored episode of at most `maxTurns` turns can take in episodes.jsonl (or
 * its agent row in rollouts.jsonl): its text at EPISODE_TEXT_CHARS (strings, their quotes and
 * commas, criteria), plus the rest of the record with every number at its widest.
 */
export function longestEpisodeLine(maxTurns: number): number {
  const id = 'x'.repeat(64);
  const n = WIDEST_NUMBER;
  const skeleton = {
    ...{
      id,
      envId: id,
      epoch: n,
      rollout: n,
      arm: 'nohint',
      index: n,
      seed: n,
      firstObservation: '',
      instructions: [],
    },
    messages: Array.from({ length: 2 * maxTurns + 1 }, () => ({ role: 'assistant', content: '', weight: 1 })),
    turns: Array.from({ length: maxTurns }, () => ({
      reply: '',
      action: '',
      observation: '',
      reward: n,
      terminated: false,
      truncated: false,
      progress: { done: n, criteria: [] },
    })),
    ...{
      return: n,
      error: { code: id, message: '' },
      dropped: false,
      retried: false,
      usage: { promptTokens: n, completionTokens: n },
      advantage: n,
      clipped: true,
    },
    ...{ role: 'designer', reward: n, group: `${id}:rollout${n}` },
  };
  return EPISODE_TEXT_CHARS + JSON.stringify(skeleton).length;
}
