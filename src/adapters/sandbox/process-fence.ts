import { execFile } from 'node:child_process';
import { accessSync, constants, readlinkSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/** Set to `1` to let the Node sandbox start without the kernel fence where it cannot be set up (a warning is printed). */
export const UNFENCED_ENV = 'SPADE_UNFENCED_SANDBOX';

/** Writable memory (RLIMIT_DATA) budgeted per interpreter, and the cap of the process that makes the snapshot; Pyodide starts in about 240 MB of it. */
export const SANDBOX_DATA_LIMIT_BYTES = 1024 * 1024 * 1024;

/** The sandbox cannot be fenced on this machine and the opt-out is not set; code `sandbox_unfenced`. */
export class SandboxFenceError extends Error {
  override readonly name = 'SandboxFenceError';
  /** Stable code of this failure. */
  readonly code = 'sandbox_unfenced';
}

/** How sandbox processes start: the words put before `node`, and which fence they set up. */
export interface SandboxLauncher {
  /** Command words before the node executable; empty when unfenced. */
  readonly prefix: readonly string[];
  /** `netns`: a new network namespace (root); `userns`: a new user and network namespace; `unfenced`: none. */
  readonly fence: 'netns' | 'userns' | 'unfenced';
}

/** The namespace variants tried, in order: a network namespace as root, else a user plus network namespace. */
export const FENCE_NAMESPACES: ReadonlyArray<{ fence: 'netns' | 'userns'; flags: string[] }> = [
  { fence: 'netns', flags: ['--net'] },
  { fence: 'userns', flags: ['--user', '--map-root-user', '--net'] },
];

/** Full path of executable `name` on `path` (a PATH value), or null. */
export function findExecutable(name: string, path: string): string | null {
  for (const dir of path.split(delimiter).filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // not in this directory
    }
  }
  return null;
}

/**
 * The fenced prefix for one namespace variant: a fresh network namespace (no interface but a
 * down loopback), SIGKILL when the parent dies, no new privileges or capabilities, writable
 * memory capped and no core dumps. Each tool execs the next, so the node process keeps the pid
 * and the IPC descriptor of the spawned child.
 */
export function fencePrefix(
  tools: { unshare: string; setpriv: string; prlimit: string },
  namespaceFlags: readonly string[],
  dataLimitBytes = SANDBOX_DATA_LIMIT_BYTES,
): string[] {
  return [
    tools.unshare,
    ...namespaceFlags,
    '--',
    tools.setpriv,
    '--pdeathsig',
    'KILL',
    '--no-new-privs',
    '--inh-caps=-all',
    '--bounding-set=-all',
    '--',
    tools.prlimit,
    `--data=${dataLimitBytes}`,
    '--core=0',
    '--',
  ];
}

/** The fence prefix with its memory cap (RLIMIT_DATA) set to `bytes` instead; an unfenced (empty) prefix stays empty. */
export function withDataLimit(prefix: readonly string[], bytes: number): string[] {
  return prefix.map((word) => (word.startsWith('--data=') ? `--data=${bytes}` : word));
}

function run(command: string, args: string[]): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(command, args, { env: {}, timeout: 10_000 }, (error, stdout, stderr) =>
      resolve({ ok: !error, stdout, stderr }),
    );
  });
}

// Starts `node` through the prefix and checks it really landed in another network namespace.
async function probe(prefix: string[]): Promise<string | null> {
  const [command, ...rest] = prefix;
  const script = "process.stdout.write(require('node:fs').readlinkSync('/proc/self/ns/net'))";
  const result = await run(command!, [...rest, process.execPath, '-e', script]);
  if (!result.ok) return result.stderr.trim().split('\n').pop() || 'it failed';
  return result.stdout === readlinkSync('/proc/self/ns/net') ? 'the child stayed in the host network namespace' : null;
}

async function detect(): Promise<SandboxLauncher> {
  const path = process.env.PATH ?? '';
  const tools = {
    unshare: findExecutable('unshare', path),
    setpriv: findExecutable('setpriv', path),
    prlimit: findExecutable('prlimit', path),
  };
  const missing = Object.entries(tools)
    .filter(([, file]) => !file)
    .map(([name]) => name);
  const problems: string[] = [];
  if (process.platform !== 'linux') problems.push(`this is ${process.platform}, not Linux`);
  else if (missing.length > 0) problems.push(`util-linux ${missing.join(', ')} not found on PATH`);
  else {
    for (const { fence, flags } of FENCE_NAMESPACES) {
      const prefix = fencePrefix(tools as { unshare: string; setpriv: string; prlimit: string }, flags);
      const problem = await probe(prefix);
      if (problem === null) return { prefix, fence };
      problems.push(`unshare ${flags.join(' ')}: ${problem}`);
    }
  }
  if (process.env[UNFENCED_ENV] === '1') {
    process.stderr.write(
      `spade: warning: ${UNFENCED_ENV}=1: the Python sandbox runs WITHOUT a network fence, memory cap or parent-death kill (${problems.join('; ')})\n`,
    );
    return { prefix: [], fence: 'unfenced' };
  }
  throw new SandboxFenceError(
    `Cannot fence the Python sandbox off the network: ${problems.join('; ')}. It needs Linux with util-linux unshare, setpriv and prlimit, run as root or with unprivileged user namespaces enabled. To run without the fence anyway (generated code could then open network connections), set ${UNFENCED_ENV}=1.`,
  );
}

let launcher: Promise<SandboxLauncher> | null = null;

/** The launcher for sandbox processes, detected once per host process; rejects with SandboxFenceError. */
export function sandboxLauncher(): Promise<SandboxLauncher> {
  launcher ??= detect();
  return launcher;
}
