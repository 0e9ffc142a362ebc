// Measures the plain data (an info dict, the tool-use facts) a sandbox sent, without recursion: a
// value nested thousands deep is refused before JSON.stringify or structuredClone could overflow
// the stack on it.

import { hasShortEscape } from '../json-escape.ts';

/** What measuring found: the size as the harness counts it (stopping once over the limit), or why it is not the harness's plain data. */
export type PlainDataMeasure = { ok: true; size: number } | { ok: false; problem: string };

// Characters a UTF-16 unit takes in the harness's ASCII-escaped JSON (json's encode_basestring_ascii).
function escapedUnit(unit: number): number {
  if (hasShortEscape(unit)) return 2;
  return unit >= 0x20 && unit <= 0x7e ? 1 : 6;
}

/** Length of a string as the harness writes it in JSON: quoted, every character outside printable ASCII as `\uXXXX`. */
export function harnessStringLength(text: string): number {
  let size = 2;
  for (let i = 0; i < text.length; i++) size += escapedUnit(text.charCodeAt(i));
  return size;
}

/**
 * Length of a number as the harness writes it. JSON does not say whether `1` was the int 1 or the
 * float 1.0, so integers below 2^53 count as ints (the shorter); other numbers as Python's float
 * repr (shortest digits, exponent form below 1e-4 and from 1e16, at least two exponent digits).
 */
export function harnessNumberLength(value: number): number {
  if (Number.isInteger(value) && Math.abs(value) < 2 ** 53) return String(value).length;
  const [mantissa = '0', exponent = '0'] = Math.abs(value).toExponential().split('e');
  const digits = mantissa.replace('.', '').length;
  const power = Number(exponent);
  const sign = value < 0 ? 1 : 0;
  if (power < -4 || power >= 16)
    return sign + (digits > 1 ? digits + 1 : 1) + 2 + Math.max(2, String(Math.abs(power)).length);
  if (power < 0) return sign + 1 + -power + digits;
  return sign + (digits <= power + 1 ? power + 3 : digits + 1);
}

/**
 * Measures JSON-parsed data as the harness would have written it (no spaces, ASCII escapes):
 * only JSON types, containers nested at most `maxDepth` levels (the root is level 1). Iterative;
 * stops counting once the size passes `maxChars`, so the size it gives is then only a lower bound.
 */
export function measurePlainData(root: unknown, maxDepth: number, maxChars: number): PlainDataMeasure {
  const todo: Array<[unknown, number]> = [[root, 1]];
  let size = 0;
  while (todo.length > 0 && size <= maxChars) {
    const [value, depth] = todo.pop()!;
    if (value === null) size += 4;
    else if (typeof value === 'boolean') size += value ? 4 : 5;
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) return { ok: false, problem: 'a non-finite number' };
      size += harnessNumberLength(value);
    } else if (typeof value === 'string') size += harnessStringLength(value);
    else if (typeof value === 'object') {
      if (depth > maxDepth) return { ok: false, problem: `containers nested deeper than ${maxDepth} levels` };
      const proto = Object.getPrototypeOf(value) as unknown;
      if (Array.isArray(value)) {
        size += 2 + Math.max(0, value.length - 1);
        if (size <= maxChars) for (const item of value) todo.push([item, depth + 1]);
      } else if (proto === Object.prototype || proto === null) {
        const keys = Object.keys(value);
        size += 2 + Math.max(0, keys.length - 1);
        for (const key of keys) {
          if (size > maxChars) break;
          size += harnessStringLength(key) + 1;
          todo.push([(value as Record<string, unknown>)[key], depth + 1]);
        }
      } else return { ok: false, problem: 'an object that is not plain data' };
    } else return { ok: false, problem: `a value of type ${typeof value}` };
  }
  return { ok: true, size };
}
