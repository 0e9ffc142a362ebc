import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { callOver, ipcLine } from '../../src/adapters/sandbox/call-channel.ts';
import { privateCacheDirectory, pyodideDirectory, sandboxExecArgv } from '../../src/adapters/sandbox/node-sandbox.ts';
import { sandboxLauncher } from '../../src/adapters/sandbox/process-fence.ts';
import { bundleWorker } from '../../src/adapters/sandbox/worker-bundler.ts';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';

/** Median and 95th percentile of one part of a step's round trip, in microseconds. */
export interface PartFigures {
  medianUs: number;
  p95Us: number;
}

/** One way of sending steps, split into parts: host send to the child's service, Python, and the child's return to the host. */
export interface StepSplit {
  total: PartFigures;
  toChild: PartFigures;
  python: PartFigures;
  toHost: PartFigures;
  steps: number;
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

async function startTimedChild(): Promise<{ call(request: string): Promise<string>; kill(): void }> {
  const code = await bundleWorker(ENTRY, 'node');
  const bundle = join(
    privateCacheDirectory(),
    `transport-split-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`,
  );
  writeFileSync(bundle, code, { mode: 0o600 });
  const launcher = await sandboxLauncher();
  const pyodideDir = pyodideDirectory();
  const [command, ...args] = [
    ...launcher.prefix,
    process.execPath,
    ...sandboxExecArgv(bundle, pyodideDir),
    bundle,
    pyodideDir,
  ];
  const child = spawn(command!, args, { serialization: 'json', stdio: ['ignore', 'ignore', 'ignore', 'ipc'], env: {} });
  await new Promise<void>((resolve, reject) => {
    child.on('message', (message) => {
      if ((message as { spadeSandboxReady?: boolean } | null)?.spadeSandboxReady) resolve();
    });
    child.once('close', (code) =>
      reject(new Error(`the timed sandbox child stopped during start (exit code ${code})`)),
    );
  });
  const call = callOver(ipcLine(child));
  return { call: async (request) => String(await call(request)), kill: () => child.kill('SIGKILL') };
}

/**
 * Splits step round trips on a fenced Node sandbox child (the shipped service, timed inside)
 * into the host-to-child leg, Python, and the child-to-host leg, back to back and paced like real
 * play (after 100-300 ms idle); the two kinds alternate so machine load hits both alike.
 */
export async function measureTransportSplit(rounds = 40): Promise<{ backToBack: StepSplit; paced: StepSplit }> {
  const child = await startTimedChild();
  try {
    const ask = async (body: Record<string, unknown>) =>
      JSON.parse(await child.call(JSON.stringify({ ...body, maxChars: 100_000 }))) as {
        reached: string;
        returned: string;
        reply: string;
      };
    await ask({ op: 'load', code: EXAMPLE_ENV, maxTurns: 1_000_000 });
    await ask({ op: 'reset', seed: 1 });
    const parts = { backToBack: [] as bigint[][], paced: [] as bigint[][] };
    const step = async (into: bigint[][], i: number) => {
      const sent = process.hrtime.bigint();
      const { reached, returned, reply } = await ask({
        op: 'step',
        action: `\\boxed{${String(i % 1000).padStart(3, '0')}}`,
      });
      const back = process.hrtime.bigint();
      if (!reply.startsWith('{"ok":true')) throw new Error(`the timed step failed: ${reply.slice(0, 200)}`);
      into.push([sent, BigInt(reached), BigInt(returned), back]);
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
        total: figures(us(0, 3)),
        toChild: figures(us(0, 1)),
        python: figures(us(1, 2)),
        toHost: figures(us(2, 3)),
        steps: rows.length,
      };
    };
    return { backToBack: split(parts.backToBack), paced: split(parts.paced) };
  } finally {
    child.kill();
  }
}

/** The split as printed by `npm run bench -- transport`. */
export function formatTransportSplit(figures: { backToBack: StepSplit; paced: StepSplit }): string {
  const f = (part: PartFigures) =>
    `${(part.medianUs / 1000).toFixed(3)} / ${(part.p95Us / 1000).toFixed(3)} ms`.padEnd(20);
  const line = (name: string, s: StepSplit) =>
    `  ${name.padEnd(14)}${f(s.total)}${f(s.toChild)}${f(s.python)}${f(s.toHost)}(${s.steps} steps)`;
  return [
    'Node step round trip split (fenced child, shipped service timed inside; median / p95; the two kinds alternate)',
    `  ${''.padEnd(14)}${'whole'.padEnd(20)}${'host to Python'.padEnd(20)}${'Python'.padEnd(20)}${'Python to host'.padEnd(20)}`,
    line('back to back', figures.backToBack),
    line('paced', figures.paced),
    '',
  ].join('\n');
}
