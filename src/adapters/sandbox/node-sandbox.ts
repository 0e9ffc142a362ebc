import { fork, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { wrap, type Remote } from 'comlink';
import { ipcEndpoint } from './ipc-endpoint.ts';
import type { SandboxService } from './sandbox-service.ts';
import { PyodideSandboxRuntime, type PyodideRuntimeOptions, type SandboxProcess } from './pyodide-runtime.ts';
import { bundleWorker } from './worker-bundler.ts';

const ENTRY = fileURLToPath(new URL('../../../workers/sandbox-node.ts', import.meta.url));
const SPAWN_TIMEOUT_MS = 60_000;

let bundlePath: Promise<string> | null = null;

/** Directory of the installed pyodide package (its wasm, stdlib and lock file). */
export function pyodideDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve('pyodide/package.json')) + '/';
}

function nodeWorkerBundle(): Promise<string> {
  bundlePath ??= bundleWorker(ENTRY, 'node').then((code) => {
    const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
    const dir = join(tmpdir(), 'spade-lab');
    const file = join(dir, `sandbox-node-${hash}.mjs`);
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(file, code);
    }
    return file;
  });
  return bundlePath;
}

function waitForReady(child: ChildProcess, stderr: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`did not start within ${SPAWN_TIMEOUT_MS} ms`), SPAWN_TIMEOUT_MS);
    const onMessage = (message: unknown) => {
      if ((message as { spadeSandboxReady?: boolean } | null)?.spadeSandboxReady) {
        cleanup();
        resolve();
      }
    };
    const onExit = (code: number | null, signal: string | null) => fail(`exited during start (code ${code}, signal ${signal}): ${stderr()}`);
    const cleanup = () => {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    };
    function fail(reason: string) {
      cleanup();
      child.kill('SIGKILL');
      reject(new Error(`Python sandbox ${reason}`));
    }
    child.on('message', onMessage);
    child.on('exit', onExit);
  });
}

/**
 * Node flags of the sandbox process: the permission model (read only the bundle and the pyodide
 * package; no writes, subprocesses, workers or addons) and no code generation from strings, so a
 * JavaScript object reached from Python cannot be turned into arbitrary code.
 */
export function sandboxExecArgv(bundle: string, pyodideDir: string): string[] {
  return [
    '--experimental-permission',
    `--allow-fs-read=${bundle}`,
    `--allow-fs-read=${pyodideDir}`,
    '--disallow-code-generation-from-strings',
    '--no-warnings',
  ];
}

/**
 * Starts Pyodide in a child Node process under Node's permission model: it may read only its
 * own bundle and the pyodide package, may not write files, spawn processes or start workers, and
 * cannot generate code from strings; signals and network globals are removed after start-up (Node
 * 20's permission model does not cover them). Talks over IPC via comlink.
 */
export async function spawnNodeSandbox(): Promise<SandboxProcess> {
  const bundle = await nodeWorkerBundle();
  const pyodideDir = pyodideDirectory();
  const child = fork(bundle, [pyodideDir], {
    execArgv: sandboxExecArgv(bundle, pyodideDir),
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: {},
  });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  const exited = new Promise<string>((resolve) => {
    child.once('exit', (code, signal) => resolve(`exit code ${code}, signal ${signal}${stderrTail ? `: ${stderrTail.trim().split('\n').pop()}` : ''}`));
  });
  await waitForReady(child, () => stderrTail);
  const api: Remote<SandboxService> = wrap<SandboxService>(ipcEndpoint(child));
  return {
    call: (request) => api.call(request),
    kill: () => {
      child.kill('SIGKILL');
    },
    exited,
  };
}

/** A sandbox runtime whose sandboxes are permission-restricted Node child processes. */
export function createNodeSandboxRuntime(options: Partial<PyodideRuntimeOptions> = {}): PyodideSandboxRuntime {
  return new PyodideSandboxRuntime(spawnNodeSandbox, options);
}
