// Bounds on everything an import reads. Imports are untrusted input: each limit caps memory or
// sandbox time an attacker's file could otherwise claim, and every entry a limit stops is listed
// as a problem line. The README's import section states the same numbers.

/** Most files an import reads (zip entries, or files of a picked folder); the released pools have 7,872 games. */
export const MAX_IMPORT_FILES = 20_000;
/** Largest file an import reads (a picked file, a zip, or one zip entry once inflated), in bytes. */
export const MAX_IMPORT_FILE_BYTES = 64 * 1024 * 1024;
/** Most bytes an import reads in all (picked files, and zip entries once inflated). */
export const MAX_IMPORT_TOTAL_BYTES = 128 * 1024 * 1024;
/** Longest code of one environment, in UTF-8 bytes (generated games are a few kilobytes). */
export const MAX_CODE_BYTES = 256 * 1024;
/** Longest JSON Lines line read, in characters (an archive's environment line holds its prompts and replies). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;
/** Longest domain an imported environment may name, in characters (the built-in ones are under 80). */
export const MAX_DOMAIN_CHARS = 200;
/** Most epochs an imported run may plan (a run extended a hundred times by the app's largest step of 1,000); a larger or unreadable plan is cut to its committed epochs. */
export const MAX_EPOCHS_PLANNED = 100_000;
/** Most documents a corpus import keeps. */
export const MAX_CORPUS_DOCS = 20_000;
/** Most text a corpus import keeps, in characters over all documents. */
export const MAX_CORPUS_CHARS = 32 * 1024 * 1024;

/** A byte count for people: `64 MB` and `256 KB` when exact, else `67108865 bytes (64 MB)`. */
export function formatBytes(bytes: number): string {
  const [unit, name] = bytes >= 1024 * 1024 ? [1024 * 1024, 'MB'] : bytes >= 1024 ? [1024, 'KB'] : [1, 'bytes'];
  const rounded = `${Math.round((bytes / unit) * 10) / 10} ${name}`;
  return bytes % unit === 0 ? rounded : `${bytes} bytes (${rounded})`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when a string holds a UTF-16 surrogate without its pair (from a JSON `\ud800` escape): it has no UTF-8 bytes, so it cannot be hashed as it runs. */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** True for a name that is also a property every plain object has (`__proto__`, `toString`, `constructor`): unusable as a key of skill tables. */
export function isObjectPropertyName(name: string): boolean {
  return name === '__proto__' || name in Object.prototype;
}
