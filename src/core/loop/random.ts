/** 32-bit FNV-1a hash of a string (UTF-16 code units folded to bytes), as an unsigned integer. */
export function fnv1a32(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    hash ^= unit & 0xff;
    hash = Math.imul(hash, 0x01000193);
    if (unit > 0xff) {
      hash ^= unit >>> 8;
      hash = Math.imul(hash, 0x01000193);
    }
  }
  return hash >>> 0;
}

/** Derives a stable 31-bit seed from parts, e.g. `deriveSeed(runSeed, 'play', envId, 3)`. */
export function deriveSeed(...parts: Array<string | number>): number {
  return fnv1a32(parts.join('\u0000')) & 0x7fffffff;
}

/** A seeded pseudo-random generator (mulberry32); `next()` is uniform in [0, 1). */
export interface Rng {
  next(): number;
  /** Uniform integer in [0, n). */
  int(n: number): number;
  /** `count` distinct items sampled without replacement, in draw order. */
  sample<T>(items: readonly T[], count: number): T[];
}

/** Creates a seeded generator; the same seed gives the same sequence everywhere. */
export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  return {
    next,
    int,
    sample<T>(items: readonly T[], count: number): T[] {
      const pool = [...items];
      const out: T[] = [];
      while (out.length < count && pool.length > 0) out.push(pool.splice(int(pool.length), 1)[0]!);
      return out;
    },
  };
}
