import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { availableParallelism, freemem, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  HOST_DATA_LIMIT_BYTES,
  HostFleet,
  HostLostError,
  START_TIMEOUT_MS,
  type LaunchedHost,
} from './node-interpreter-hosts.ts';
import { PyodideSandboxRuntime, type PyodideRuntimeOptions, type SandboxProcess } from './pyodide-runtime.ts';
import { SANDBOX_DATA_LIMIT_BYTES, sandboxLauncher, withDataLimit, type SandboxLauncher } from './process-fence.ts';
import { bundleWorker } from './worker-bundler.ts';
import { poolSize, TENANTS_PER_INTERPRETER } from './pool-size.ts';

const ENTRY = fileURLToPath(new URL('../../../workers/sandbox-node.ts', import.meta.url));

let bundlePath: Promise<string> | null = null;

/** Directory of the installed pyodide package (its wasm, stdlib and lock file). */
export function pyodideDirectory(): string {
  return dirname(createRequire(import.meta.url).resolve('pyodide/package.json')) + '/';
}

/**
 * The directory the child's bundle and snapshot are kept in: `spade-lab` in the temp directory,
 * shared by this user's processes, when it is this user's and nobody else may write to it (the
 * child runs what is there); otherwise a fresh private directory for this process.
 */
export function privateCacheDirectory(base = tmpdir()): string {
  const dir = join(base, 'spade-lab');
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = statSync(dir);
    if (stat.isDirectory() && stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0) return dir;
  } catch {
    // Not usable: fall through to a private one.
  }
  return mkdtempSync(join(base, 'spade-lab-'));
}

/** Path of the sandbox child's bundled entry (workers/sandbox-node.ts), built once per host process. */
export function nodeWorkerBundle(): Promise<string> {
  bundlePath ??= bundleWorker(ENTRY, 'node').then(keepBundle);
  return bundlePath;
}

// Keeps a bundle in the cache directory under its content hash and returns its path.
function keepBundle(code: string): string {
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 16);
  const file = join(privateCacheDirectory(), `sandbox-node-${hash}.mjs`);
  if (!existsSync(file)) writeAtomically(file, code);
  return file;
}

// Writes through a temporary name, so a concurrent process never reads half a file.
function writeAtomically(file: string, data: string | Uint8Array): void {
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, data, { mode: 0o600 });
  renameSync(partial, file);
}

// Resolves once with why the child is gone. A closed IPC channel, a failed send or a spawn error
// counts as death too: the child is killed, so a sandbox that cannot answer never lingers.
function watchDeath(
  child: ChildProcess,
  stderr: () => string,
): { exited: Promise<string>; lost: (why: string) => void } {
  let settle!: (reason: string) => void;
  const exited = new Promise<string>((resolve) => {
    settle = resolve;
  });
  let lostWhy = '';
  const lost = (why: string) => {
    lostWhy ||= why;
    child.kill('SIGKILL');
  };
  child.once('close', (code, signal) => {
    const tail = stderr().trim().split('\n').pop();
    settle(`${lostWhy ? `${lostWhy}; ` : ''}exit code ${code}, signal ${signal}${tail ? `: ${tail}` : ''}`);
  });
  child.on('disconnect', () => lost('its IPC channel closed'));
  child.on('error', (error) => {
    lost(`process error: ${error.message}`);
    if (child.exitCode === null && child.signalCode === null && child.pid === undefined)
      settle(`it could not start: ${error.message}`);
  });
  return { exited, lost };
}

/** V8's budget before it optimises a WebAssembly function (roughly bytes executed; its default is 1,800,000). */
export const WASM_TIERING_BUDGET = 1_000_000_000;

/**
 * Node flags of the sandbox process: the permission model (read only the bundle and the pyodide
 * package; no writes, subprocesses or addons; worker threads, which hold its interpreters) and no
 * code generation from strings, so a
 * JavaScript object reached from Python cannot be turned into arbitrary code. An environment's
 * interpreter lives briefly, so V8 optimises a WebAssembly function only after a far larger
 * execution budget than its default: an interpreter's start then costs 7-17% less CPU (no
 * optimising of code the start barely runs; 40% when every interpreter was a process of its
 * own), and a compute-heavy call of a tenth of a second runs about as fast (`npm run bench -- boots`).
 */
export function sandboxExecArgv(bundle: string, pyodideDir: string, snapshot: string | null = null): string[] {
  return [
    '--experimental-permission',
    '--allow-worker',
    `--allow-fs-read=${bundle}`,
    `--allow-fs-read=${pyodideDir}`,
    ...(snapshot ? [`--allow-fs-read=${snapshot}`] : []),
    '--disallow-code-generation-from-strings',
    `--wasm-tiering-budget=${WASM_TIERING_BUDGET}`,
    '--no-warnings',
  ];
}

/** How a child's interpreter starts: from the shared snapshot (made on first use), cold, or from a given snapshot file. */
export type SnapshotChoice = 'shared' | 'cold' | { file: string };

/**
 * Starts one Pyodide interpreter in a worker thread of a fenced host process (one with room, else a
 * new one): the host runs under Node's permission model (it may read only its own bundle, the
 * pyodide package and the snapshot, may not write files, spawn processes or load addons, and
 * cannot generate code from strings) and the kernel fences it (see process-fence.ts): no network
 * at all, capped memory, killed with its parent. The thread loses signals and network globals
 * before any environment runs. Calls go over the host's IPC channel with call-channel.ts's
 * protocol; `exited` also resolves when the thread or its host dies. The interpreter is restored
 * from a memory snapshot (see `nodeSandboxSnapshot`) unless `start` says otherwise.
 */
export async function spawnNodeSandbox(
  start: SnapshotChoice = 'shared',
  signal?: AbortSignal,
): Promise<SandboxProcess> {
  const [launcher, bundle] = await Promise.all([sandboxLauncher(), nodeWorkerBundle()]);
  const snapshot =
    start === 'shared' ? await nodeSandboxSnapshot(launcher, bundle) : start === 'cold' ? null : start.file;
  // A start gets one more try: on a new host as it was when its host died under it (killed, or it
  // could not start: never the snapshot's fault, and one host's death fails all its starts at
  // once), else cold; a broken setup fails twice. Shared-snapshot starts that keep failing while
  // cold ones work mean a bad snapshot file: it is made anew.
  try {
    const proc = await startOnHost(launcher, bundle, snapshot, false, signal);
    if (start === 'shared') snapshotFailures = 0;
    return proc;
  } catch (error) {
    if (signal?.aborted) throw error;
    const hostLost = error instanceof HostLostError;
    const proc = await startOnHost(launcher, bundle, snapshot, !hostLost, signal);
    if (!hostLost && start === 'shared' && snapshot && ++snapshotFailures >= SNAPSHOT_FAILURES_BEFORE_REMAKE)
      forgetSnapshot(snapshot);
    return proc;
  }
}

// Host processes by the snapshot file they restore from ('' for cold starts).
const fleets = new Map<string, HostFleet>();

// Starts one interpreter on a host process for `snapshot` (cold when null, or when `cold`).
function startOnHost(
  launcher: SandboxLauncher,
  bundle: string,
  snapshot: string | null,
  cold: boolean,
  signal?: AbortSignal,
): Promise<SandboxProcess> {
  const key = cold ? '' : (snapshot ?? '');
  let fleet = fleets.get(key);
  if (!fleet) {
    fleet = new HostFleet(() =>
      launchChild(launcher, bundle, { snapshot: key || null, dataLimitBytes: HOST_DATA_LIMIT_BYTES }),
    );
    fleets.set(key, fleet);
  }
  return fleet.start(cold || !key, signal);
}

const SNAPSHOT_FAILURES_BEFORE_REMAKE = 3;
let snapshotFailures = 0;
let snapshotFile: Promise<string | null> | null = null;

/**
 * The memory snapshot children start from: a fresh interpreter with the sandbox's modules
 * imported, made once per machine and sandbox build by a fenced child that runs no environment,
 * and kept beside the bundle. A restored child boots in well under half a cold start's time.
 * Null (cold starts) when it cannot be made.
 */
function nodeSandboxSnapshot(launcher: SandboxLauncher, bundle: string): Promise<string | null> {
  snapshotFile ??= snapshotBeside(launcher, bundle);
  return snapshotFile;
}

// The snapshot file kept beside `bundle`, made by one of its children when there is none yet.
async function snapshotBeside(launcher: SandboxLauncher, bundle: string): Promise<string | null> {
  const file = bundle.replace(/\.mjs$/, '.snapshot');
  if (existsSync(file)) return file;
  try {
    writeAtomically(file, await makeSnapshot(launcher, bundle));
    return file;
  } catch {
    return null;
  }
}

/**
 * The bytes of the memory snapshot for the sandbox's current sources (bundled anew on every call,
 * so an edit to seal.py never gets an older snapshot), made by a fenced Node child that runs no
 * environment, or null when it cannot be made. The browser build ships them: its interpreters
 * restore from the same bytes as the CLI's instead of each page making its own.
 */
export async function currentSandboxSnapshot(): Promise<Uint8Array | null> {
  const [launcher, code] = await Promise.all([sandboxLauncher(), bundleWorker(ENTRY, 'node')]);
  const file = await snapshotBeside(launcher, keepBundle(code));
  return file ? readFileSync(file) : null;
}

// Hosts already running hold the old snapshot's bytes: later starts go to hosts that read the new one.
function forgetSnapshot(file: string): void {
  fleets.delete(file);
  snapshotFile = null;
  snapshotFailures = 0;
  rmSync(file, { force: true });
}

async function makeSnapshot(launcher: SandboxLauncher, bundle: string): Promise<Uint8Array> {
  const { child, exited } = launchChild(launcher, bundle, { extra: ['--make-snapshot'], serialization: 'advanced' });
  try {
    return await new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no snapshot within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      child.on('message', (message: unknown) => {
        const bytes = (message as { spadeSnapshot?: unknown } | null)?.spadeSnapshot;
        if (bytes instanceof Uint8Array) {
          clearTimeout(timer);
          resolve(bytes);
        }
      });
      void exited.then((reason) => reject(new Error(`the snapshot child stopped (${reason})`)));
    });
  } finally {
    child.kill('SIGKILL');
  }
}

/** Node flags for a sandbox process, from its bundle, the pyodide directory and the snapshot it may read. */
export type SandboxFlags = (bundle: string, pyodideDir: string, snapshot: string | null) => string[];

/**
 * Launches a fenced host process running `bundle` whose interpreters restore from `snapshot` (cold
 * when null), exactly as every sandbox start does; `flags` replaces the shipped Node flags
 * (benchmarks compare variations of them).
 */
export async function launchSandboxHost(
  bundle: string,
  snapshot: string | null,
  flags: SandboxFlags = sandboxExecArgv,
): Promise<LaunchedHost> {
  return launchChild(await sandboxLauncher(), bundle, { snapshot, dataLimitBytes: HOST_DATA_LIMIT_BYTES, flags });
}

interface ChildOptions {
  /** Arguments after the pyodide directory (the snapshot file itself is added when given). */
  extra?: readonly string[];
  snapshot?: string | null;
  /** The snapshot maker sends its bytes with V8's serializer; a serving child's messages are short JSON (cheaper to send and parse on every step). */
  serialization?: 'json' | 'advanced';
  dataLimitBytes?: number;
  flags?: SandboxFlags;
}

function launchChild(launcher: SandboxLauncher, bundle: string, options: ChildOptions): LaunchedHost {
  const { extra = [], snapshot = null, serialization = 'json', flags = sandboxExecArgv } = options;
  const pyodideDir = pyodideDirectory();
  const node = [
    process.execPath,
    ...flags(bundle, pyodideDir, snapshot),
    bundle,
    pyodideDir,
    ...(snapshot ? [snapshot] : []),
    ...extra,
  ];
  const [command, ...args] = [
    ...withDataLimit(launcher.prefix, options.dataLimitBytes ?? SANDBOX_DATA_LIMIT_BYTES),
    ...node,
  ];
  const child = spawn(command!, args, {
    serialization,
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: {},
  });
  let stderrTail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  return { child, ...watchDeath(child, () => stderrTail) };
}

/**
 * A sandbox runtime whose interpreters are worker threads of fenced, permission-restricted Node
 * host processes (see node-interpreter-hosts.ts), one per environment or play or shared by parked ones (`sharing-pool.ts`), with a booted spare per core and two for hangs (`poolSize`) as far as free
 * memory allows (one until the first environment loads), booted side by side on every core (unless
 * `options` say otherwise).
 */
export function createNodeSandboxRuntime(options: Partial<PyodideRuntimeOptions> = {}): PyodideSandboxRuntime {
  return new PyodideSandboxRuntime((signal) => spawnNodeSandbox('shared', signal), {
    ...poolSize(availableParallelism(), freemem()),
    idleSpares: 1,
    sharedBy: TENANTS_PER_INTERPRETER,
    ...options,
  });
}
