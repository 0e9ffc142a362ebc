import { constants as fsConstants } from 'node:fs';
import { loadPyodide } from 'pyodide';
import { answerCalls, ipcLine } from '../../src/adapters/sandbox/call-channel.ts';
import { createSandboxService } from '../../src/adapters/sandbox/sandbox-service.ts';
import { SANDBOX_SOURCES } from '../../src/adapters/sandbox/sandbox-sources.ts';

// The sandbox child of workers/sandbox-node.ts (same service, same flags and fence), except that
// each reply also carries the monotonic clock (shared by all processes) when the call reached
// the service and when Python returned, so the bench can split a round trip into its parts.
const host = process as unknown as { binding(name: string): unknown };
const denied = host.binding.bind(host);
host.binding = (name: string) => (name === 'constants' ? { fs: fsConstants } : denied(name));
process.once('disconnect', () => process.exit(70));
const pyodide = await loadPyodide({
  indexURL: process.argv[2],
  jsglobals: Object.create(null),
  stdout: () => undefined,
  stderr: () => undefined,
  stdin: () => null,
});
const service = createSandboxService(pyodide, SANDBOX_SOURCES);
answerCalls(ipcLine(process as never), (request) => {
  const reached = process.hrtime.bigint();
  const reply = service.call(request);
  return JSON.stringify({ reached: String(reached), returned: String(process.hrtime.bigint()), reply });
});
process.send?.({ spadeSandboxReady: true });
