import { loadPyodide } from 'pyodide';
import createPyodideModule from 'pyodide/pyodide.asm.mjs';
import { createSandboxService } from '../src/adapters/sandbox/sandbox-service.ts';
import { answerCalls, portLine } from '../src/adapters/sandbox/call-channel.ts';
import { SANDBOX_SOURCES } from '../src/adapters/sandbox/sandbox-sources.ts';
import { SANDBOX_WASM_FILE } from '../src/adapters/sandbox/sandbox-frame.ts';
import {
  forgetSnapshotBytes,
  freshenRestoredInterpreter,
  makeSandboxSnapshot,
} from '../src/adapters/sandbox/pyodide-snapshot.ts';

interface Boot {
  /** The host's port for this interpreter (absent when making a snapshot). */
  port?: MessagePort;
  files: Record<string, ArrayBuffer>;
  /** Pyodide's wasm, compiled once by the sandbox frame for all its workers. */
  wasmModule?: WebAssembly.Module;
  /** A memory snapshot of a fresh interpreter (see pyodide-snapshot.ts) to start from instead of a cold start; one that does not restore means a cold start. */
  snapshot?: ArrayBuffer;
  /** Make that snapshot instead: boot cold, send the bytes to the frame and serve nothing (no environment runs here). */
  makeSnapshot?: true;
}

const FILE_HOST = 'https://pyodide.sandbox.invalid/';

// Serves the Pyodide files the host handed in; this origin can fetch nothing else anyway. The
// wasm is served empty when the frame handed in its compiled module (see instantiateFrom).
function serveFiles(files: Record<string, ArrayBuffer>, compiled: boolean): typeof fetch {
  return async (input) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const name = url.slice(url.lastIndexOf('/') + 1);
    const bytes = compiled && name === SANDBOX_WASM_FILE ? new ArrayBuffer(0) : files[name];
    if (!url.startsWith(FILE_HOST) || !bytes) throw new TypeError(`sandbox cannot fetch ${url}`);
    const type = url.endsWith('.wasm') ? 'application/wasm' : 'application/octet-stream';
    return new Response(bytes, { headers: { 'Content-Type': type } });
  };
}

// Pyodide instantiates its wasm with instantiateStreaming; during start-up that instantiates the
// frame's compiled module instead of compiling the (empty) response again.
function instantiateFrom(module: WebAssembly.Module): typeof WebAssembly.instantiateStreaming {
  return async (_response, imports) => ({ module, instance: await WebAssembly.instantiate(module, imports) });
}

async function boot({ port, files, wasmModule, snapshot, makeSnapshot }: Boot): Promise<void> {
  try {
    const realFetch = globalThis.fetch;
    const realInstantiate = WebAssembly.instantiateStreaming;
    const compiled = wasmModule instanceof WebAssembly.Module;
    const restoring = snapshot instanceof ArrayBuffer && !makeSnapshot;
    globalThis.fetch = serveFiles(files, compiled);
    if (compiled) WebAssembly.instantiateStreaming = instantiateFrom(wasmModule);
    const settings = {
      indexURL: FILE_HOST,
      createPyodideModule,
      lockFileContents: new TextDecoder().decode(files['pyodide-lock.json']!),
      jsglobals: Object.create(null),
      stdout: () => undefined,
      stderr: () => undefined,
      stdin: () => null,
    };
    const restored = restoring
      ? await loadPyodide({ ...settings, _loadSnapshot: new Uint8Array(snapshot) }).catch(() => null)
      : null;
    const pyodide = restored ?? (await loadPyodide({ ...settings, ...(makeSnapshot ? { _makeSnapshot: true } : {}) }));
    globalThis.fetch = realFetch;
    WebAssembly.instantiateStreaming = realInstantiate;
    if (makeSnapshot) {
      const bytes = makeSandboxSnapshot(pyodide, SANDBOX_SOURCES);
      self.postMessage({ spadeSnapshot: bytes }, [bytes.buffer]);
      return;
    }
    if (!port) throw new Error('no host port');
    if (restored) {
      freshenRestoredInterpreter(pyodide);
      forgetSnapshotBytes(pyodide);
    }
    const service = createSandboxService(pyodide, SANDBOX_SOURCES);
    answerCalls(portLine(port), (request) => service.call(request));
    port.postMessage({ spadeSandboxReady: true, snapshotRefused: restoring && !restored });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (makeSnapshot) self.postMessage({ spadeSnapshotError: message });
    else port?.postMessage({ spadeSandboxError: message });
  }
}

self.addEventListener('message', (event: MessageEvent<Boot>) => void boot(event.data), { once: true });
