import { importFiles, type ImportOptions, type ImportPorts, type ImportReport } from '../../formats/import/import-files.ts';
import type { ImportProblem } from '../../formats/export/files.ts';
import { restoreRun } from '../../formats/export/run-snapshot.ts';
import { MAX_IMPORT_FILES, MAX_IMPORT_TOTAL_BYTES } from '../../formats/import/import-limits.ts';
import type { RunStore } from '../../core/ports/store-port.ts';
import { hashText } from './sha256.ts';
import { oversizeReason, toImportFiles, tooManyFilesProblem, type ReadFiles } from './import-read.ts';
import type { ByteFile } from './zip.ts';

/** An import's report, and whether its run was written to the store. */
export interface StoredImport extends ImportReport {
  /** Id of the run written, or null (nothing to store, or a corpus). */
  runId: string | null;
}

/**
 * Imports files (zips are expanded, everything within the import limits) into a store: a run
 * archive, a SPADE pool or pool rows become a new run; a corpus comes back as documents for the
 * caller to keep. Every environment is re-validated in the sandbox; problems (those of reading
 * first, from `readProblems`) are listed, never fatal.
 */
export async function importIntoStore(
  store: RunStore,
  inputs: readonly ByteFile[],
  ports: Omit<ImportPorts, 'hashText'>,
  options: ImportOptions,
  readProblems: readonly ImportProblem[] = [],
): Promise<StoredImport> {
  const read = await toImportFiles(inputs);
  const report = await importFiles(read.files, { ...ports, hashText }, options);
  const problems = [...readProblems, ...read.problems, ...report.problems];
  if (!report.snapshot) return { ...report, problems, runId: null };
  await restoreRun(store, report.snapshot);
  return { ...report, problems, runId: report.snapshot.meta.id };
}

/** Reads files a user picked in the browser (`<input type=file multiple>` or a folder with webkitdirectory); files over the caps are listed, not read. */
export async function readPickedFiles(picked: Iterable<File>): Promise<ReadFiles> {
  const all = [...picked];
  const out: ReadFiles = { files: [], problems: all.length > MAX_IMPORT_FILES ? [tooManyFilesProblem('picked files', all.length)] : [] };
  const budget = { remaining: MAX_IMPORT_TOTAL_BYTES };
  for (const file of all.slice(0, MAX_IMPORT_FILES)) {
    const path = file.webkitRelativePath || file.name;
    const tooLarge = oversizeReason(file.size, /\.zip$/i.test(file.name) ? { remaining: Infinity } : budget);
    if (tooLarge) {
      out.problems.push({ source: path, reason: tooLarge, kept: false });
      continue;
    }
    if (!/\.zip$/i.test(file.name)) budget.remaining -= file.size;
    out.files.push({ path, bytes: new Uint8Array(await file.arrayBuffer()) });
  }
  return out;
}
