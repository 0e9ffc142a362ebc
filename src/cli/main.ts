import { createNodeSandboxRuntime } from '../adapters/sandbox/node-sandbox.ts';
import { runCliWithSandbox } from './cli.ts';

// The `spade` command: one command line over the Node sandbox, started only if the command needs it.
process.exitCode = await runCliWithSandbox(
  process.argv.slice(2),
  () => createNodeSandboxRuntime(),
  (line) => process.stdout.write(line + '\n'),
  (text) => process.stderr.write(text),
);
