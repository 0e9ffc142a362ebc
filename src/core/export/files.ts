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
  return rows.map((row) => JSON.stringify(row) + '\n').join('');
}

/** Parses JSON Lines; blank lines are skipped and bad lines reported (1-based), never fatal. */
export function parseJsonLines(text: string, source: string): { rows: Array<{ line: number; value: unknown }>; problems: ImportProblem[] } {
  const rows: Array<{ line: number; value: unknown }> = [];
  const problems: ImportProblem[] = [];
  text.split(/\r?\n/).forEach((raw, index) => {
    if (raw.trim() === '') return;
    try {
      rows.push({ line: index + 1, value: JSON.parse(raw) });
    } catch {
      problems.push({ source: `${source}:${index + 1}`, reason: 'not valid JSON', kept: false });
    }
  });
  return { rows, problems };
}

/** True for a plain object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
