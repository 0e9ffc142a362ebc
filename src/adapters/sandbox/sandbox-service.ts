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

// Where in __main__ an interpreter keeps the code objects of precompileSources, keyed by source text.
const COMPILED = '__spade_compiled__';

interface PyDict {
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  destroy(): void;
}

/**
 * Compiles `sources` once and keeps their code objects in __main__, so that interpreters restored
 * from a memory snapshot taken afterwards run them without compiling (privateFunctions looks them
 * up by text; createSandboxService drops them before the seal).
 */
export function precompileSources(pyodide: PyodideAPI, sources: readonly string[]): void {
  const [makeDict, compile] = ['dict', 'compile'].map((name) => pyodide.globals.get(name) as PyCallable) as [PyCallable, PyCallable];
  const codes = makeDict() as PyDict;
  for (const source of sources) {
    const code = compile(source, '<exec>', 'exec') as PyCallable;
    codes.set(source, code);
    code.destroy();
  }
  pyodide.globals.set(COMPILED, codes);
  for (const proxy of [makeDict, compile, codes]) proxy.destroy();
}

/** Runs `sources` in one fresh private dict (not __main__, not a module) and returns its functions `names`; a source precompiled into the snapshot is not compiled again. */
export function privateFunctions(pyodide: PyodideAPI, sources: readonly string[], names: readonly string[]): PyCallable[] {
  const [makeDict, exec] = ['dict', 'exec'].map((name) => pyodide.globals.get(name) as PyCallable) as [PyCallable, PyCallable];
  const namespace = makeDict() as PyDict;
  const compiled = pyodide.globals.get(COMPILED) as PyDict | undefined;
  for (const source of sources) {
    const code = compiled?.get(source) as PyCallable | undefined;
    if (code) {
      exec(code, namespace);
      code.destroy();
    } else {
      pyodide.runPython(source, { globals: namespace as never });
    }
  }
  for (const proxy of [makeDict, exec, compiled]) proxy?.destroy();
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
  if (pyodide.globals.has(COMPILED)) pyodide.globals.delete(COMPILED);
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
