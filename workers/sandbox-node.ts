import { constants as fsConstants } from 'node:fs';
import { expose } from 'comlink';
import { loadPyodide } from 'pyodide';
import { ipcEndpoint } from '../src/adapters/sandbox/ipc-endpoint.ts';
import { createSandboxService } from '../src/adapters/sandbox/sandbox-service.ts';
import harnessSource from '../src/adapters/sandbox/harness.py';

// Emscripten's NODEFS reads fs constants through process.binding, which the permission model denies.
const host = process as unknown as { binding(name: string): unknown };
const denied = host.binding.bind(host);
host.binding = (name: string) => (name === 'constants' ? { fs: fsConstants } : denied(name));

const indexURL = process.argv[2];
const pyodide = await loadPyodide({
  indexURL,
  jsglobals: Object.create(null),
  stdout: () => undefined,
  stderr: () => undefined,
  stdin: () => null,
});
expose(createSandboxService(pyodide, harnessSource), ipcEndpoint(process as never));
process.send?.({ spadeSandboxReady: true });
