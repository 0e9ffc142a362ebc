import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { currentSandboxSnapshot, pyodideDirectory } from './node-sandbox.ts';
import { bundleWorker } from './worker-bundler.ts';

/** Pyodide files the browser sandbox needs, served by the app and handed into the sandbox. */
export const PYODIDE_FILES = ['pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;

/** The gzipped memory snapshot of a fresh sandbox interpreter, served beside Pyodide's files (see `currentSandboxSnapshot`). */
export const SNAPSHOT_FILE = 'sandbox-snapshot.bin.gz';

// The snapshot, gzipped (31 MB of interpreter memory compress to about 6 MB), or null when it cannot be made; never rejects.
async function gzippedSnapshot(): Promise<Uint8Array | null> {
  try {
    const bytes = await currentSandboxSnapshot();
    return bytes ? await promisify(gzip)(bytes) : null;
  } catch {
    return null;
  }
}

const VIRTUAL_ID = 'virtual:spade-sandbox';
const RESOLVED_ID = '\0' + VIRTUAL_ID;
const WORKER_ENTRY = fileURLToPath(new URL('../../../workers/sandbox-browser.ts', import.meta.url));
const WORKER_SOURCES = [
  fileURLToPath(new URL('.', import.meta.url)),
  fileURLToPath(new URL('../../../workers/', import.meta.url)),
];
const DEV_WORKER_PATH = '@spade/sandbox-worker.js';

/**
 * Serves (dev) and emits (build) the Pyodide runtime files and the interpreter snapshot under
 * `pyodide/` and the browser sandbox worker, bundled and minified into one self-contained file of
 * its own (fetched when Python starts, never part of the first view), and provides
 * `virtual:spade-sandbox`: `sandboxAssets`, where they are.
 */
export function spadeSandboxPlugin(): Plugin {
  const dir = pyodideDirectory();
  let base = '/';
  let building = false;
  let devWorker: Promise<string> | null = null;
  let devSnapshot: Promise<Uint8Array | null> | null = null;
  return {
    name: 'spade-sandbox',
    configResolved(config) {
      base = config.base;
      building = config.command === 'build';
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return null;
      let workerPath = DEV_WORKER_PATH;
      let snapshotFile: string | null = SNAPSHOT_FILE;
      if (building) {
        const [source, snapshot] = await Promise.all([bundleWorker(WORKER_ENTRY, 'browser', true), gzippedSnapshot()]);
        workerPath = `assets/sandbox-worker-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: workerPath, source });
        if (snapshot) this.emitFile({ type: 'asset', fileName: `pyodide/${SNAPSHOT_FILE}`, source: snapshot });
        else snapshotFile = null;
      }
      const assets = {
        workerUrl: base + workerPath,
        pyodideBase: base + 'pyodide/',
        pyodideFiles: PYODIDE_FILES,
        snapshotFile,
      };
      return `export const sandboxAssets = ${JSON.stringify(assets)};`;
    },
    configureServer(server) {
      // The worker is bundled once and again only after a change to the sandbox's own files.
      server.watcher.on('change', (file) => {
        if (!WORKER_SOURCES.some((folder) => file.startsWith(folder))) return;
        devWorker = null;
        devSnapshot = null;
      });
      // Made while the first page loads, not when it asks.
      devSnapshot = gzippedSnapshot();
      server.middlewares.use((req, res, next) => {
        const path = req.url?.split('?')[0] ?? '';
        if (path === base + DEV_WORKER_PATH) {
          devWorker ??= bundleWorker(WORKER_ENTRY, 'browser', true);
          devWorker.then(
            (source) => {
              res.setHeader('Content-Type', 'text/javascript');
              res.end(source);
            },
            (error: unknown) => {
              devWorker = null;
              next(error);
            },
          );
          return;
        }
        if (path === base + 'pyodide/' + SNAPSHOT_FILE) {
          devSnapshot ??= gzippedSnapshot();
          void devSnapshot.then((bytes) =>
            bytes
              ? res.setHeader('Content-Type', 'application/gzip').end(bytes)
              : res.writeHead(404).end('no sandbox snapshot on this machine'),
          );
          return;
        }
        const name = path.replace(base + 'pyodide/', '');
        if (!name || !(PYODIDE_FILES as readonly string[]).includes(name) || !path.startsWith(base + 'pyodide/'))
          return next();
        res.setHeader('Content-Type', name.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream');
        res.end(readFileSync(dir + name));
      });
    },
    generateBundle() {
      for (const name of PYODIDE_FILES) {
        this.emitFile({ type: 'asset', fileName: `pyodide/${name}`, source: readFileSync(dir + name) });
      }
    },
  };
}
