import { MAX_LINE_CHARS } from '../import/import-limits.ts';

/** A file an export produces: its path inside the zip or folder, and its text (UTF-8). */
export interface TextFile {
  path: string;
  text: string;
}

/** A file read for an import: its path, its text, and the SHA-256 (lowercase hex) of its exact bytes. */
export interface ImportFile extends TextFile {
  sha256: string;
}

/** SHA-256 of a text's UTF-8 bytes as lowercase hex (Web Crypto in the adapters). */
export type HashText = (text: string) => Promise<string>;

/** An entry an import could not take as it was, and why. */
export interface ImportProblem {
  /** Where: a file path, `file:line`, or an environment id. */
  source: string;
  reason: string;
  /** True when the entry was imported anyway (a warning); false when it was left out. */
  kept: boolean;
}

/** Number of bytes of a text in UTF-8. */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80) bytes += 1;
    else if (unit < 0x800) bytes += 2;
    else if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}

/** The last segment of a slash-separated path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** Everything before the last slash of a path ('' for none). */
export function dirName(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

/** Rows as JSON Lines: one JSON object per line, each line ending in a newline. */
export function toJsonLines(rows: readonly unknown[]): string {
  return rows.map((row) => jsonLine(row) + '\n').join('');
}

// Line separators JSON allows raw in strings but other line readers (Python's `splitlines()`, some editors) split on.
const LINE_BREAKING = /[\u0085\u2028\u2029]/g;

/** One value as one JSONL line (no `\n`): JSON with U+0085, U+2028 and U+2029 written as `\uXXXX` escapes, so every line reader sees one line; `JSON.parse` reads the same value back. */
export function jsonLine(value: unknown): string {
  return JSON.stringify(value).replace(LINE_BREAKING, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Calls `visit` with each line of a text (without its `\n` or `\r\n`), its 1-based number and
 * its length in characters, never splitting the whole text. A line longer than `maxChars` is
 * passed as null and never copied. Stops early when `visit` returns false.
 */
export function eachLine(
  text: string,
  maxChars: number,
  visit: (line: string | null, number: number, length: number) => boolean | void,
): void {
  for (let start = 0, number = 1; start < text.length; number++) {
    const newline = text.indexOf('\n', start);
    const stop = newline < 0 ? text.length : newline;
    const end = stop > start && text.charCodeAt(stop - 1) === 13 ? stop - 1 : stop;
    if (visit(end - start > maxChars ? null : text.slice(start, end), number, end - start) === false) return;
    start = stop + 1;
  }
}

/** The problem line for a JSON Lines line over the length cap. */
export function longLineProblem(source: string, length: number, maxChars: number): ImportProblem {
  return {
    source,
    reason: `expected a line of at most ${maxChars} characters, saw ${length}; the line was not read. Fix: shorten or split that record`,
    kept: false,
  };
}

/** Parses JSON Lines line by line; blank lines are skipped, bad or over-long lines reported (1-based), never fatal. */
export function parseJsonLines(
  text: string,
  source: string,
  maxLineChars = MAX_LINE_CHARS,
): { rows: Array<{ line: number; value: unknown }>; problems: ImportProblem[] } {
  const rows: Array<{ line: number; value: unknown }> = [];
  const problems: ImportProblem[] = [];
  eachLine(text, maxLineChars, (raw, line, length) => {
    if (raw === null) return void problems.push(longLineProblem(`${source}:${line}`, length, maxLineChars));
    if (raw.trim() === '') return;
    try {
      rows.push({ line, value: JSON.parse(raw) });
    } catch {
      problems.push({ source: `${source}:${line}`, reason: 'not valid JSON', kept: false });
    }
  });
  return { rows, problems };
}

/** True for a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
