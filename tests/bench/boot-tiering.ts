// What an interpreter start costs the Node sandbox, and what V8's WebAssembly tiering changes in
// it: fenced host processes of the shipped bundle (its host code, flags, fence and shared
// snapshot) started with the shipped tiering budget and with V8's default, alternating; in each,
// eight interpreter threads started one at a time, as the product's host holds at most. Each
// host's start (process and wasm compile) and each thread start get their wall time and CPU (the
// host's, read from /proc while it lives and from this process's reaped-children times once it
// is gone); then a compute-heavy Python call, made again and again in a plain Pyodide with each
// setting.
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { INTERPRETERS_PER_HOST, InterpreterHost } from '../../src/adapters/sandbox/node-interpreter-hosts.ts';
import type { SandboxProcess } from '../../src/adapters/sandbox/sandbox-process.ts';
import {
  currentSandboxSnapshot,
  launchSandboxHost,
  nodeWorkerBundle,
  sandboxExecArgv,
  WASM_TIERING_BUDGET,
  type SandboxFlags,
} from '../../src/adapters/sandbox/node-sandbox.ts';
import { processCpuSeconds, reapedChildrenCpuSeconds } from './process-cpu.ts';

/** Start figures of one tiering setting. */
export interface TieringFigures {
  /** Median wall time from spawning a host process to its report that it takes starts, in milliseconds. */
  hostStartMs: number;
  /** CPU seconds a host process has used by then (its Node start and Pyodide's wasm compile), mean over hosts. */
  hostCpuSeconds: number;
  /** Median wall time of one interpreter (thread) start, from the request to its ready report, in milliseconds. */
  threadStartMs: number;
  /** CPU seconds the host uses per interpreter start, mean over all starts. */
  threadCpuSeconds: number;
  /** CPU seconds of a host's whole life (its start, its interpreters' starts and its exit) over the interpreters it held. */
  perInterpreterCpuSeconds: number;
  /** Interpreters started in each host. */
  interpretersPerHost: number;
  /** Hosts started. */
  hosts: number;
}

interface HostRound {
  hostMs: number;
  hostCpu: number;
  threadMs: number[];
  threadCpu: number[];
  lifeCpu: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;

// One host process with `flags`: started, filled with `interpreters` threads one at a time, then emptied (which stops it).
async function hostRound(
  flags: SandboxFlags,
  bundle: string,
  snapshot: string,
  interpreters: number,
): Promise<HostRound> {
  const reapedBefore = reapedChildrenCpuSeconds();
  const started = performance.now();
  const launched = await launchSandboxHost(bundle, snapshot, flags);
  const host = await InterpreterHost.ready(launched);
  const hostMs = performance.now() - started;
  const pid = launched.child.pid!;
  const hostCpu = processCpuSeconds(pid);
  const threadMs: number[] = [];
  const threadCpu: number[] = [];
  const procs: SandboxProcess[] = [];
  let cpu = hostCpu;
  try {
    for (let i = 0; i < interpreters; i++) {
      const asked = performance.now();
      procs.push(await host.start(false));
      threadMs.push(performance.now() - asked);
      const now = processCpuSeconds(pid);
      threadCpu.push(now - cpu);
      cpu = now;
    }
  } finally {
    for (const proc of procs) proc.kill();
    launched.lost('the round is over');
    await launched.exited;
  }
  return { hostMs, hostCpu, threadMs, threadCpu, lifeCpu: reapedChildrenCpuSeconds() - reapedBefore };
}

/** Starts `rounds` hosts of each setting (true: the shipped budget, false: V8's default), alternating, each with a full host of interpreters, and returns each setting's figures. */
export async function measureBootTiering(
  budgets: Record<string, boolean>,
  rounds = 3,
  interpreters = INTERPRETERS_PER_HOST,
): Promise<Record<string, TieringFigures>> {
  // Makes the shared snapshot if there is none yet, without starting a host whose exit could fall into a round's reaped CPU.
  if (!(await currentSandboxSnapshot())) throw new Error('the sandbox snapshot could not be made');
  const bundle = await nodeWorkerBundle();
  const snapshot = bundle.replace(/\.mjs$/, '.snapshot');
  const flags =
    (shipped: boolean): SandboxFlags =>
    (...args) =>
      sandboxExecArgv(...args).filter((flag) => shipped || !flag.startsWith('--wasm-tiering-budget='));
  const results: Record<string, HostRound[]> = Object.fromEntries(Object.keys(budgets).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, shipped] of Object.entries(budgets)) {
      results[name]!.push(await hostRound(flags(shipped), bundle, snapshot, interpreters));
    }
  }
  return Object.fromEntries(
    Object.entries(results).map(([name, hosts]) => [
      name,
      {
        hostStartMs: median(hosts.map((host) => host.hostMs)),
        hostCpuSeconds: mean(hosts.map((host) => host.hostCpu)),
        threadStartMs: median(hosts.flatMap((host) => host.threadMs)),
        threadCpuSeconds: mean(hosts.flatMap((host) => host.threadCpu)),
        perInterpreterCpuSeconds: mean(hosts.map((host) => host.lifeCpu)) / interpreters,
        interpretersPerHost: interpreters,
        hosts: hosts.length,
      },
    ]),
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

/** The lines of one setting: a host's start, an interpreter's, the amortised cost and the heavy call. */
function settingLines(label: string, f: TieringFigures, calls: number[]): string[] {
  const hostShare = f.hostCpuSeconds / f.interpretersPerHost;
  return [
    `  ${label}`,
    `    host start (process, wasm compile)    median ${f.hostStartMs.toFixed(0)} ms   CPU ${f.hostCpuSeconds.toFixed(2)} s`,
    `    interpreter (thread) start            median ${f.threadStartMs.toFixed(0)} ms   CPU ${f.threadCpuSeconds.toFixed(2)} s each (${f.interpretersPerHost} one at a time per host)`,
    `    per interpreter, host included        CPU ${f.perInterpreterCpuSeconds.toFixed(2)} s   (a host's whole life, exit included, over its ${f.interpretersPerHost}; the host's start is ${hostShare.toFixed(2)} s of it)`,
    `    heavy call                            ${calls.map((ms) => ms.toFixed(0)).join(' ')} ms`,
  ];
}

/** The bench's text: starts and heavy calls with the shipped budget beside V8's default. */
export async function formatBootTiering(): Promise<string> {
  const starts = await measureBootTiering({ shipped: true, default: false });
  const calls = { shipped: heavyPythonCalls(true), default: heavyPythonCalls(false) };
  return [
    `Node interpreter start and WebAssembly tiering (shipped budget vs V8 default, alternating, ${starts['shipped']!.hosts} hosts each; a heavy Python call made 8 times)`,
    ...settingLines(`budget ${WASM_TIERING_BUDGET.toLocaleString('en-US')}`, starts['shipped']!, calls.shipped),
    ...settingLines('V8 default (1,800,000)', starts['default']!, calls.default),
    '',
  ].join('\n');
}
