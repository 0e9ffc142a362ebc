import { expose } from 'comlink';
import { loadPyodide } from 'pyodide';
import createPyodideModule from 'pyodide/pyodide.asm.mjs';
import { createSandboxService } from '../src/adapters/sandbox/sandbox-service.ts';
import harnessSource from '../src/adapters/sandbox/harness.py';
import sealSource from '../src/adapters/sandbox/seal.py';
import encodingSource from '../src/adapters/sandbox/encoding.py';

interface Boot {
  port: MessagePort;
  files: Record<string, ArrayBuffer>;
}

const FILE_HOST = 'https://pyodide.sandbox.invalid/';

// Serves the Pyodide files the host handed in; this origin can fetch nothing else anyway.
function serveFiles(files: Record<string, ArrayBuffer>): typeof fetch {
  return async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const bytes = files[url.slice(url.lastIndexOf('/') + 1)];
    if (!url.startsWith(FILE_HOST) || !bytes) throw new TypeError(`sandbox cannot fetch ${url}`);
    const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(bytes, { headers: { 'Content-Type': type } });
  };
}

async function boot({ port, files }: Boot): Promise<void> {
  try {
    const realFetch = globalThis.fetch;
    globalThis.fetch = serveFiles(files);
    const pyodide = await loadPyodide({
      indexURL: FILE_HOST,
      createPyodideModule,
      lockFileContents: new TextDecoder().decode(files['pyodide-lock.json']!),
      jsglobals: Object.create(null),
      stdout: () => undefined,
      stderr: () => undefined,
      stdin: () => null,
    });
    globalThis.fetch = realFetch;
    expose(createSandboxService(pyodide, { encoding: encodingSource, harness: harnessSource, seal: sealSource }), port);
    port.postMessage({ spadeSandboxReady: true });
  } catch (error) {
    port.postMessage({ spadeSandboxError: error instanceof Error ? error.message : String(error) });
  }
}

self.addEventListener('message', (event: MessageEvent<Boot>) => void boot(event.data), { once: true });
