import { importFiles, type ImportOptions, type ImportPorts, type ImportReport } from '../../core/import/import-files.ts';
import { restoreRun } from '../../core/export/run-snapshot.ts';
import type { RunStore } from '../../core/store-port.ts';
import { hashText } from './sha256.ts';
import { toImportFiles, type ByteFile } from './zip.ts';

/** An import's report, and whether its run was written to the store. */
export interface StoredImport extends ImportReport {
  /** Id of the run written, or null (nothing to store, or a corpus). */
  runId: string | null;
}

/**
 * Imports picked files (zips are expanded) into a store: a run archive, a SPADE pool or pool
 * rows become a new run; a corpus comes back as documents for the caller to keep. Every
 * environment is re-validated in the sandbox; problems are listed, never fatal.
 */
export async function importIntoStore(
  store: RunStore,
  inputs: readonly ByteFile[],
  ports: Omit<ImportPorts, 'hashText'>,
  options: ImportOptions,
): Promise<StoredImport> {
  const { files, skipped } = await toImportFiles(inputs);
  const report = await importFiles(files, { ...ports, hashText }, options);
  const problems = [...skipped.map((path) => ({ source: path, reason: 'too large to unzip; skipped', kept: false })), ...report.problems];
  if (!report.snapshot) return { ...report, problems, runId: null };
  await restoreRun(store, report.snapshot);
  return { ...report, problems, runId: report.snapshot.meta.id };
}

/** Reads files a user picked in the browser (`<input type=file multiple>` or a folder with webkitdirectory) as ByteFiles. */
export async function readPickedFiles(files: Iterable<File>): Promise<ByteFile[]> {
  const out: ByteFile[] = [];
  for (const file of files) out.push({ path: file.webkitRelativePath || file.name, bytes: new Uint8Array(await file.arrayBuffer()) });
  return out;
}
