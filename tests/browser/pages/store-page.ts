// Test-only page module (tests/browser/pages/store.html): puts the real IndexedDB RunStore, the
// export/import adapters and the browser sandbox on `window.spadeStore` for
// tests/browser/store-idb.test.ts. Errors come back as plain data ({ error: { name, code, message } }).
import { sandboxAssets } from 'virtual:spade-sandbox';
import { createBrowserSandboxRuntime } from '../../../src/adapters/sandbox/browser-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { exportRun, type ExportFormat } from '../../../src/adapters/store/export-run.ts';
import { openIndexedDbRunStore, type IndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { importIntoStore } from '../../../src/adapters/store/import-run.ts';
import { estimateStorage, requestPersistentStorage } from '../../../src/adapters/store/storage-quota.ts';
import { decodeUtf8, unzipFiles } from '../../../src/adapters/store/zip.ts';
import { openDB } from 'idb';
import { environmentRow } from '../../../src/adapters/store/idb-rows.ts';
import type { SpadeDbSchema } from '../../../src/adapters/store/idb-schema.ts';
import { upgradeToV1, upgradeToV2, upgradeToV3 } from '../../../src/adapters/store/idb-upgrade.ts';
import { hashText } from '../../../src/adapters/store/sha256.ts';
import { DEFAULT_VALIDATION } from '../../../src/core/env/validate-env.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import type { TextFile } from '../../../src/formats/export/files.ts';
import { snapshotRun } from '../../../src/formats/export/run-snapshot.ts';
import type { EnvironmentQuery, RunMeta } from '../../../src/core/ports/store-port.ts';

type Outcome<T> = { ok: true; value: T } | { ok: false; error: { name: string; code: string | null; message: string } };

const stores = new Map<string, IndexedDbRunStore>();
const closed: string[] = [];
let sandbox: PyodideSandboxRuntime | null = null;

async function attempt<T>(run: () => Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await run() };
  } catch (error) {
    const e = error as { name?: string; code?: string; message?: string };
    return { ok: false, error: { name: e.name ?? 'Error', code: e.code ?? null, message: e.message ?? String(error) } };
  }
}

function store(name: string): IndexedDbRunStore {
  const found = stores.get(name);
  if (!found) throw new Error(`open ${name} first`);
  return found;
}

const unzipText = (bytes: Uint8Array): TextFile[] =>
  unzipFiles(bytes).files.map((f) => ({ path: f.path, text: decodeUtf8(f.bytes) }));

const api = {
  /** Opens (creating or upgrading) database `name`. */
  async open(name: string): Promise<number> {
    const opened = await openIndexedDbRunStore({ name, onClosed: (reason) => closed.push(`${name}:${reason}`) });
    stores.set(name, opened);
    return opened.db.version;
  },
  closedReasons: () => [...closed],
  /** Creates database `name` at schema version 3 holding `epochs` of run `meta.id`, written as v3 wrote them. */
  async makeV3(name: string, meta: RunMeta, epochs: EpochResult[]): Promise<void> {
    const db = await openDB<SpadeDbSchema>(name, 3, {
      upgrade: (database, _old, _new, tx) => {
        upgradeToV1(database);
        void upgradeToV2(tx);
        upgradeToV3(database);
      },
    });
    const rows = await Promise.all(
      epochs.flatMap((r) => r.environments.map(async (env) => environmentRow(meta.id, env, await hashText(env.code)))),
    );
    const tx = db.transaction(['runs', 'epochs', 'environments', 'episodes', 'state'], 'readwrite');
    void tx.objectStore('runs').put({ ...meta, epochsCompleted: epochs.length });
    for (const r of epochs) {
      void tx
        .objectStore('epochs')
        .put({ runId: meta.id, epoch: r.epoch, metrics: r.metrics, timings: r.timings } as never);
      r.episodes.forEach(
        (episode, seq) =>
          void tx.objectStore('episodes').put({ runId: meta.id, epoch: r.epoch, seq, envId: episode.envId, episode }),
      );
    }
    for (const row of rows) void tx.objectStore('environments').put(row);
    void tx.objectStore('state').put({ runId: meta.id, state: epochs[epochs.length - 1]!.nextState });
    await tx.done;
    db.close();
  },
  createRun: (name: string, meta: RunMeta) => attempt(() => store(name).createRun(meta)),
  commitEpoch: (name: string, runId: string, result: EpochResult) =>
    attempt(() => store(name).commitEpoch(runId, result)),
  /** Commits `result` with environment 0's code padded by `megabytes` MB of random hex (incompressible), to run into a small quota. */
  commitPadded: (name: string, runId: string, result: EpochResult, megabytes: number) =>
    attempt(() => {
      const big = structuredClone(result);
      const noise = new Uint8Array(megabytes * 512 * 1024);
      for (let i = 0; i < noise.length; i += 65536) crypto.getRandomValues(noise.subarray(i, i + 65536));
      big.environments[0]!.code += `# ${Array.from(noise, (b) => b.toString(16).padStart(2, '0')).join('')}\n`;
      return store(name).commitEpoch(runId, big);
    }),
  loadRun: (name: string, runId: string) => store(name).loadRun(runId),
  snapshot: (name: string, runId: string) => snapshotRun(store(name), runId),
  query: (name: string, runId: string, query: EnvironmentQuery) =>
    store(name)
      .queryEnvironments(runId, query)
      .then((envs) => envs.map((e) => e.id)),
  summaries: (name: string, runId: string, query: EnvironmentQuery) =>
    store(name).queryEnvironmentSummaries(runId, query),
  chartRows: (name: string, runId: string) => store(name).chartRowsOf(runId),
  /** Exports a run; zips come back unzipped. */
  async exportFiles(
    name: string,
    runId: string,
    format: ExportFormat,
  ): Promise<{ fileName: string; files: TextFile[] }> {
    const file = await exportRun(store(name), runId, format);
    return {
      fileName: file.fileName,
      files:
        file.mimeType === 'application/zip'
          ? unzipText(file.bytes)
          : [{ path: file.fileName, text: decodeUtf8(file.bytes) }],
    };
  },
  /** Exports a run from one database and imports it into another, re-validating in the browser sandbox. */
  async exportThenImport(from: string, runId: string, format: ExportFormat, to: string, newRunId?: string) {
    sandbox ??= createBrowserSandboxRuntime(sandboxAssets);
    const file = await exportRun(store(from), runId, format);
    const report = await importIntoStore(
      store(to),
      [{ path: file.fileName, bytes: file.bytes }],
      { sandbox, validation: { ...DEFAULT_VALIDATION, totalTimeoutMs: 10_000 } },
      { now: Date.now(), ...(newRunId ? { runId: newRunId } : {}) },
    );
    return {
      kind: report.kind,
      imported: report.imported,
      found: report.found,
      problems: report.problems,
      runId: report.runId,
    };
  },
  persist: () => requestPersistentStorage(),
  estimate: () => estimateStorage(),
};

export type SpadeStoreTestApi = typeof api;

declare global {
  interface Window {
    spadeStore: SpadeStoreTestApi;
  }
}

window.spadeStore = api;
