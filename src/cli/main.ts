import { createNodeSandboxRuntime } from '../adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../adapters/sandbox/pyodide-runtime.ts';
import { runCli } from './cli.ts';

// The `spade` command: one command line over the Node sandbox, started only if the command needs it.
let runtime: PyodideSandboxRuntime | null = null;
try {
  process.exitCode = await runCli(process.argv.slice(2), {
    runtime: () => (runtime ??= createNodeSandboxRuntime()),
    out: (line) => process.stdout.write(line + '\n'),
    err: (text) => process.stderr.write(text),
  });
} finally {
  await (runtime as PyodideSandboxRuntime | null)?.close();
}
