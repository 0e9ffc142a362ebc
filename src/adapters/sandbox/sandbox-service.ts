import type { PyodideAPI } from 'pyodide';
import { removeBuiltinModules, type InittabMemory } from './seal-inittab.ts';
import { MemoryImage, type InterpreterModule, type PageDiff } from './memory-image.ts';

/** The Python sources a sandbox worker installs: the value encoding, the tool-use base class and the harness, and the seal. */
export interface SandboxSources {
  encoding: string;
  toolUse: string;
  harness: string;
  seal: string;
}

/** What a sandbox worker exposes to its owner: one JSON call, nothing else. */
export interface SandboxService {
  /** Runs one harness request (JSON text) and returns the reply (JSON text); `RECYCLE_REQUEST` restores the interpreter instead. */
  call(request: string): string;
}

/** The request that restores a sandbox's interpreter to its sealed state (see MemoryImage); the reply is `{"ok":true}` or `{"ok":false,"why":...}`. */
export const RECYCLE_REQUEST = '{"op":"recycle"}';

/**
 * The request that lets the next environment into an interpreter: the one in its memory set aside
 * first when `park` (its differing pages kept outside memory), then the one parked in `next.slot`
 * written back, or a new one started with `random` seeded from `next.seed` (a decimal integer).
 * The reply is `{"ok":true,"parked":n}` (`n` the slot the set-aside one is kept in, or null) or
 * `{"ok":false,"why":...,"parked":n}` (nothing was set aside when `n` is absent).
 */
export function switchRequest(park: boolean, next: { slot: number } | { seed: string }): string {
  return JSON.stringify({ op: 'switch', park, ...next });
}

/** The request that forgets the environment parked in `slot`; the reply is `{"ok":true}`. */
export function dropRequest(slot: number): string {
  return `{"op":"drop","slot":${slot}}`;
}

// Seeds `random`: from fresh entropy without a seed (a restored image holds the state drawn before it was taken).
const RESEED = 'import random\ndef spade_reseed(seed=None):\n    random.seed(None if seed is None else int(seed))\n';

// Most bytes the environments parked in one interpreter may hold together (a typical one changes a
// few MB): an environment whose state would not fit keeps the interpreter to itself instead.
const PARKED_LIMIT_BYTES = 128 * 2 ** 20;

// The memory requests a host sends, which never reach Python's harness.
const MEMORY_OPS = /^\{"op":"(switch|drop)"/;

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
  const [makeDict, compile] = ['dict', 'compile'].map((name) => pyodide.globals.get(name) as PyCallable) as [
    PyCallable,
    PyCallable,
  ];
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
export function privateFunctions(
  pyodide: PyodideAPI,
  sources: readonly string[],
  names: readonly string[],
): PyCallable[] {
  const [makeDict, exec] = ['dict', 'exec'].map((name) => pyodide.globals.get(name) as PyCallable) as [
    PyCallable,
    PyCallable,
  ];
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
 * afterwards, and `RECYCLE_REQUEST`, which writes back the memory image taken right after the seal
 * (then draws fresh entropy for `random`), so one process serves environment after environment,
 * each finding the interpreter exactly as sealed.
 */
export function createSandboxService(pyodide: PyodideAPI, sources: SandboxSources): SandboxService {
  const [entry, warmUp] = privateFunctions(
    pyodide,
    [sources.encoding, sources.toolUse, sources.harness],
    ['spade_harness_call', 'spade_warm_up'],
  ) as [PyCallable, PyCallable];
  const [blocked, seal] = privateFunctions(pyodide, [sources.seal], ['blocked_builtins', 'seal']) as [
    PyCallable,
    PyCallable,
  ];
  const [reseed] = privateFunctions(pyodide, [RESEED], ['spade_reseed']) as [PyCallable];
  if (pyodide.globals.has(COMPILED)) pyodide.globals.delete(COMPILED);
  warmUp();
  warmUp.destroy();
  removeBuiltinModules(
    (pyodide as unknown as { _module: InittabMemory })._module,
    new Set(String(blocked()).split(',')),
  );
  seal();
  blocked.destroy();
  seal.destroy();
  const image = MemoryImage.capture((pyodide as unknown as { _module: InterpreterModule })._module);
  // A reply that was not text, or a call that threw, may have left JavaScript holding a Python
  // object made after the image was taken: such an interpreter is never restored.
  let tainted = false;
  const recycle = (): string => {
    const why = tainted ? 'a harness call did not return text' : image.restore();
    if (why) return refusedReply(why);
    reseed();
    return '{"ok":true}';
  };
  const memory = parkingPlace(image, () => tainted, reseed);
  return {
    call(request: string): string {
      if (request === RECYCLE_REQUEST) {
        const reply = recycle();
        memory.leftSealed(reply === '{"ok":true}');
        return reply;
      }
      if (MEMORY_OPS.test(request)) return memory.call(request);
      memory.leftSealed(false);
      const limit = replyLimitFor(readMaxChars(request));
      let reply: unknown;
      try {
        reply = entry(request);
      } catch (error) {
        tainted = true;
        throw error;
      }
      if (typeof reply !== 'string') {
        tainted = true;
        (reply as { destroy?: () => void } | null)?.destroy?.();
        return JSON.stringify({
          ok: false,
          error: 'exception',
          type: 'HarnessError',
          msg: 'harness returned a non-string',
        });
      }
      if (reply.length > limit) {
        return JSON.stringify({ ok: false, error: 'too_large', what: 'reply', size: reply.length, limit });
      }
      return reply;
    },
  };
}

/** The service's reply to a memory request it refused, saying why. */
export function refusedReply(why: string): string {
  return JSON.stringify({ ok: false, why });
}

// Environments parked in one interpreter (their pages held in this worker, outside the
// interpreter's memory) and whether the memory is now exactly the sealed image.
function parkingPlace(image: MemoryImage, tainted: () => boolean, reseed: PyCallable) {
  const parked = new Map<number, PageDiff>();
  let nextSlot = 1;
  let sealed = true;
  let parkedBytes = 0;
  // The slot the environment in memory is now kept in, or why it could not be set aside.
  const parkResident = (): number | string => {
    const diff = tainted() ? 'a harness call did not return text' : image.diff(PARKED_LIMIT_BYTES - parkedBytes);
    if (typeof diff === 'string') return diff;
    image.revert(diff);
    sealed = true;
    parked.set(nextSlot, diff);
    parkedBytes += diff.bytes.length;
    return nextSlot++;
  };
  const forget = (slot: number): PageDiff | undefined => {
    const diff = parked.get(slot);
    parked.delete(slot);
    parkedBytes -= diff?.bytes.length ?? 0;
    return diff;
  };
  // Writes back the environment parked in `slot`, or says why not.
  const resume = (slot: number): string | null => {
    const diff = parked.get(slot);
    if (!diff) return `nothing is parked in slot ${slot}`;
    const why = image.apply(diff);
    if (why) return why;
    forget(slot);
    return null;
  };
  // Starts a new environment: `random` seeded from `seed`, or says why not.
  const begin = (seed: unknown): string | null => {
    if (typeof seed !== 'string' || !/^\d{1,80}$/.test(seed)) return 'the seed is not a decimal integer';
    reseed(seed);
    return null;
  };
  const switchTo = (park: boolean, slot: unknown, seed: unknown): string => {
    const setAside = park ? parkResident() : null;
    if (typeof setAside === 'string') return refusedReply(setAside);
    const why = !sealed
      ? 'another environment is in the memory'
      : typeof slot === 'number'
        ? resume(slot)
        : begin(seed);
    if (why) return JSON.stringify({ ok: false, why, parked: setAside });
    sealed = false;
    return JSON.stringify({ ok: true, parked: setAside });
  };
  return {
    /** Notes a call that left the memory as sealed (a restore) or not (a harness call, a refused restore). */
    leftSealed(now: boolean): void {
      sealed = now;
    },
    /** Answers one memory request. */
    call(request: string): string {
      const { op, park, slot, seed } = JSON.parse(request) as {
        op: string;
        park?: unknown;
        slot?: unknown;
        seed?: unknown;
      };
      if (op === 'switch') return switchTo(park === true, slot, seed);
      forget(Number(slot));
      return '{"ok":true}';
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
