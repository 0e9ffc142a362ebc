import {
  importFiles,
  plannedRunId,
  type ImportOptions,
  type ImportPorts,
  type ImportReport,
} from '../../formats/import/import-files.ts';
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

/** Naming of the run an import creates, and what happens to a stored run it would clash with. */
export interface StoreImportOptions extends ImportOptions {
  /** Called with the id of the run the import will create once the files are read, before anything is validated; a throw (e.g. a RunClashError) ends the import with nothing written. */
  checkTarget?: (runId: string) => Promise<void>;
  /** Removes the stored run the import replaces: called once validation is done, just before the import is written. */
  replaceStored?: (runId: string) => Promise<void>;
}

/** An import would create a run under the id of a stored one: nothing was validated or written. */
export class RunClashError extends Error {
  override readonly name = 'RunClashError';

  constructor(
    /** The id both runs have. */
    readonly runId: string,
    /** The stored run's name. */
    readonly storedName: string,
    /** A free id to import under instead. */
    readonly suggestedId: string,
  ) {
    super(
      `A run with id ${JSON.stringify(runId)} ("${storedName}") is already stored here; nothing was validated or written. Import it under another id, or replace the stored run`,
    );
  }
}

/** The first of `<id>-2`, `<id>-3`, ... that `taken` does not hold (counting on from a trailing `-N`). */
export function freeRunId(id: string, taken: ReadonlySet<string>): string {
  const match = /^(.*)-(\d{1,6})$/.exec(id);
  const stem = match ? match[1]! : id;
  let n = match ? Number(match[2]) + 1 : 2;
  while (taken.has(`${stem}-${n}`)) n++;
  return `${stem}-${n}`;
}

/** The longest run id an import may be given. */
export const MAX_RUN_ID_CHARS = 100;

/** Why `id` cannot name an imported run (empty, too long, or holding spaces or control characters), or null when it can. */
export function runIdProblem(id: string): string | null {
  if (id === '') return 'expected a run id, saw an empty one';
  if (id.length > MAX_RUN_ID_CHARS)
    return `expected a run id of at most ${MAX_RUN_ID_CHARS} characters, saw ${id.length}`;
  if (/[\s\p{Cc}\p{Cf}]/u.test(id))
    return `expected a run id without spaces or control characters, saw ${JSON.stringify(id)}`;
  return null;
}

/** A `checkTarget` that refuses an id `store` already holds with a RunClashError suggesting a free one. */
export function refuseStoredId(store: RunStore): (runId: string) => Promise<void> {
  return async (runId) => {
    const runs = await store.listRuns();
    const stored = runs.find((r) => r.id === runId);
    if (stored) throw new RunClashError(runId, stored.name, freeRunId(runId, new Set(runs.map((r) => r.id))));
  };
}

/**
 * Imports files (zips are expanded, everything within the import limits) into a store: a run
 * archive, a SPADE pool or pool rows become a new run; a corpus comes back as documents for the
 * caller to keep. The id of the run to create is checked (`checkTarget`) before any validation;
 * then every environment is re-validated in the sandbox; problems (those of reading first, from
 * `readProblems`) are listed, never fatal. A stored run is removed (`replaceStored`) only once
 * the import is ready to write.
 */
export async function importIntoStore(
  store: RunStore,
  inputs: readonly ByteFile[],
  ports: Omit<ImportPorts, 'hashText'>,
  options: StoreImportOptions,
  readProblems: readonly ImportProblem[] = [],
): Promise<StoredImport> {
  const { checkTarget, replaceStored, ...naming } = options;
  const read = await toImportFiles(inputs);
  const target = plannedRunId(read.files, naming);
  if (target !== null) await checkTarget?.(target);
  const report = await importFiles(read.files, { ...ports, hashText }, naming);
  const problems = [...readProblems, ...read.problems, ...report.problems];
  if (!report.snapshot) return { ...report, problems, runId: null };
  await replaceStored?.(report.snapshot.meta.id);
  await restoreRun(store, report.snapshot);
  return { ...report, problems, runId: report.snapshot.meta.id };
}

/** Reads files a user picked in the browser (`<input type=file multiple>` or a folder with webkitdirectory); files over the caps are listed, not read. */
export async function readPickedFiles(picked: Iterable<File>): Promise<ReadFiles> {
  const all = [...picked];
  const out: ReadFiles = {
    files: [],
    problems: all.length > MAX_IMPORT_FILES ? [tooManyFilesProblem('picked files', all.length)] : [],
  };
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
