import { exportRun, EXPORT_FORMATS, type ExportFormat } from '../../adapters/store/export-run.ts';
import {
  importIntoStore,
  readPickedFiles,
  refuseStoredId,
  RunClashError,
  runIdProblem,
  type StoreImportOptions,
  type StoredImport,
} from '../../adapters/store/import-run.ts';
import { validationNonce } from '../../adapters/validation-nonce.ts';
import {
  estimateStorage,
  requestPersistentStorage,
  type PersistOutcome,
  type StorageEstimate,
} from '../../adapters/store/storage-quota.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import { importProgressLine } from '../../formats/import/import-progress.ts';
import type { RunStore } from '../../core/ports/store-port.ts';
import { saveUserCorpus, userCorpus } from '../new-run/corpus-source.ts';

export { EXPORT_FORMATS, RunClashError, runIdProblem, type ExportFormat, type PersistOutcome, type StorageEstimate };

/** What each export format is, in one line. */
export const EXPORT_LABELS: Record<ExportFormat, string> = {
  pool: 'SPADE environment pool (zip of game_NNNNNN.py with checksums, for the reference trainer)',
  rollouts: 'Rollout rows (JSON Lines: role, messages, completion, reward, advantage, group)',
  metrics: 'Per-epoch metrics (CSV)',
  archive: 'Full run archive (zip another browser can import)',
};

/** Export and import of runs, pools and corpora, bound to the app's store and sandbox. */
export interface DataActions {
  /** Exports a run and hands the browser the file to save; returns the file name and item count. */
  download(runId: string, format: ExportFormat): Promise<{ fileName: string; count: number }>;
  /**
   * Imports picked files (pool, rows, archive or corpus), re-validating every environment in the
   * sandbox; `onProgress` gets a line with the time left; a corpus is kept only when the user has
   * none yet. A run whose id is already stored throws a RunClashError before anything is
   * validated, unless `target` imports it under another id or replaces the stored run.
   */
  importPicked(picked: readonly File[], onProgress: (line: string) => void, target?: ImportTarget): Promise<AppImport>;
}

/** Where an import's run goes when its id is already stored: under another id, or over the stored run (which is deleted only once the import is ready to write). */
export type ImportTarget = { runId: string } | { replace: true };

/** Deletes a stored run (never one running here or in another tab); the reason when it deleted nothing. */
export type DeleteRun = (runId: string) => Promise<string | null>;

/** The data actions over `store`, re-validating imports in `sandbox` (created on first use); a replacing import deletes the stored run through `deleteRun`. */
export function dataActions(store: RunStore, sandbox: () => SandboxRuntime, deleteRun: DeleteRun): DataActions {
  return {
    download: (runId, format) => downloadExport(store, runId, format),
    importPicked: (picked, onProgress, target) =>
      importPicked(store, sandbox(), picked, onProgress, placement(store, deleteRun, target)),
  };
}

// The import options a target makes: refuse a stored id (the default), take another, or replace the stored run.
function placement(store: RunStore, deleteRun: DeleteRun, target: ImportTarget | undefined): StoreImportOptions {
  const now = Date.now();
  if (target && 'replace' in target) {
    return {
      now,
      replaceStored: async (runId) => {
        const refused = await deleteRun(runId);
        if (refused) throw new Error(refused);
      },
    };
  }
  if (target) {
    const problem = runIdProblem(target.runId);
    if (problem) throw new Error(`The new id cannot be used: ${problem}`);
  }
  return { now, ...(target ? { runId: target.runId } : {}), checkTarget: refuseStoredId(store) };
}

/** Exports a run and hands the browser the file to save. */
async function downloadExport(
  store: RunStore,
  runId: string,
  format: ExportFormat,
): Promise<{ fileName: string; count: number }> {
  const file = await exportRun(store, runId, format);
  saveFile(file.fileName, file.bytes, file.mimeType);
  return { fileName: file.fileName, count: file.count };
}

/** Hands the browser a file to save under `fileName`. */
export function saveFile(fileName: string, content: Uint8Array | string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([content as BlobPart], { type: mimeType }));
  const link = Object.assign(document.createElement('a'), { href: url, download: fileName });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/** An import in the app: its report, and for a corpus whether it was kept or waits for the user to replace the one they have. */
export interface AppImport extends StoredImport {
  /** The imported corpus now grounds new runs. */
  corpusSaved: boolean;
  /** Documents of the user's earlier corpus, when a corpus import found one and left it in place (null otherwise). */
  existingCorpusDocs: number | null;
}

/**
 * Imports picked files (pool, rows, archive or corpus); every environment is re-validated in
 * the sandbox. A corpus is kept only when the user has none yet: an existing one is never
 * replaced here: the caller asks the user first, then calls `saveUserCorpus`.
 */
async function importPicked(
  store: RunStore,
  sandbox: SandboxRuntime,
  picked: readonly File[],
  onProgress: (line: string) => void,
  options: StoreImportOptions,
): Promise<AppImport> {
  const read = await readPickedFiles(picked);
  const started = Date.now();
  const progress = (done: number, total: number) => onProgress(importProgressLine(done, total, Date.now() - started));
  const report = await importIntoStore(
    store,
    read.files,
    { sandbox, onProgress: progress, nonce: validationNonce() },
    options,
    read.problems,
  );
  if (!report.corpus || report.corpus.length === 0) return { ...report, corpusSaved: false, existingCorpusDocs: null };
  const existing = await userCorpus();
  if (existing) return { ...report, corpusSaved: false, existingCorpusDocs: existing.length };
  await saveUserCorpus(report.corpus);
  return { ...report, corpusSaved: true, existingCorpusDocs: null };
}

/** Storage use and quota, or null where the browser does not say. */
export function storageFacts(): Promise<StorageEstimate | null> {
  return estimateStorage();
}

/** Asks the browser to keep this app's data (not evicted under storage pressure). */
export function keepStorage(): Promise<PersistOutcome> {
  return requestPersistentStorage();
}
