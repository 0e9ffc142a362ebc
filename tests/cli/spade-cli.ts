// Two ways to run `spade` in tests: in-process through runCli with one Node sandbox runtime per
// test file (fast), and as a real subprocess (what users run; one smoke test per command).
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { afterAll } from 'vitest';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { runCli } from '../../src/cli/cli.ts';

/** The project root, where `src/cli/main.ts` lives. */
export const ROOT = resolve(import.meta.dirname, '../..');

/** What one `spade` command line gave. */
export interface SpadeResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `spade` as a subprocess (`npx tsx src/cli/main.ts`), as a user would. */
export function spadeSubprocess(...args: string[]): SpadeResult {
  const result = spawnSync('npx', ['tsx', 'src/cli/main.ts', ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 180_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Returns an in-process `spade` whose commands share one Node sandbox runtime, closed after the calling test file. */
export function inProcessSpade(): (...args: string[]) => Promise<SpadeResult> {
  let runtime: PyodideSandboxRuntime | null = null;
  afterAll(() => runtime?.close());
  return async (...args) => {
    const out: string[] = [];
    let stderr = '';
    const status = await runCli(args, {
      runtime: () => (runtime ??= createNodeSandboxRuntime()),
      out: (line) => out.push(line + '\n'),
      err: (text) => (stderr += text),
    });
    return { status, stdout: out.join(''), stderr };
  };
}
