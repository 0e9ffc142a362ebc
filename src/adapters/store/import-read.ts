// Turns picked or read files into the core's ImportFiles within the import limits: every file
// the limits or the decoding leave out is a problem line, never a silent drop.
import type { ImportFile, ImportProblem } from '../../formats/export/files.ts';
import {
  formatBytes,
  MAX_IMPORT_FILE_BYTES,
  MAX_IMPORT_FILES,
  MAX_IMPORT_TOTAL_BYTES,
} from '../../formats/import/import-limits.ts';
import { sha256Hex } from './sha256.ts';
import { decodeUtf8, looksLikeZip, unzipFiles, type ByteFile } from './zip.ts';
import type { ByteBudget } from './zip-read.ts';

/** Files read for an import, and the problem lines of those left out while reading. */
export interface ReadFiles {
  files: ByteFile[];
  problems: ImportProblem[];
}

/** Why a file of `size` bytes is not read when `budget` bytes are left for the import, or null when it may be. */
export function oversizeReason(size: number, budget: ByteBudget): string | null {
  if (size > MAX_IMPORT_FILE_BYTES)
    return `expected a file of at most ${formatBytes(MAX_IMPORT_FILE_BYTES)}, saw ${formatBytes(size)}; not read. Fix: split it into smaller files`;
  if (size > budget.remaining)
    return `the import reads at most ${formatBytes(MAX_IMPORT_TOTAL_BYTES)} in all and this file (${formatBytes(size)}) does not fit in what is left; not read. Fix: import fewer files at once`;
  return null;
}

/** The problem line for files after the first MAX_IMPORT_FILES. */
export function tooManyFilesProblem(source: string, count: number): ImportProblem {
  return {
    source,
    reason: `expected at most ${MAX_IMPORT_FILES} files, saw ${count > MAX_IMPORT_FILES ? `more than ${MAX_IMPORT_FILES}` : count}; files after the first ${MAX_IMPORT_FILES} were not read. Fix: import fewer files at once`,
    kept: false,
  };
}

const isZip = (file: ByteFile) => file.path.toLowerCase().endsWith('.zip') || looksLikeZip(file.bytes);

function firstBadLine(bytes: Uint8Array): number {
  const text = new TextDecoder('utf-8').decode(bytes);
  const at = text.indexOf('\uFFFD');
  return text.slice(0, Math.max(0, at)).split('\n').length;
}

/**
 * Expands zips (one level, within the caps), then hashes each file over its exact bytes and
 * decodes them as strict UTF-8, so the text that runs is exactly the bytes that were hashed; a
 * file that is not valid UTF-8 is a problem line. Caps: MAX_IMPORT_FILES files, MAX_IMPORT_FILE_BYTES
 * per file and `budget` (MAX_IMPORT_TOTAL_BYTES) in all.
 */
export async function toImportFiles(
  inputs: readonly ByteFile[],
  budget: ByteBudget = { remaining: MAX_IMPORT_TOTAL_BYTES },
): Promise<{ files: ImportFile[]; problems: ImportProblem[] }> {
  const files: ImportFile[] = [];
  const problems: ImportProblem[] = [];
  const take = async (file: ByteFile) => {
    if (files.length >= MAX_IMPORT_FILES)
      return void problems.push({
        source: file.path,
        reason: `expected at most ${MAX_IMPORT_FILES} files in all, saw more; not read. Fix: import fewer files at once`,
        kept: false,
      });
    let text: string;
    try {
      text = decodeUtf8(file.bytes);
    } catch {
      return void problems.push({
        source: file.path,
        reason: `expected UTF-8 text, saw invalid UTF-8 bytes (first on line ${firstBadLine(file.bytes)}); skipped. Fix: save the file as UTF-8`,
        kept: false,
      });
    }
    files.push({ path: file.path, text, sha256: await sha256Hex(file.bytes) });
  };
  for (const input of inputs) {
    const tooLarge = oversizeReason(input.bytes.length, isZip(input) ? { remaining: Infinity } : budget);
    if (tooLarge) {
      problems.push({ source: input.path, reason: tooLarge, kept: false });
    } else if (isZip(input)) {
      const expanded = unzipFiles(input.bytes, input.path, budget);
      problems.push(...expanded.problems);
      for (const file of expanded.files) await take(file);
    } else {
      budget.remaining -= input.bytes.length;
      await take(input);
    }
  }
  return { files, problems };
}
