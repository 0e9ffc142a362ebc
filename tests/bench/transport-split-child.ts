import { constants as fsConstants } from 'node:fs';
import { loadPyodide } from 'pyodide';
import { answerCalls, ipcLine } from '../../src/adapters/sandbox/call-channel.ts';
import { createSandboxService } from '../../src/adapters/sandbox/sandbox-service.ts';
import harnessSource from '../../src/adapters/sandbox/harness.py';
import sealSource from '../../src/adapters/sandbox/seal.py';
import encodingSource from '../../src/adapters/sandbox/encoding.py';
import toolUseSource from '../../src/adapters/sandbox/tool_use_env.py';

// The sandbox child of workers/sandbox-node.ts (same service, same flags and fence), except that
// each reply also carries the monotonic clock (shared by all processes) when the call reached
// the service and when Python returned, so the bench can split a round trip into its parts.
const host = process as unknown as { binding(name: string): unknown };
const denied = host.binding.bind(host);
host.binding = (name: string) => (name === 'constants' ? { fs: fsConstants } : denied(name));
process.once('disconnect', () => process.exit(70));
const pyodide = await loadPyodide({ indexURL: process.argv[2], jsglobals: Object.create(null), stdout: () => undefined, stderr: () => undefined, stdin: () => null });
const service = createSandboxService(pyodide, { encoding: encodingSource, toolUse: toolUseSource, harness: harnessSource, seal: sealSource });
answerCalls(ipcLine(process as never), (request) => {
  const reached = process.hrtime.bigint();
  const reply = service.call(request);
  return JSON.stringify({ reached: String(reached), returned: String(process.hrtime.bigint()), reply });
});
process.send?.({ spadeSandboxReady: true });
