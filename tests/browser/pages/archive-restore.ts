// Test-only page module (tests/browser/pages/archive-restore.html): reads a run archive's files as
// the app's import does (parseArchive, then restoreRun into the app's own IndexedDB database, same
// origin and name) without re-validating its environments in the sandbox, so a view test of
// hostile records needs no Python.
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { hashText } from '../../../src/adapters/store/sha256.ts';
import type { TextFile } from '../../../src/formats/export/files.ts';
import { parseArchive } from '../../../src/formats/export/run-archive.ts';
import { restoreRun } from '../../../src/formats/export/run-snapshot.ts';

/** Restores one archive; returns its problems' reasons, or the reason it could not be read. */
async function restoreArchive(files: TextFile[]): Promise<string[]> {
  const hashed = await Promise.all(files.map(async (f) => ({ ...f, sha256: await hashText(f.text) })));
  const { snapshot, problems } = parseArchive(hashed);
  if (!snapshot) return problems.map((p) => p.reason);
  const store = await openIndexedDbRunStore();
  try {
    await restoreRun(store, snapshot);
  } finally {
    store.close();
  }
  return problems.map((p) => p.reason);
}

declare global {
  interface Window {
    spadeRestoreArchive: (files: TextFile[]) => Promise<string[]>;
  }
}

window.spadeRestoreArchive = restoreArchive;
