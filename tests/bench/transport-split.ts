import { createHash } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InterpreterHost } from '../../src/adapters/sandbox/node-interpreter-hosts.ts';
import {
  currentSandboxSnapshot,
  launchSandboxHost,
  nodeWorkerBundle,
  privateCacheDirectory,
} from '../../src/adapters/sandbox/node-sandbox.ts';
import { bundleWorker } from '../../src/adapters/sandbox/worker-bundler.ts';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';

/** Median and 95th percentile of one part of a step's round trip, in microseconds. */
export interface PartFigures {
  medianUs: number;
  p95Us: number;
}

/** One way of sending steps, split into the legs of its round trip through the host process and its interpreter thread. */
export interface StepSplit {
  total: PartFigures;
  parentToHost: PartFigures;
  hostToThread: PartFigures;
  python: PartFigures;
  threadToHost: PartFigures;
  hostToParent: PartFigures;
  steps: number;
}

/** The clock stamps a timed reply carries: when the host and the thread got the request and sent the reply back. */
interface Stamps {
  hostReached: bigint;
  threadReached: bigint;
  threadReturned: bigint;
  hostReturned: bigint;
}

// Idle times before the paced steps, as in measure-sandbox.ts: a model's turn takes 100 to 300 ms.
const PACES_MS = [100, 150, 200, 250, 300];
const ENTRY = fileURLToPath(new URL('./transport-split-child.ts', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function figures(values: number[]): PartFigures {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
  return { medianUs: at(0.5), p95Us: at(0.95) };
}

// The stamps of a host report carrying a timed reply, or null when it is anything else.
function stampsOf(report: unknown): Stamps | null {
  const r = report as { hostReached?: unknown; hostReturned?: unknown; message?: unknown } | null;
  const message = r?.message;
  if (typeof r?.hostReached !== 'string' || typeof r.hostReturned !== 'string' || !Array.isArray(message)) return null;
  const [threadReached, threadReturned] = message.slice(-2) as unknown[];
  if (typeof threadReached !== 'string' || typeof threadReturned !== 'string') return null;
  return {
    hostReached: BigInt(r.hostReached),
    threadReached: BigInt(threadReached),
    threadReturned: BigInt(threadReturned),
    hostReturned: BigInt(r.hostReturned),
  };
}

// A fenced host process of the timed bundle, with one interpreter thread restored from the shared snapshot.
async function startTimedHost(): Promise<{
  call(request: string): Promise<{ reply: string; stamps: Stamps }>;
  kill(): Promise<void>;
}> {
  const made = await currentSandboxSnapshot();
  const shared = (await nodeWorkerBundle()).replace(/\.mjs$/, '.snapshot');
  const code = await bundleWorker(ENTRY, 'node');
  const bundle = join(
    privateCacheDirectory(),
    `transport-split-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
  );
  writeFileSync(bundle, code, { mode: 0o600 });
  const launched = await launchSandboxHost(bundle, made && existsSync(shared) ? shared : null);
  let last: Stamps | null = null;
  launched.child.on('message', (report) => (last = stampsOf(report) ?? last));
  const host = await InterpreterHost.ready(launched);
  const proc = await host.start(false);
  return {
    async call(request) {
      last = null;
      const reply = String(await proc.call(request));
      if (!last) throw new Error('the timed reply carried no clock stamps');
      return { reply, stamps: last };
    },
    async kill() {
      proc.kill();
      launched.lost('the bench is over');
      await launched.exited;
    },
  };
}

/**
 * Splits step round trips on a fenced Node sandbox host (the product's host and thread code and
 * service, timed inside) into its legs: this process to the host (IPC), the host to the
 * interpreter thread (postMessage), Python, and back the same way; back to back and paced like
 * real play (after 100-300 ms idle); the two kinds alternate so machine load hits both alike.
 */
export async function measureTransportSplit(rounds = 40): Promise<{ backToBack: StepSplit; paced: StepSplit }> {
  const host = await startTimedHost();
  try {
    const ask = async (body: Record<string, unknown>) => host.call(JSON.stringify({ ...body, maxChars: 100_000 }));
    await ask({ op: 'load', code: EXAMPLE_ENV, maxTurns: 1_000_000 });
    await ask({ op: 'reset', seed: 1 });
    const parts = { backToBack: [] as bigint[][], paced: [] as bigint[][] };
    const step = async (into: bigint[][], i: number) => {
      const sent = process.hrtime.bigint();
      const { reply, stamps } = await ask({ op: 'step', action: `\\boxed{${String(i % 1000).padStart(3, '0')}}` });
      const back = process.hrtime.bigint();
      if (!reply.startsWith('{"ok":true')) throw new Error(`the timed step failed: ${reply.slice(0, 200)}`);
      const row = [sent, stamps.hostReached, stamps.threadReached, stamps.threadReturned, stamps.hostReturned, back];
      if (row.some((stamp, k) => k > 0 && stamp < row[k - 1]!))
        throw new Error(`clock stamps out of order: ${row.join(' ')}`);
      into.push(row);
    };
    for (let i = 0; i < 50; i++) await step([], i);
    for (let i = 0; i < rounds; i++) {
      for (let j = 0; j < 5; j++) await step(parts.backToBack, i * 5 + j);
      await sleep(PACES_MS[i % PACES_MS.length]!);
      await step(parts.paced, i);
    }
    const split = (rows: bigint[][]): StepSplit => {
      const us = (from: number, to: number) => rows.map((row) => Number(row[to]! - row[from]!) / 1000);
      return {
        total: figures(us(0, 5)),
        parentToHost: figures(us(0, 1)),
        hostToThread: figures(us(1, 2)),
        python: figures(us(2, 3)),
        threadToHost: figures(us(3, 4)),
        hostToParent: figures(us(4, 5)),
        steps: rows.length,
      };
    };
    return { backToBack: split(parts.backToBack), paced: split(parts.paced) };
  } finally {
    await host.kill();
  }
}

/** The split as printed by `npm run bench -- transport`. */
export function formatTransportSplit(figures: { backToBack: StepSplit; paced: StepSplit }): string {
  const f = (part: PartFigures) =>
    `${(part.medianUs / 1000).toFixed(3)} / ${(part.p95Us / 1000).toFixed(3)}`.padEnd(16);
  const line = (name: string, s: StepSplit) =>
    `  ${name.padEnd(14)}${[s.total, s.parentToHost, s.hostToThread, s.python, s.threadToHost, s.hostToParent].map(f).join('')}(${s.steps} steps)`;
  const heads = ['whole', 'parent to host', 'host to thread', 'Python', 'thread to host', 'host to parent'];
  return [
    'Node step round trip split (fenced host process, one interpreter thread, shipped service timed inside; median / p95 in ms; the two kinds alternate)',
    `  ${''.padEnd(14)}${heads.map((head) => head.padEnd(16)).join('')}`.trimEnd(),
    line('back to back', figures.backToBack),
    line('paced', figures.paced),
    '',
  ].join('\n');
}
