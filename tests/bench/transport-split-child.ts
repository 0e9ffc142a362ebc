import { isMainThread, parentPort, workerData, type MessagePort } from 'node:worker_threads';
import {
  hostInterpreters,
  type HostReport,
  type HostRequest,
} from '../../src/adapters/sandbox/node-interpreter-host.ts';
import {
  serveInterpreterThread,
  type InterpreterThreadData,
} from '../../src/adapters/sandbox/node-interpreter-thread.ts';

// The sandbox host of workers/sandbox-node.ts (the product's host and thread code, run with the
// same flags and fence), except that the monotonic clock (shared by all threads and processes)
// is read where a step crosses a boundary: the host stamps when a request reached it and when the
// reply came back from the thread; the thread stamps when the request reached it and when its
// service's reply was ready. The stamps ride on the reply (extra array items and report fields,
// which the product's call protocol and host ignore), so the bench can split a round trip.
const now = () => String(process.hrtime.bigint());

if (!isMainThread) {
  const port = parentPort!;
  let reached = '';
  const timedPort = {
    addEventListener(_type: 'message', listener: (event: { data: unknown }) => void) {
      port.on('message', (data: unknown) => {
        reached = now();
        listener({ data });
      });
    },
    postMessage(message: unknown) {
      port.postMessage(Array.isArray(message) ? [...message, reached, now()] : message);
    },
  };
  await serveInterpreterThread(timedPort as unknown as MessagePort, workerData as InterpreterThreadData);
} else {
  process.once('disconnect', () => process.exit(70));
  const [indexURL, snapshotFile] = process.argv.slice(2);
  let hostReached = '';
  const receive = hostInterpreters(
    { entry: new URL(import.meta.url), indexURL: indexURL!, snapshotFile: snapshotFile ?? null },
    (report: HostReport) => process.send?.('from' in report ? { ...report, hostReached, hostReturned: now() } : report),
  );
  process.on('message', (request) => {
    hostReached = now();
    receive(request as HostRequest);
  });
}
