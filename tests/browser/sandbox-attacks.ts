// The attack catalogue of sandbox-isolation-python.test.ts and sandbox-isolation-js.test.ts: the
// hostile Python and the names under which the attackers report each attempt (the tests assert
// every one of them failed).
import { readFileSync } from 'node:fs';

/** The hostile environment that tries every route from Python to JavaScript (fixtures/envs/hostile/js_cutoff.py). */
export const JS_CUTOFF = readFileSync(new URL('../fixtures/envs/hostile/js_cutoff.py', import.meta.url), 'utf8');
/** Modules that would bridge Python to JavaScript or native code; each import must fail. */
export const CUTOFF_IMPORTS = [
  'js',
  'pyodide_js',
  '_pyodide_core',
  'ctypes',
  '_ctypes',
  '_testcapi',
  '_testinternalcapi',
];
/** The other routes js_cutoff.py tries, by the name it reports each under. */
export const CUTOFF_ROUTES = [
  'pyodide.ffi.to_js({}) gives a JS object',
  "BuiltinImporter.find_spec('_pyodide_core')",
  '_imp.create_builtin(_pyodide_core spec)',
  'gc.get_objects()',
  "a fresh gc module's get_objects()",
  'importlib.reload(gc).get_objects()',
  'a finder on sys.meta_path holding jsproxies',
  'construct a JS value from a JS-bridge class',
  'load a compiled extension module (.so)',
];

/** Network attempts the attackers in pages/attack-worker.js and attack-frame.js make, by the name they report. */
export const NETWORK_ATTEMPTS = [
  'fetch(leak server, absolute)',
  'fetch(leak server, no-cors keepalive POST)',
  'fetch(leak host by name, DNS)',
  'fetch(app origin, absolute)',
  'fetch(app-relative /__leak)',
  'XMLHttpRequest async',
  'XMLHttpRequest sync',
  'WebSocket',
  'EventSource',
  'navigator.sendBeacon',
  'importScripts(leak)',
  'import(leak)',
  'FontFace(url(leak)).load()',
  'new Worker(leak url)',
  'nested blob worker fetches leak',
  'WebTransport',
  'navigator.serviceWorker.register',
];

/** Attempts on the app origin's storage the attackers make, by the name they report. */
export const STORAGE_ATTEMPTS = [
  'indexedDB.databases()',
  'indexedDB.open(app db) read marker',
  'indexedDB.open(app db) write pwned',
  'caches.keys()',
  'caches.open(app cache) match marker',
  'caches.open(app cache) put pwned',
  'localStorage',
  'sessionStorage',
  'OPFS navigator.storage.getDirectory() read marker',
  'OPFS write pwned',
];
