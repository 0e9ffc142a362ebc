import type { PyodideAPI } from 'pyodide';
import { precompileSources, privateFunctions, type PyCallable, type SandboxSources } from './sandbox-service.ts';

// Imported before the snapshot is taken, so a restored interpreter starts with them loaded: the
// harness's prelude and the seal's own imports. The seal's open builtin modules are imported too
// (seal.py's import_open_builtins, the same list the seal imports on a cold start); a blocked one
// is never imported here, or it would outlive the seal.
const PRELOAD = `
import asyncio.events, builtins, collections, copy, functools, gc, heapq, itertools, json, math, operator
import random, re, statistics, string, traceback, typing, _imp, _json
`;

/**
 * Takes a memory snapshot of a freshly loaded Pyodide (loaded with `_makeSnapshot: true`) after
 * importing what every sandbox needs and compiling the sandbox's own sources (see
 * precompileSources). Call it before any environment code ran in that interpreter: every later
 * interpreter starts from these bytes.
 */
export function makeSandboxSnapshot(pyodide: PyodideAPI, sources: SandboxSources): Uint8Array {
  pyodide.runPython(PRELOAD);
  precompileSources(pyodide, [sources.encoding, sources.toolUse, sources.harness, sources.seal]);
  const [importOpenBuiltins] = privateFunctions(pyodide, [sources.seal], ['import_open_builtins']) as [PyCallable];
  importOpenBuiltins();
  importOpenBuiltins.destroy();
  return pyodide.makeMemorySnapshot();
}

/**
 * Gives an interpreter restored from a snapshot what a fresh start would have given it: its own
 * entropy for the `random` module (the snapshot froze the state drawn when it was taken).
 */
export function freshenRestoredInterpreter(pyodide: PyodideAPI): void {
  pyodide.runPython('import random\nrandom.seed()');
}

/**
 * Lets go of the snapshot bytes an interpreter was restored from: Pyodide keeps its settings, and
 * with them the 31 MB it was given, for as long as the interpreter lives.
 */
export function forgetSnapshotBytes(pyodide: PyodideAPI): void {
  const settings = (pyodide as unknown as { _api?: { config?: Record<string, unknown> } })._api?.config;
  if (settings) Reflect.deleteProperty(settings, '_loadSnapshot');
}
