import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { pyodideDirectory } from './node-sandbox.ts';
import { bundleWorker } from './worker-bundler.ts';

/** Pyodide files the browser sandbox needs, served by the app and handed into the sandbox. */
export const PYODIDE_FILES = ['pyodide.asm.wasm', 'python_stdlib.zip', 'pyodide-lock.json'] as const;

const VIRTUAL_ID = 'virtual:spade-sandbox';
const RESOLVED_ID = '\0' + VIRTUAL_ID;
const WORKER_ENTRY = fileURLToPath(new URL('../../../workers/sandbox-browser.ts', import.meta.url));
const WORKER_SOURCES = [fileURLToPath(new URL('.', import.meta.url)), fileURLToPath(new URL('../../../workers/', import.meta.url))];
const DEV_WORKER_PATH = '@spade/sandbox-worker.js';

/**
 * Serves (dev) and emits (build) the Pyodide runtime files under `pyodide/` and the browser
 * sandbox worker, bundled and minified into one self-contained file of its own (fetched when
 * Python starts, never part of the first view), and provides `virtual:spade-sandbox`: where they are.
 */
export function spadeSandboxPlugin(): Plugin {
  const dir = pyodideDirectory();
  let base = '/';
  let building = false;
  let devWorker: Promise<string> | null = null;
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
      if (building) {
        const source = await bundleWorker(WORKER_ENTRY, 'browser', true);
        workerPath = `assets/sandbox-worker-${createHash('sha256').update(source).digest('hex').slice(0, 8)}.js`;
        this.emitFile({ type: 'asset', fileName: workerPath, source });
      }
      return [
        `export const workerUrl = ${JSON.stringify(base + workerPath)};`,
        `export const pyodideBase = ${JSON.stringify(base + 'pyodide/')};`,
        `export const pyodideFiles = ${JSON.stringify(PYODIDE_FILES)};`,
      ].join('\n');
    },
    configureServer(server) {
      // The worker is bundled once and again only after a change to the sandbox's own files.
      server.watcher.on('change', (file) => {
        if (WORKER_SOURCES.some((folder) => file.startsWith(folder))) devWorker = null;
      });
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
        const name = path.replace(base + 'pyodide/', '');
        if (!name || !(PYODIDE_FILES as readonly string[]).includes(name) || !path.startsWith(base + 'pyodide/')) return next();
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
