import { constants as fsConstants, readFileSync } from 'node:fs';
import { loadPyodide } from 'pyodide';
import { answerCalls, ipcLine } from '../src/adapters/sandbox/call-channel.ts';
import { createSandboxService } from '../src/adapters/sandbox/sandbox-service.ts';
import { freshenRestoredInterpreter, makeSandboxSnapshot } from '../src/adapters/sandbox/pyodide-snapshot.ts';
import { SANDBOX_SOURCES } from '../src/adapters/sandbox/sandbox-sources.ts';

// Watchdog: leave as soon as the host's IPC channel closes (the host died or gave up on us);
// the kernel's parent-death signal covers the case where Python keeps the event loop busy.
const leave = process.exit.bind(process);
process.once('disconnect', () => leave(70));

// Emscripten's NODEFS reads fs constants through process.binding, which the permission model denies.
const host = process as unknown as { binding(name: string): unknown };
const denied = host.binding.bind(host);
host.binding = (name: string) => (name === 'constants' ? { fs: fsConstants } : denied(name));

// argv: the pyodide directory, then either nothing, a snapshot file to start from, or
// --make-snapshot (send the host a snapshot of a fresh interpreter and leave; no environment runs).
const [indexURL, snapshotArg] = process.argv.slice(2);
const making = snapshotArg === '--make-snapshot';
const pyodide = await loadPyodide({
  indexURL,
  jsglobals: Object.create(null),
  stdout: () => undefined,
  stderr: () => undefined,
  stdin: () => null,
  // os.environ: Pyodide's defaults, but Emscripten's `_` (this bundle's path in the host's temp folder, with its build hash) given a neutral name, and LANG fixed (else the host's locale where Node has navigator.language).
  env: { HOME: '/home/pyodide', LANG: 'C.UTF-8', _: 'python' },
  ...(making ? { _makeSnapshot: true } : snapshotArg ? { _loadSnapshot: readFileSync(snapshotArg) } : {}),
});
if (making) {
  process.send?.({ spadeSnapshot: makeSandboxSnapshot(pyodide, SANDBOX_SOURCES) }, () => leave(0));
} else {
  if (snapshotArg) freshenRestoredInterpreter(pyodide);
  serve();
}

function serve(): void {
  // Node 20's permission model does not cover signals or the network: take those away before any
  // environment runs (the host kills this process with a signal of its own).
  const noAccess = () => {
    throw Object.assign(new Error('not available in the SPADE sandbox'), { code: 'ERR_ACCESS_DENIED' });
  };
  Object.assign(process, { kill: noAccess, _kill: noAccess, dlopen: noAccess });
  for (const name of ['fetch', 'WebSocket', 'EventSource', 'Request', 'Response', 'Headers', 'FormData']) {
    Reflect.deleteProperty(globalThis, name);
  }
  const service = createSandboxService(pyodide, SANDBOX_SOURCES);
  answerCalls(ipcLine(process as never), (request) => service.call(request));
  process.send?.({ spadeSandboxReady: true });
}
