import type { PyodideAPI } from 'pyodide';
import { removeBuiltinModules, type InittabMemory } from './seal-inittab.ts';

/** The Python sources a sandbox worker installs: the value encoding, the tool-use base class and the harness, and the seal. */
export interface SandboxSources {
  encoding: string;
  toolUse: string;
  harness: string;
  seal: string;
}

/** What a sandbox worker exposes to its owner: one JSON call, nothing else. */
export interface SandboxService {
  /** Runs one harness request (JSON text) and returns the reply (JSON text). */
  call(request: string): string;
}

/** Characters a reply may have before the worker refuses to send it. */
export function replyLimitFor(maxObservationChars: number): number {
  return maxObservationChars * 12 + 65_536;
}

/** A Python function held from JavaScript; destroy it when done. */
export type PyCallable = ((...args: unknown[]) => unknown) & { destroy(): void };

/** Runs `sources` in one fresh private dict (not __main__, not a module) and returns its functions `names`. */
export function privateFunctions(pyodide: PyodideAPI, sources: readonly string[], names: readonly string[]): PyCallable[] {
  const makeDict = pyodide.globals.get('dict') as PyCallable;
  const namespace = makeDict() as { get(key: string): unknown; destroy(): void };
  makeDict.destroy();
  for (const source of sources) pyodide.runPython(source, { globals: namespace as never });
  const functions = names.map((name) => namespace.get(name) as PyCallable);
  namespace.destroy();
  return functions;
}

/**
 * Installs the harness into a freshly loaded Pyodide and warms it up on a typical environment,
 * then seals the interpreter (seal.py and the builtin-table patch) so Python can no longer reach
 * JavaScript, and returns the service the worker exposes. Nothing but the harness entry is called
 * afterwards.
 */
export function createSandboxService(pyodide: PyodideAPI, sources: SandboxSources): SandboxService {
  const [entry, warmUp] = privateFunctions(pyodide, [sources.encoding, sources.toolUse, sources.harness], ['spade_harness_call', 'spade_warm_up']) as [PyCallable, PyCallable];
  const [blocked, seal] = privateFunctions(pyodide, [sources.seal], ['blocked_builtins', 'seal']) as [PyCallable, PyCallable];
  warmUp();
  warmUp.destroy();
  removeBuiltinModules((pyodide as unknown as { _module: InittabMemory })._module, new Set(String(blocked()).split(',')));
  seal();
  blocked.destroy();
  seal.destroy();
  return {
    call(request: string): string {
      const limit = replyLimitFor(readMaxChars(request));
      const reply = entry(request);
      if (typeof reply !== 'string') {
        return JSON.stringify({ ok: false, error: 'exception', type: 'HarnessError', msg: 'harness returned a non-string' });
      }
      if (reply.length > limit) {
        return JSON.stringify({ ok: false, error: 'too_large', what: 'reply', size: reply.length, limit });
      }
      return reply;
    },
  };
}

function readMaxChars(request: string): number {
  try {
    const value = (JSON.parse(request) as { maxChars?: unknown }).maxChars;
    return typeof value === 'number' && value > 0 ? value : 100_000;
  } catch {
    return 100_000;
  }
}
