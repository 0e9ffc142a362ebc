// What V8's WebAssembly tiering costs a sandbox interpreter: real Node sandbox children (the
// shipped bundle, flags, fence and shared snapshot) started with the shipped tiering budget and
// with V8's default, alternating; each start's CPU (the child's, read from this process's
// reaped-children times) and wall time; then a compute-heavy Python call, made again and again
// in a plain Pyodide with each setting.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  nodeWorkerBundle,
  pyodideDirectory,
  sandboxExecArgv,
  spawnNodeSandbox,
  WASM_TIERING_BUDGET,
} from '../../src/adapters/sandbox/node-sandbox.ts';
import { sandboxLauncher } from '../../src/adapters/sandbox/process-fence.ts';

/** Start figures of one tiering setting. */
export interface TieringFigures {
  /** Median wall time from spawn to ready, in milliseconds. */
  startMs: number;
  /** CPU seconds one start costs the machine (user + system of the child and its threads). */
  cpuSecondsEach: number;
}

const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of this process's children that have exited and been reaped. */
function reapedChildrenCpuSeconds(): number {
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After the command name: state is field 3, cutime field 16, cstime field 17 (1-based, proc(5)).
  return (Number(fields[16 - 3]) + Number(fields[17 - 3])) / TICKS_PER_SECOND;
}

async function startOnce(argv: string[]): Promise<number> {
  const started = performance.now();
  const [command, ...args] = argv;
  const child = spawn(command!, args, {
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    env: {},
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message: unknown) => {
      if ((message as { spadeSandboxReady?: boolean } | null)?.spadeSandboxReady) resolve();
    });
    child.once('exit', (code) => reject(new Error(`the sandbox child exited during start (code ${code})`)));
  });
  const ms = performance.now() - started;
  child.kill('SIGKILL');
  await exited;
  return ms;
}

/** Starts `rounds` children of each setting (true: the shipped budget, false: V8's default), alternating, and returns each setting's figures. */
export async function measureBootTiering(
  budgets: Record<string, boolean>,
  rounds = 12,
): Promise<Record<string, TieringFigures>> {
  (await spawnNodeSandbox()).kill();
  const bundle = await nodeWorkerBundle();
  const snapshot = bundle.replace(/\.mjs$/, '.snapshot');
  const launcher = await sandboxLauncher();
  const pyodideDir = pyodideDirectory();
  const argv = (shipped: boolean) => {
    const flags = sandboxExecArgv(bundle, pyodideDir, snapshot).filter(
      (flag) => shipped || !flag.startsWith('--wasm-tiering-budget='),
    );
    return [...launcher.prefix, process.execPath, ...flags, bundle, pyodideDir, snapshot];
  };
  const walls: Record<string, number[]> = Object.fromEntries(Object.keys(budgets).map((name) => [name, []]));
  const cpu: Record<string, number> = Object.fromEntries(Object.keys(budgets).map((name) => [name, 0]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, shipped] of Object.entries(budgets)) {
      const before = reapedChildrenCpuSeconds();
      walls[name]!.push(await startOnce(argv(shipped)));
      cpu[name]! += reapedChildrenCpuSeconds() - before;
    }
  }
  return Object.fromEntries(
    Object.keys(budgets).map((name) => {
      const sorted = walls[name]!.sort((a, b) => a - b);
      return [name, { startMs: sorted[Math.floor(sorted.length / 2)]!, cpuSecondsEach: cpu[name]! / rounds }];
    }),
  );
}

/** Times of the same compute-heavy Python call made 8 times in a fresh interpreter, in milliseconds, with the shipped budget or V8's default. */
export function heavyPythonCalls(shipped: boolean): number[] {
  const child = new URL('./heavy-python-child.mjs', import.meta.url).pathname;
  const flags = sandboxExecArgv('', '').filter((flag) => flag.startsWith('--wasm-tiering-budget='));
  const result = spawnSync(process.execPath, [...(shipped ? flags : []), child], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the heavy-Python child failed: ${result.stderr}`);
  return JSON.parse(result.stdout) as number[];
}

/** The bench's text: starts and heavy calls with the shipped budget beside V8's default. */
export async function formatBootTiering(): Promise<string> {
  const starts = await measureBootTiering({ shipped: true, default: false });
  const calls = { shipped: heavyPythonCalls(true), default: heavyPythonCalls(false) };
  const row = (name: 'shipped' | 'default', label: string) =>
    `  ${label.padEnd(30)}start ${starts[name]!.startMs.toFixed(0)} ms, CPU ${starts[name]!.cpuSecondsEach.toFixed(2)} s each; heavy call ${calls[name].map((ms) => ms.toFixed(0)).join(' ')} ms`;
  return [
    'Node interpreter start and WebAssembly tiering (shipped budget vs V8 default, alternating; a heavy Python call made 8 times)',
    row('shipped', `budget ${WASM_TIERING_BUDGET.toLocaleString('en-US')}`),
    row('default', 'V8 default (1,800,000)'),
    '',
  ].join('\n');
}
