import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import type { InterpreterThreadData } from './node-interpreter-thread.ts';
import { THREAD_READY } from './node-interpreter-thread.ts';
import { shareSnapshot, type SharedSnapshot } from './shared-snapshot.ts';

/** Messages from the parent to an interpreter host process. */
export type HostRequest = { start: number; cold: boolean } | { kill: number } | { to: number; message: unknown };

/** Messages from an interpreter host process to its parent. */
export type HostReport =
  { hostReady: true } | { ready: number } | { died: number; reason: string } | { from: number; message: unknown };

/** How a host process is set up: its own bundle (the threads run it too), the pyodide directory, a snapshot file or none. */
export interface HostSetup {
  entry: URL;
  indexURL: string;
  snapshotFile: string | null;
}

/** V8 heap limit of each interpreter thread (Pyodide's JavaScript side needs a few tens of MB; Python's objects live in linear memory). */
const THREAD_HEAP_MB = 256;

/** How far an interpreter's linear memory may grow: with its thread's heap, the 1 GiB per-interpreter budget (SANDBOX_DATA_LIMIT_BYTES). */
export const INTERPRETER_MEMORY_LIMIT_BYTES = 1024 * 2 ** 20 - THREAD_HEAP_MB * 2 ** 20;

/**
 * Runs in the fenced host process: compiles Pyodide once, reads the snapshot once (at the first
 * start that needs it) into memory every thread boots from without a copy, and starts, routes to
 * and terminates interpreter threads as the parent asks (`send` reaches the parent). A thread
 * that dies, exits or throws is reported once as died; a snapshot that cannot be read fails the
 * start that wanted it.
 */
export function hostInterpreters(setup: HostSetup, send: (report: HostReport) => void): (request: HostRequest) => void {
  const wasmModule = new WebAssembly.Module(readFileSync(`${setup.indexURL}pyodide.asm.wasm`));
  const threads = new Map<number, Worker>();
  let snapshot: SharedSnapshot | null = null;
  const sharedSnapshot = (file: string) => (snapshot ??= shareSnapshot(readFileSync(file)));
  const died = (id: number, reason: string) => {
    const thread = threads.get(id);
    if (!thread) return;
    threads.delete(id);
    void thread.terminate();
    send({ died: id, reason });
  };
  const start = (id: number, cold: boolean) => {
    if (threads.has(id)) return;
    let restoreFrom: SharedSnapshot | null = null;
    try {
      if (!cold && setup.snapshotFile) restoreFrom = sharedSnapshot(setup.snapshotFile);
    } catch (error) {
      send({ died: id, reason: `the snapshot could not be read (${(error as Error).message})` });
      return;
    }
    const workerData: InterpreterThreadData = {
      indexURL: setup.indexURL,
      wasmModule,
      snapshot: restoreFrom,
      memoryLimitBytes: INTERPRETER_MEMORY_LIMIT_BYTES,
    };
    const thread = new Worker(setup.entry, {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: THREAD_HEAP_MB },
      stdout: true,
      stderr: true,
      env: {},
    });
    threads.set(id, thread);
    thread.stdout.resume();
    thread.stderr.resume();
    thread.on('message', (message: unknown) => {
      if ((message as Record<string, unknown> | null)?.[THREAD_READY] === true) send({ ready: id });
      else send({ from: id, message });
    });
    thread.on('error', (error) => died(id, error.message));
    thread.on('messageerror', () => died(id, 'a message could not be read'));
    thread.on('exit', (code) => died(id, `its thread ended with code ${code}`));
  };
  send({ hostReady: true });
  return (request) => {
    if ('start' in request && typeof request.start === 'number') start(request.start, request.cold === true);
    else if ('kill' in request && typeof request.kill === 'number') {
      const thread = threads.get(request.kill);
      threads.delete(request.kill);
      void thread?.terminate();
    } else if ('to' in request && typeof request.to === 'number') threads.get(request.to)?.postMessage(request.message);
  };
}
