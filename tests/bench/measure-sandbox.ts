import type { PyodideSandboxRuntime, SpawnSandbox } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../src/core/env/validate-env.ts';

/** Sandbox figures in milliseconds. */
export interface SandboxFigures {
  coldStartToFirstResetMs: number;
  warmStepMedianMs: number;
  warmStepP95Ms: number;
  pacedStepMedianMs: number;
  pacedStepP95Ms: number;
  pacedSteps: number;
  validateTypicalMedianMs: number;
  playStartMedianMs: number;
  playStartP95Ms: number;
  recoveryAfterHangMs: number;
  recoveryAfterSecondHangMs: number;
  steps: number;
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;
}

const HANG = `class HangEnv:
    def __init__(self, max_turns=12):
        self.max_turns = max_turns
    def reset(self, seed=None):
        return "hang on", {}
    def step(self, action):
        while True:
            pass
`;

// Idle times before the paced steps: a model's turn between two steps takes 100 to 300 ms.
const PACES_MS = [100, 150, 200, 250, 300];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Loads the hanging environment and lets its step time out (the runtime kills it); resolves at the kill.
async function hangOnce(runtime: PyodideSandboxRuntime): Promise<void> {
  const hung = await runtime.load(HANG, { maxTurns: 12, timeoutMs: 5000 });
  await hung.reset(1);
  await hung.step('x', { timeoutMs: 500 }).catch(() => undefined);
}

// Time from now until a fresh environment has loaded and answered its first reset.
async function timeToNextReset(runtime: PyodideSandboxRuntime, code: string, now: () => number): Promise<number> {
  const from = now();
  const next = await runtime.load(code, { maxTurns: 12, timeoutMs: 30_000 });
  await next.reset(2);
  const ms = now() - from;
  await next.dispose();
  return ms;
}

/** Times to the next environment's first reset after one killed hang, and after two killed back to back, each from a pool with its spares booted. */
async function recoverOnce(
  runtime: PyodideSandboxRuntime,
  code: string,
  now: () => number,
): Promise<{ afterHangMs: number; afterSecondHangMs: number }> {
  await runtime.whenSpareReady();
  await hangOnce(runtime);
  const afterHangMs = await timeToNextReset(runtime, code, now);
  await runtime.whenSpareReady();
  await hangOnce(runtime);
  await hangOnce(runtime);
  return { afterHangMs, afterSecondHangMs: await timeToNextReset(runtime, code, now) };
}

/** Recovery figures over several rounds, in milliseconds: medians and the worst round. */
export interface RecoveryFigures {
  rounds: number;
  afterHangMedianMs: number;
  afterSecondHangMedianMs: number;
  afterSecondHangMaxMs: number;
}

/** Only the recovery measurement, `rounds` times on one runtime (after a first environment has loaded): the cheap check of how fast the sandbox comes back from hangs. */
export async function measureRecovery(
  create: () => PyodideSandboxRuntime,
  typicalEnv: string,
  now: () => number,
  rounds = 5,
): Promise<RecoveryFigures> {
  const runtime = create();
  try {
    const first = await runtime.load(typicalEnv, { maxTurns: 12, timeoutMs: 30_000 });
    await first.reset(1);
    await first.dispose();
    const one: number[] = [];
    const two: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const figures = await recoverOnce(runtime, typicalEnv, now);
      one.push(figures.afterHangMs);
      two.push(figures.afterSecondHangMs);
    }
    one.sort((a, b) => a - b);
    two.sort((a, b) => a - b);
    return {
      rounds,
      afterHangMedianMs: percentile(one, 0.5),
      afterSecondHangMedianMs: percentile(two, 0.5),
      afterSecondHangMaxMs: two[two.length - 1]!,
    };
  } finally {
    await runtime.close();
  }
}

/**
 * Measures one sandbox runtime: cold start to the first reset; step round trips at steady state
 * (spares booted), back to back and paced like real play (after 100-300 ms idle); a typical
 * validation and a play start (load plus first reset) with the spares booted; and the time from
 * a killed hang, and from a second hang killed right after a first, until the next environment answers.
 */
export async function measureSandbox(
  create: () => PyodideSandboxRuntime,
  typicalEnv: string,
  now: () => number,
  steps = 300,
): Promise<SandboxFigures> {
  const t0 = now();
  const runtime = create();
  const handle = await runtime.load(typicalEnv, { maxTurns: 1_000_000, timeoutMs: 30_000 });
  await handle.reset(1);
  const coldStartToFirstResetMs = now() - t0;
  // Steps are timed once the spares have booted, so their start-up does not compete for the CPU.
  await runtime.whenSpareReady();
  const times: number[] = [];
  for (let i = 0; i < steps; i++) {
    const start = now();
    await handle.step(`\\boxed{${String(i % 1000).padStart(3, '0')}}`, { timeoutMs: 5000 });
    times.push(now() - start);
  }
  times.sort((a, b) => a - b);
  const paced: number[] = [];
  for (let i = 0; i < 4 * PACES_MS.length; i++) {
    await sleep(PACES_MS[i % PACES_MS.length]!);
    const start = now();
    await handle.step(`\\boxed{${String(i).padStart(3, '0')}}`, { timeoutMs: 5000 });
    paced.push(now() - start);
  }
  paced.sort((a, b) => a - b);
  await handle.dispose();
  const validations: number[] = [];
  const playStarts: number[] = [];
  for (let i = 0; i < 12; i++) {
    await runtime.whenSpareReady();
    validations.push((await validateEnvironment(typicalEnv, runtime, DEFAULT_VALIDATION)).ms);
    await runtime.whenSpareReady();
    const start = now();
    const play = await runtime.load(typicalEnv, { maxTurns: 12, timeoutMs: 30_000, stage: 'play' });
    await play.reset(i + 1);
    playStarts.push(now() - start);
    await play.dispose();
  }
  validations.sort((a, b) => a - b);
  playStarts.sort((a, b) => a - b);
  const { afterHangMs: recoveryAfterHangMs, afterSecondHangMs: recoveryAfterSecondHangMs } = await recoverOnce(
    runtime,
    typicalEnv,
    now,
  );
  await runtime.close();
  return {
    coldStartToFirstResetMs,
    warmStepMedianMs: percentile(times, 0.5),
    warmStepP95Ms: percentile(times, 0.95),
    pacedStepMedianMs: percentile(paced, 0.5),
    pacedStepP95Ms: percentile(paced, 0.95),
    pacedSteps: paced.length,
    validateTypicalMedianMs: percentile(validations, 0.5),
    playStartMedianMs: percentile(playStarts, 0.5),
    playStartP95Ms: percentile(playStarts, 0.95),
    recoveryAfterHangMs,
    recoveryAfterSecondHangMs,
    steps,
  };
}

/** Median spawn-to-ready time of each way to start an interpreter, started one at a time and alternating, so machine noise hits both alike. */
export async function measureBoots<K extends string>(
  ways: Record<K, SpawnSandbox>,
  now: () => number,
  rounds = 6,
): Promise<Record<K, number>> {
  const times = Object.fromEntries(Object.keys(ways).map((k) => [k, [] as number[]])) as Record<K, number[]>;
  // One untimed start of each first: builds the bundle and makes the shared snapshot if need be.
  for (const spawn of Object.values(ways) as SpawnSandbox[]) (await spawn()).kill();
  for (let round = 0; round < rounds; round++) {
    for (const key of Object.keys(ways) as K[]) {
      const start = now();
      const proc = await ways[key]();
      times[key].push(now() - start);
      proc.kill();
    }
  }
  return Object.fromEntries(
    Object.entries(times).map(([k, list]) => [
      k,
      percentile(
        (list as number[]).sort((a, b) => a - b),
        0.5,
      ),
    ]),
  ) as Record<K, number>;
}
