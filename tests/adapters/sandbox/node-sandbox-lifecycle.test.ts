import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import {
  createNodeSandboxRuntime,
  nodeWorkerBundle,
  pyodideDirectory,
  spawnNodeSandbox,
} from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { SANDBOX_DATA_LIMIT_BYTES } from '../../../src/adapters/sandbox/process-fence.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { GOOD_ENVS, loadGoodEnv, playEpisode, readEnv } from '../../fixtures/env-fixtures.ts';
import { isRunning, runningThreads, sandboxChildren, waitUntil } from '../../fixtures/sandbox/sandbox-pids.ts';

const ROOT = resolve(import.meta.dirname, '../../..');
const LADDER = GOOD_ENVS[0]!;
const runtimes: PyodideSandboxRuntime[] = [];

function runtimeFor(options: Parameters<typeof createNodeSandboxRuntime>[0]): PyodideSandboxRuntime {
  const runtime = createNodeSandboxRuntime(options);
  runtimes.push(runtime);
  return runtime;
}

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
});

function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => 'resolved instead of rejecting',
    (error: unknown) => error,
  );
}

function killAll(pids: number[]): void {
  for (const pid of pids) process.kill(pid, 'SIGKILL');
}

describe('a sandbox child dies with its host', () => {
  let host: ReturnType<typeof spawn> | null = null;
  afterAll(() => {
    host?.kill('SIGKILL');
  });

  it.each(['idle', 'busy'])('%s: the host is SIGKILLed and every sandbox child is gone within 3 s', async (mode) => {
    host = spawn(process.execPath, ['--import', 'tsx', 'tests/fixtures/sandbox/sandbox-host.ts', mode], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    host.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    expect(await waitUntil(() => out.includes('ready'), 60_000)).toBe(true);
    const children = sandboxChildren(host.pid!);
    expect(children.length).toBeGreaterThan(0);
    if (mode === 'busy') expect(children.some((pid) => runningThreads(pid) > 0)).toBe(true);
    host.kill('SIGKILL');
    expect(await waitUntil(() => children.every((pid) => !isRunning(pid)), 3000)).toBe(true);
  });

  it('the child leaves by itself when its IPC channel closes (the watchdog, without the kernel signal)', async () => {
    const bundle = await nodeWorkerBundle();
    const child = spawn(
      process.execPath,
      [
        '--experimental-permission',
        '--allow-worker',
        `--allow-fs-read=${bundle}`,
        `--allow-fs-read=${pyodideDirectory()}`,
        bundle,
        pyodideDirectory(),
      ],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
        serialization: 'json',
      },
    );
    const exit = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    await new Promise<void>((done) => child.on('message', (m: { hostReady?: boolean }) => m.hostReady && done()));
    child.disconnect();
    expect(await Promise.race([exit, new Promise((done) => setTimeout(() => done('still running'), 3000))])).toBe(70);
  });
});

describe('the host survives its sandbox child dying between calls', () => {
  it('a killed child: the next call rejects with a typed EnvError and the next load plays normally', async () => {
    const runtime = runtimeFor({});
    await runtime.whenSpareReady();
    const handle = await loadGoodEnv(runtime, LADDER);
    await handle.reset(LADDER.seed);
    const children = sandboxChildren(process.pid);
    killAll(children);
    const error = await rejection(handle.step(LADDER.winning[0]!));
    expect(isEnvError(error)).toBe(true);
    expect(['sandbox_crashed', 'env_lost']).toContain((error as { code: string }).code);
    // The spare died too; the next load comes once the host has seen that (a load sent in the same
    // instant would still meet the dead spare).
    await waitUntil(() => children.every((pid) => !isRunning(pid)), 3000);
    await new Promise((done) => setTimeout(done, 200));
    const { steps } = await playEpisode(await loadGoodEnv(runtime, LADDER), LADDER.seed, LADDER.winning);
    expect(steps.at(-1)?.reward).toBe(1);
  });

  it('sending to a child whose death was already seen raises nothing unhandled; exited says why', async () => {
    const before = new Set(sandboxChildren(process.pid));
    const proc = await spawnNodeSandbox();
    const [pid] = sandboxChildren(process.pid).filter((p) => !before.has(p));
    process.kill(pid!, 'SIGKILL');
    expect(await proc.exited).toMatch(/signal SIGKILL/);
    const late = proc.call(JSON.stringify({ op: 'integrity' }));
    late.catch(() => undefined);
    // An unhandled ERR_IPC_CHANNEL_CLOSED would fail this file; give it time to surface.
    await new Promise((done) => setTimeout(done, 500));
    expect(isRunning(pid!)).toBe(false);
  });

  it('closing a runtime kills the host process of interpreters still starting at once, and none starts after', async () => {
    const before = new Set(sandboxChildren(process.pid));
    const runtime = createNodeSandboxRuntime({ spares: 2 });
    void runtime.warm().catch(() => undefined);
    expect(await waitUntil(() => sandboxChildren(process.pid).filter((p) => !before.has(p)).length >= 1, 10_000)).toBe(
      true,
    );
    const starting = sandboxChildren(process.pid).filter((p) => !before.has(p));
    await runtime.close();
    expect(await waitUntil(() => starting.every((pid) => !isRunning(pid)), 2000)).toBe(true);
    await new Promise((done) => setTimeout(done, 1500));
    expect(sandboxChildren(process.pid).filter((p) => !before.has(p))).toEqual([]);
  });

  it('a child that died while idle is replaced before the next validation starts its budget', async () => {
    const runtime = runtimeFor({});
    expect((await validateEnvironment(readEnv('good', LADDER.file), runtime)).ok).toBe(true);
    await runtime.whenSpareReady();
    const children = sandboxChildren(process.pid);
    killAll(children);
    await waitUntil(() => children.every((pid) => !isRunning(pid)), 3000);
    await new Promise((done) => setTimeout(done, 200));
    const report = await validateEnvironment(readEnv('good', LADDER.file), runtime, {
      ...DEFAULT_VALIDATION,
      totalTimeoutMs: 2500,
    });
    expect(report).toMatchObject({ ok: true, code: null });
  });
});

describe('the memory cap', () => {
  it('stops a Python memory bomb at its own budget; its sibling in the same host process plays on, and so does the next', async () => {
    const runtime = runtimeFor({});
    const sibling = await loadGoodEnv(runtime, LADDER);
    const first = await sibling.reset(LADDER.seed);
    const handle = await runtime.load(readEnv('hostile', 'memory_bomb.py'), { maxTurns: 5, timeoutMs: 5000 });
    // Spares booted now, so the host's growth below is the bomb's alone.
    await runtime.whenSpareReady();
    const hosts = sandboxChildren(process.pid);
    expect(hosts).toHaveLength(1);
    const peakBytes = () => 1024 * Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${hosts[0]}/status`, 'utf8'))?.[1]);
    const before = peakBytes();
    const error = await rejection(handle.reset(1, { timeoutMs: 30_000 }));
    expect(isEnvError(error), String(error)).toBe(true);
    expect(['memory_exhausted', 'sandbox_crashed']).toContain((error as { code: string }).code);
    expect(peakBytes() - before).toBeLessThan(SANDBOX_DATA_LIMIT_BYTES * 1.1);
    expect(isRunning(hosts[0]!)).toBe(true);
    await handle.dispose();
    const steps = [];
    for (const action of LADDER.winning) steps.push(await sibling.step(action));
    expect(first.observation).toBeTruthy();
    expect(steps.at(-1)?.reward).toBe(1);
    await sibling.dispose();
    const next = await playEpisode(await loadGoodEnv(runtime, LADDER), LADDER.seed, LADDER.winning);
    expect(next.steps.at(-1)?.reward).toBe(1);
  });
});
