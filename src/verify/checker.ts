/** Two numbers closer than this are equal. */
export const TOLERANCE = 1e-9;

/** One stored value that differs from its recomputation (`stored` undefined: the field is missing). */
export interface Mismatch {
  file: string;
  id: string;
  field: string;
  stored: unknown;
  recomputed: unknown;
}

/** Whether two JSON values agree: numbers within TOLERANCE, objects key by key (in any order). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Math.abs(a - b) <= TOLERANCE || a === b;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** Collects comparisons: how many values were checked and which disagreed. */
export class Checker {
  /** Values compared so far. */
  checked = 0;
  /** The disagreements, in the order found. */
  readonly mismatches: Mismatch[] = [];

  /** Compares one stored value with its recomputation. */
  value(file: string, id: string, field: string, stored: unknown, recomputed: unknown): void {
    this.checked++;
    if (!sameValue(stored, recomputed)) this.mismatches.push({ file, id, field, stored, recomputed });
  }
}
