import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import type { ImportFile, TextFile } from '../../core/export/files.ts';
import { sha256Hex } from './sha256.ts';

/** A file as bytes, by its path inside a zip or folder. */
export interface ByteFile {
  path: string;
  bytes: Uint8Array;
}

/** Entries larger than this are skipped on unzip (a guard against zip bombs), in bytes. */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** Unzipping stops at this many bytes in total. */
export const MAX_TOTAL_BYTES = 1024 * 1024 * 1024;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

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
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && (bytes[2] === 3 || bytes[2] === 5) && (bytes[3] === 4 || bytes[3] === 6);
}

/** Unzips to files (folders and macOS metadata dropped); reports entries skipped for size. */
export function unzipFiles(bytes: Uint8Array): { files: ByteFile[]; skipped: string[] } {
  const skipped: string[] = [];
  let total = 0;
  const entries = unzipSync(bytes, {
    filter: (entry) => {
      if (entry.name.endsWith('/') || entry.name.startsWith('__MACOSX/')) return false;
      if (entry.originalSize > MAX_ENTRY_BYTES || total + entry.originalSize > MAX_TOTAL_BYTES) {
        skipped.push(entry.name);
        return false;
      }
      total += entry.originalSize;
      return true;
    },
  });
  return { files: Object.entries(entries).map(([path, data]) => ({ path, bytes: data })), skipped };
}

/** Decodes UTF-8 bytes (a byte-order mark is kept as U+FEFF, so the text is exactly the bytes). */
export function decodeUtf8(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

/**
 * Turns files picked for an import into the core's ImportFiles: zips are expanded (one level),
 * every file is hashed over its exact bytes, then decoded as UTF-8.
 */
export async function toImportFiles(inputs: readonly ByteFile[]): Promise<{ files: ImportFile[]; skipped: string[] }> {
  const files: ImportFile[] = [];
  const skipped: string[] = [];
  for (const input of inputs) {
    const expanded = input.path.toLowerCase().endsWith('.zip') || looksLikeZip(input.bytes) ? unzipFiles(input.bytes) : { files: [input], skipped: [] };
    skipped.push(...expanded.skipped);
    for (const file of expanded.files) files.push({ path: file.path, text: decodeUtf8(file.bytes), sha256: await sha256Hex(file.bytes) });
  }
  return { files, skipped };
}
