import { strToU8, zipSync, type Zippable } from 'fflate';
import type { ImportProblem, TextFile } from '../../formats/export/files.ts';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_FILES, MAX_IMPORT_TOTAL_BYTES } from '../../formats/import/import-limits.ts';
import { readZipEntries, type ByteBudget } from './zip-read.ts';

/** A file as bytes, by its path inside a zip or folder. */
export interface ByteFile {
  path: string;
  bytes: Uint8Array;
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true, fatal: true });

// A fixed local date, so the same files always give the same zip bytes in every time zone.
const FIXED_MTIME = new Date(2000, 0, 1);

/** Zips text files (deflate level 6, fixed timestamps: identical input gives identical bytes). */
export function zipTextFiles(files: readonly TextFile[]): Uint8Array {
  const entries: Zippable = {};
  for (const file of files) entries[file.path] = [strToU8(file.text), { level: 6, mtime: FIXED_MTIME }];
  return zipSync(entries, { mtime: FIXED_MTIME });
}

/** True when bytes start like a zip archive (local file header `PK\x03\x04`, or an empty zip). */
export function looksLikeZip(bytes: Uint8Array): boolean {
  return (
    bytes.length >= 4 &&
    bytes[0] === 0x50 &&
    bytes[1] === 0x4b &&
    (bytes[2] === 3 || bytes[2] === 5) &&
    (bytes[3] === 4 || bytes[3] === 6)
  );
}

/**
 * Unzips to files within the import limits (MAX_IMPORT_FILES entries, MAX_IMPORT_FILE_BYTES per
 * entry, `budget` bytes in all, by default MAX_IMPORT_TOTAL_BYTES); every entry left out is a
 * problem line `<zipName>:<entry>` with the reason.
 */
export function unzipFiles(
  bytes: Uint8Array,
  zipName = 'zip',
  budget: ByteBudget = { remaining: MAX_IMPORT_TOTAL_BYTES },
): { files: ByteFile[]; problems: ImportProblem[] } {
  const { entries, problems } = readZipEntries(
    bytes,
    zipName,
    { maxEntries: MAX_IMPORT_FILES, maxEntryBytes: MAX_IMPORT_FILE_BYTES },
    budget,
  );
  return { files: entries.map((e) => ({ path: e.name, bytes: e.bytes })), problems };
}

/** Decodes strict UTF-8 (a byte-order mark is kept as U+FEFF, so the text is exactly the bytes); throws a TypeError on invalid UTF-8. */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
