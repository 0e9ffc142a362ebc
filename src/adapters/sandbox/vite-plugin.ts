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

/**
 * Serves (dev) and emits (build) the Pyodide runtime files under `pyodide/`, and provides
 * `virtual:spade-sandbox`: the browser sandbox worker bundled into one self-contained string.
 */
export function spadeSandboxPlugin(): Plugin {
  const dir = pyodideDirectory();
  let base = '/';
  return {
    name: 'spade-sandbox',
    configResolved(config) {
      base = config.base;
    },
    resolveId(id) {
      return id === VIRTUAL_ID ? RESOLVED_ID : null;
    },
    async load(id) {
      if (id !== RESOLVED_ID) return null;
      const source = await bundleWorker(WORKER_ENTRY, 'browser');
      return [
        `export const workerSource = ${JSON.stringify(source)};`,
        `export const pyodideBase = ${JSON.stringify(base + 'pyodide/')};`,
        `export const pyodideFiles = ${JSON.stringify(PYODIDE_FILES)};`,
      ].join('\n');
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const name = req.url?.split('?')[0]?.replace(base + 'pyodide/', '');
        if (!name || !(PYODIDE_FILES as readonly string[]).includes(name) || !req.url?.startsWith(base + 'pyodide/')) return next();
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
