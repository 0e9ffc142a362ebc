import type { Rng } from './random.ts';

/** One environment remembered for the designer (docs/method.md section 2, Memory). */
export interface MemoryRecord {
  envId: string;
  skill: string;
  /** First `MEMORY_CODE_CHARS` characters of the environment's code. */
  code: string;
  /** Fraction of unhinted plays with return > 0. */
  winRate: number;
  regret: number;
  epoch: number;
}

/** Most records kept (oldest dropped first). */
export const MEMORY_CAPACITY = 200;
/** Characters of code kept per record. */
export const MEMORY_CODE_CHARS = 2000;
/** Win-rate band of positive examples. */
export const POSITIVE_BAND = [0.15, 0.85] as const;
/** Positives are sampled from this many top-regret records. */
export const POSITIVE_POOL = 10;
/** Above this win rate a record is a "too easy" negative. */
export const TOO_EASY = 0.9;
/** Below this win rate a record is a "too hard" negative. */
export const TOO_HARD = 0.1;

/** A negative example and why it is one. */
export interface NegativeExample {
  record: MemoryRecord;
  reason: 'too easy' | 'too hard';
}

/** What one designer prompt is shown from memory. */
export interface MemorySelection {
  positives: MemoryRecord[];
  negative: NegativeExample | null;
}

/** Adds records, keeping the newest `MEMORY_CAPACITY` (FIFO); returns a new array. */
export function rememberEnvironments(
  memory: readonly MemoryRecord[],
  records: readonly MemoryRecord[],
): MemoryRecord[] {
  const trimmed = records.map((r) => ({ ...r, code: r.code.slice(0, MEMORY_CODE_CHARS) }));
  return [...memory, ...trimmed].slice(-MEMORY_CAPACITY);
}

/**
 * Picks memory for one designer prompt, filtered to the skill: 2 positives sampled from the 10
 * highest-regret records with win rate in [0.15, 0.85], and 1 negative (win rate > 0.9 or < 0.1).
 */
export function selectMemory(memory: readonly MemoryRecord[], skill: string, rng: Rng): MemorySelection {
  const own = memory.filter((r) => r.skill === skill);
  const pool = own
    .filter((r) => r.winRate >= POSITIVE_BAND[0] && r.winRate <= POSITIVE_BAND[1])
    .sort((a, b) => b.regret - a.regret || a.envId.localeCompare(b.envId))
    .slice(0, POSITIVE_POOL);
  const positives = rng.sample(pool, 2);
  const negatives = own.filter((r) => r.winRate > TOO_EASY || r.winRate < TOO_HARD);
  const picked = negatives.length > 0 ? negatives[rng.int(negatives.length)]! : null;
  return {
    positives,
    negative: picked ? { record: picked, reason: picked.winRate > TOO_EASY ? 'too easy' : 'too hard' } : null,
  };
}
