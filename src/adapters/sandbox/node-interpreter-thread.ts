import { constants as fsConstants } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import type { MessagePort } from 'node:worker_threads';
import { loadPyodide, type PyodideAPI } from 'pyodide';
import { answerCalls, portLine } from './call-channel.ts';
import { createSandboxService } from './sandbox-service.ts';
import { forgetSnapshotBytes, freshenRestoredInterpreter } from './pyodide-snapshot.ts';
import { SANDBOX_SOURCES } from './sandbox-sources.ts';
import { bootingFrom, snapshotView, type SharedSnapshot } from './shared-snapshot.ts';

/** What an interpreter thread is started with (its `workerData`). */
export interface InterpreterThreadData {
  /** The pyodide package directory, with a trailing slash. */
  indexURL: string;
  /** Pyodide's wasm, compiled once by the host process for all its threads. */
  wasmModule: WebAssembly.Module;
  /** The host's snapshot to restore from (shared by its threads, read only while booting), or null for a cold start. */
  snapshot: SharedSnapshot | null;
  /** Most bytes this interpreter's linear memory may grow to; a larger allocation fails as a Python MemoryError. */
  memoryLimitBytes: number;
}

/** What an interpreter thread posts once it is sealed and answers calls. */
export const THREAD_READY = 'spadeSandboxReady';

/** Pyodide's settings for every Node interpreter: no JavaScript globals, no console, neutral os.environ. */
export const NODE_PYODIDE_SETTINGS = {
  jsglobals: Object.create(null) as object,
  stdout: () => undefined,
  stderr: () => undefined,
  stdin: () => null,
  // os.environ: Pyodide's defaults, but Emscripten's `_` (the bundle's path in the host's temp folder, with its build hash) given a neutral name, and LANG fixed (else the host's locale where Node has navigator.language).
  env: { HOME: '/home/pyodide', LANG: 'C.UTF-8', _: 'python' },
};

/**
 * Boots one interpreter in this worker thread, seals it and answers harness calls on `port`
 * (the host's end of this thread) until the host terminates the thread. The thread can reach no
 * signal, addon or network global, and its linear memory cannot grow past its own limit, so one
 * interpreter's memory bomb fails that interpreter alone and never starves its siblings.
 */
export async function serveInterpreterThread(port: MessagePort, data: InterpreterThreadData): Promise<void> {
  capLinearMemory(data.memoryLimitBytes);
  allowFsConstants();
  const pyodide = await bootPyodide(data);
  if (data.snapshot) freshenRestoredInterpreter(pyodide);
  dropBootData(pyodide);
  removeHostReach();
  const service = createSandboxService(pyodide, SANDBOX_SOURCES);
  answerCalls(portLine(port as never), (request) => service.call(request));
  port.postMessage({ [THREAD_READY]: true });
}

/** Boots Pyodide on the host's compiled module (never compiling its wasm again), from the snapshot when one is given. */
async function bootPyodide(data: InterpreterThreadData): Promise<PyodideAPI> {
  const realInstantiate = WebAssembly.instantiate.bind(WebAssembly);
  let allocatorBreak = () => Infinity;
  // Pyodide instantiates its main module with its own imports (env.Jsv_GetError_import marks them):
  // that one call gets the compiled module; anything else goes through unchanged.
  const onCompiled = (async (source: unknown, imports?: WebAssembly.Imports) => {
    if (!(imports?.['env'] as Record<string, unknown> | undefined)?.['Jsv_GetError_import'])
      return realInstantiate(source as BufferSource, imports);
    const instance = await realInstantiate(data.wasmModule, imports);
    const sbrk = instance.exports['sbrk'];
    if (typeof sbrk === 'function') allocatorBreak = () => (sbrk as (increment: number) => number)(0) >>> 0;
    return { module: data.wasmModule, instance };
  }) as typeof WebAssembly.instantiate;
  WebAssembly.instantiate = onCompiled;
  const { snapshot } = data;
  const settings = { indexURL: data.indexURL, ...NODE_PYODIDE_SETTINGS };
  try {
    if (!snapshot) return await loadPyodide(settings);
    // Nothing has written the new memory above the allocator's break yet (see writeImage).
    return await bootingFrom(
      snapshot,
      () => allocatorBreak(),
      () => loadPyodide({ ...settings, _loadSnapshot: snapshotView(snapshot) } as Parameters<typeof loadPyodide>[0]),
    );
  } finally {
    WebAssembly.instantiate = realInstantiate;
  }
}

// The snapshot is shared with the host's other threads: once booted, nothing in this thread may
// reach it (Pyodide keeps its settings, and the thread's start data stays readable).
function dropBootData(pyodide: PyodideAPI): void {
  forgetSnapshotBytes(pyodide);
  const threads = createRequire(import.meta.url)('node:worker_threads') as { workerData: unknown };
  threads.workerData = null;
  syncBuiltinESMExports();
}

// Emscripten grows the heap through Memory.prototype.grow and treats a throw as "no memory":
// malloc then fails and Python raises MemoryError.
function capLinearMemory(limitBytes: number): void {
  const grow = WebAssembly.Memory.prototype.grow;
  WebAssembly.Memory.prototype.grow = function (this: WebAssembly.Memory, pages: number) {
    if (this.buffer.byteLength + pages * 65536 > limitBytes)
      throw new RangeError(`the interpreter's memory limit of ${limitBytes} bytes`);
    return grow.call(this, pages);
  };
}

/** Lets Emscripten's NODEFS read fs constants through process.binding, which the permission model denies. */
export function allowFsConstants(): void {
  const host = process as unknown as { binding(name: string): unknown };
  const denied = host.binding.bind(host);
  host.binding = (name: string) => (name === 'constants' ? { fs: fsConstants } : denied(name));
}

// Node 20's permission model does not cover signals, addons or the network: take those away
// before any environment runs (the host ends this thread by terminating it).
function removeHostReach(): void {
  const noAccess = () => {
    throw Object.assign(new Error('not available in the SPADE sandbox'), { code: 'ERR_ACCESS_DENIED' });
  };
  Object.assign(process, { kill: noAccess, _kill: noAccess, dlopen: noAccess });
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'Request', 'Response', 'Headers', 'FormData']) {
    Reflect.deleteProperty(globalThis, name);
  }
}
