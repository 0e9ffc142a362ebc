// Starts a Node sandbox host process the way node-sandbox.ts does (the fence, its memory cap for
// eight interpreters, the permission flags, JSON over IPC, an empty environment), but with the
// bundle and flags a bench chooses, and hands it back in the shape InterpreterHost takes.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { HOST_DATA_LIMIT_BYTES, type LaunchedHost } from '../../src/adapters/sandbox/node-interpreter-hosts.ts';
import { pyodideDirectory } from '../../src/adapters/sandbox/node-sandbox.ts';
import { sandboxLauncher, withDataLimit } from '../../src/adapters/sandbox/process-fence.ts';

/** Node flags a bench host starts with: the shipped ones (`sandboxExecArgv`) or a variation of them. */
export type HostFlags = (bundle: string, pyodideDir: string, snapshot: string | null) => string[];

/** Launches a fenced host process running `bundle` (restoring its interpreters from `snapshot`, or cold when null). */
export async function launchBenchHost(
  bundle: string,
  snapshot: string | null,
  flags: HostFlags,
): Promise<LaunchedHost> {
  const launcher = await sandboxLauncher();
  const pyodideDir = pyodideDirectory();
  const [command, ...args] = [
    ...withDataLimit(launcher.prefix, HOST_DATA_LIMIT_BYTES),
    process.execPath,
    ...flags(bundle, pyodideDir, snapshot),
    bundle,
    pyodideDir,
    ...(snapshot ? [snapshot] : []),
  ];
  const child = spawn(command!, args, { serialization: 'json', stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: {} });
  const exited = new Promise<string>((resolve) =>
    child.once('close', (code, signal) => resolve(`exit code ${code}, signal ${signal}`)),
  );
  return { child, exited, lost: () => child.kill('SIGKILL') };
}

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds a live process has used so far, all its threads (ended ones too) included. */
export function processCpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // After the command name: state is field 3, utime field 14, stime field 15 (1-based, proc(5)).
  return (Number(fields[14 - 3]) + Number(fields[15 - 3])) / TICKS_PER_SECOND;
}

/** User + system CPU seconds of this process's children that have exited and been reaped. */
export function reapedChildrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // cutime is field 16, cstime field 17.
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / TICKS_PER_SECOND;
}
