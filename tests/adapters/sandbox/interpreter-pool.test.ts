// The interpreter pool's refills over fake processes (no Python, milliseconds): a burst of hangs
// never leaves the next environment waiting for a boot, a hung interpreter is never handed out
// again, an interpreter being restored counts as one coming back, so no boot starts for it, and
// a grown pool keeps booting while idle until it holds as many as were ever wanted at once.
import { describe, expect, it } from 'vitest';
import { InterpreterPool } from '../../../src/adapters/sandbox/interpreter-pool.ts';
import { poolSize } from '../../../src/adapters/sandbox/pool-size.ts';
import {
  PyodideSandboxRuntime,
  type SandboxProcess,
  type SpawnSandbox,
} from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { fakeSpawner } from '../../fixtures/fake-sandbox-process.ts';

const GIB = 1024 ** 3;
const LOAD = { maxTurns: 5, timeoutMs: 1000 };

// Numbers every process the fake spawner starts and notes which process answered each request and which were killed.
function tagged(bootMs: number): { spawn: SpawnSandbox; served: number[]; killed: Set<number>; started: () => number } {
  const fake = fakeSpawner(bootMs);
  const served: number[] = [];
  const killed = new Set<number>();
  let next = 0;
  const spawn: SpawnSandbox = async (signal) => {
    const proc = await fake.spawn(signal);
    const id = ++next;
    return {
      call: (request) => (served.push(id), proc.call(request)),
      kill: () => (killed.add(id), proc.kill()),
      exited: proc.exited,
    };
  };
  return { spawn, served, killed, started: () => fake.log.started };
}

describe('InterpreterPool refills', () => {
  it('two hangs killed back to back on a two-core machine leave a booted spare: the next environment starts without waiting for a boot', async () => {
    const { spawn, served, killed } = tagged(400);
    const runtime = new PyodideSandboxRuntime(spawn, { ...poolSize(2, 20 * GIB), idleSpares: 1 });
    await runtime.whenSpareReady();
    for (let hang = 0; hang < 2; hang++) {
      const hung = await runtime.load('hang', LOAD);
      await hung.reset(1);
      await expect(hung.step('x', { timeoutMs: 20 })).rejects.toThrow(/step to return within 20 ms/);
    }
    expect(runtime.restarts).toBe(2);
    const from = Date.now();
    const next = await runtime.load('count', LOAD);
    await next.reset(2);
    // A boot takes 400 ms here; the spare answers at once.
    expect(Date.now() - from).toBeLessThan(200);
    // Neither hung interpreter answered anything after its kill.
    expect(killed.size).toBe(2);
    expect(served.slice(-2).filter((id) => killed.has(id))).toEqual([]);
    await next.dispose();
    await runtime.close();
  });

  it('the same hangs with one spare per core and no reserve make the next environment wait for a boot', async () => {
    const { spawn } = tagged(400);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 2, bootsAtOnce: 2, idleSpares: 1 });
    await runtime.whenSpareReady();
    for (let hang = 0; hang < 2; hang++) {
      const hung = await runtime.load('hang', LOAD);
      await hung.reset(1);
      await hung.step('x', { timeoutMs: 20 }).catch(() => undefined);
    }
    const from = Date.now();
    const next = await runtime.load('count', LOAD);
    await next.reset(2);
    expect(Date.now() - from).toBeGreaterThanOrEqual(200);
    await runtime.close();
  });

  it('boots no spare for an interpreter that is being restored, and hands the restored one out', async () => {
    const { spawn, started } = tagged(5);
    const pool = new InterpreterPool(spawn, 1);
    await pool.whenReady();
    const first = await pool.take();
    await pool.whenReady();
    expect(started()).toBe(2);
    let restore: (proc: SandboxProcess | null) => void = () => undefined;
    const back = pool.comingBack(new Promise((resolve) => (restore = resolve)));
    // The spare is taken while the first is being restored: the restore refills the pool, not a boot.
    const second = await pool.take();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started()).toBe(2);
    restore(first);
    await back;
    expect(await pool.take()).toBe(first);
    // Now the pool is below its size with nothing coming back: it boots.
    expect(started()).toBe(3);
    second.kill();
    pool.close();
  });

  it('boots a replacement once a restore fails', async () => {
    const { spawn, started } = tagged(5);
    const pool = new InterpreterPool(spawn, 1);
    await pool.whenReady();
    const first = await pool.take();
    await pool.whenReady();
    let restore: (proc: SandboxProcess | null) => void = () => undefined;
    const back = pool.comingBack(new Promise((resolve) => (restore = resolve)));
    await pool.take();
    expect(started()).toBe(2);
    first.kill();
    restore(null);
    await back;
    expect(started()).toBe(3);
    pool.close();
  });

  // One spare, booted one at a time; four wanted at once, each served in turn by the same interpreter given back (plays that end at once).
  async function burstThenRest(keptAtMost: number): Promise<number> {
    const { spawn, started } = tagged(20);
    const pool = new InterpreterPool(spawn, 1, 1, 1, keptAtMost);
    pool.grow();
    await pool.whenReady();
    const takes = [pool.take(), pool.take(), pool.take(), pool.take()];
    const first = await takes[0]!;
    for (const next of takes.slice(1)) {
      pool.giveBack(first);
      expect(await next).toBe(first);
    }
    pool.giveBack(first);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const boots = started();
    pool.close();
    return boots;
  }

  it('once grown, boots while demand rests until it holds as many interpreters as were ever wanted at once, up to the kept count', async () => {
    // Four were wanted at once: the first spare and three more booted after the burst had passed.
    expect(await burstThenRest(10)).toBe(4);
    // Two kept at most: the spare and the replacement booted during the burst, nothing more.
    expect(await burstThenRest(2)).toBe(2);
  });

  it('hands out an interpreter restored after an environment before spares that never ran one', async () => {
    const { spawn } = tagged(1);
    const pool = new InterpreterPool(spawn, 2, 2, 2, 4);
    await pool.whenReady();
    const used = await pool.take();
    await pool.whenReady();
    await pool.comingBack(Promise.resolve(used));
    expect(await pool.take()).toBe(used);
    pool.close();
  });

  it('counts the interpreters booted and the time loads waited for one', async () => {
    const { spawn } = tagged(60);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    const first = await runtime.load('count', LOAD);
    expect(runtime.boots).toBe(1);
    expect(runtime.interpreterWaitMs).toBeGreaterThanOrEqual(50);
    await runtime.whenSpareReady();
    const waited = runtime.interpreterWaitMs;
    const second = await runtime.load('count', LOAD);
    // The spare was booted already: no wait added.
    expect(runtime.interpreterWaitMs - waited).toBeLessThan(20);
    expect(runtime.boots).toBe(2);
    await Promise.all([first.dispose(), second.dispose()]);
    await runtime.close();
  });

  it('boots spares nobody waits for one at a time, and side by side up to bootsAtOnce while loads wait', async () => {
    const { spawn, log } = fakeSpawner(10);
    const pool = new InterpreterPool(spawn, 3, 3);
    pool.grow();
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect([log.spawned, log.mostAtOnce]).toEqual([3, 1]);
    const taken = await Promise.all([1, 2, 3, 4, 5].map(() => pool.take()));
    // Two loads waited beyond the three spares: their boots and the spares' refills ran three at once.
    expect(log.mostAtOnce).toBe(3);
    for (const proc of taken) proc.kill();
    pool.close();
  });
});
