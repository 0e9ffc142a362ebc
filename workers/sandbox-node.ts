import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { loadPyodide } from 'pyodide';
import { hostInterpreters, type HostRequest } from '../src/adapters/sandbox/node-interpreter-host.ts';
import {
  allowFsConstants,
  NODE_PYODIDE_SETTINGS,
  serveInterpreterThread,
  type InterpreterThreadData,
} from '../src/adapters/sandbox/node-interpreter-thread.ts';
import { makeSandboxSnapshot } from '../src/adapters/sandbox/pyodide-snapshot.ts';
import { SANDBOX_SOURCES } from '../src/adapters/sandbox/sandbox-sources.ts';

// One bundle, three roles. In a worker thread: one interpreter (see node-interpreter-thread.ts).
// In the fenced process, argv: the pyodide directory, then either a snapshot file the threads
// restore from, nothing (cold starts), or --make-snapshot (send the parent a snapshot of a fresh
// interpreter and leave; no environment runs).
if (!isMainThread) {
  await serveInterpreterThread(parentPort!, workerData as InterpreterThreadData);
} else {
  // Watchdog: leave as soon as the parent's IPC channel closes (the parent died or gave up on us);
  // the kernel's parent-death signal covers the rest.
  const leave = process.exit.bind(process);
  process.once('disconnect', () => leave(70));
  const [indexURL, snapshotArg] = process.argv.slice(2);
  if (snapshotArg === '--make-snapshot') await sendSnapshot(indexURL!);
  else {
    const receive = hostInterpreters(
      {
        entry: new URL(import.meta.url),
        indexURL: indexURL!,
        snapshotFile: snapshotArg ?? null,
      },
      (report) => process.send?.(report),
    );
    process.on('message', (request) => receive(request as HostRequest));
  }

  async function sendSnapshot(indexURL: string): Promise<void> {
    allowFsConstants();
    const pyodide = await loadPyodide({ indexURL, ...NODE_PYODIDE_SETTINGS, _makeSnapshot: true });
    process.send?.({ spadeSnapshot: makeSandboxSnapshot(pyodide, SANDBOX_SOURCES) }, () => leave(0));
  }
}
