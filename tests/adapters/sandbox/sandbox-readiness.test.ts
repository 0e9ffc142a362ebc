// When the runtime's interpreters boot, over fake processes (no Python, milliseconds): one boot at
// a time by default, booting starts before any load asks, closing never waits for a spare still
// booting, and a killed interpreter's core goes to the next spare at once.
import { describe, expect, it } from 'vitest';
import { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { fakeSpawner } from '../../fixtures/fake-sandbox-process.ts';

const LOAD = { maxTurns: 5, timeoutMs: 1000 };

describe('sandbox readiness', () => {
  it('boots its spares one after another when bootsAtOnce is 1, and side by side up to bootsAtOnce', async () => {
    for (const bootsAtOnce of [1, 3]) {
      const { spawn, log } = fakeSpawner(5);
      const runtime = new PyodideSandboxRuntime(spawn, { spares: 3, bootsAtOnce });
      await runtime.whenSpareReady();
      expect(log.spawned).toBe(3);
      expect(log.mostAtOnce).toBe(bootsAtOnce);
      await runtime.close();
    }
  });

  it('start() boots a spare without waiting and before any load; the load then takes it', async () => {
    const { spawn, log } = fakeSpawner(20);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    runtime.start();
    expect(log.started).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(log.spawned).toBe(1);
    const started = Date.now();
    const handle = await runtime.load('count', LOAD);
    expect(Date.now() - started).toBeLessThan(15);
    await handle.dispose();
    await runtime.close();
  });

  it('keeps idleSpares booted until the first environment loads, then all its spares', async () => {
    const { spawn, log } = fakeSpawner(5);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 3, bootsAtOnce: 3, idleSpares: 1 });
    await runtime.warm();
    await runtime.checkSyntax('x = 1', 'exec');
    await new Promise((resolve) => setTimeout(resolve, 40));
    // The syntax checker's interpreter and one spare, however long the page stays idle.
    expect(log.started).toBe(2);
    const handle = await runtime.load('count', LOAD);
    // The load took the spare, and the pool grows to three spares, booted one at a time since nothing waits for them.
    expect(log.started).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(log.spawned).toBe(5);
    await handle.dispose();
    await runtime.close();
  });

  it('close() resolves at once and abandons every boot in flight', async () => {
    const { spawn, log } = fakeSpawner(60_000);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 2, bootsAtOnce: 2 });
    runtime.start();
    expect(log.started).toBe(2);
    const started = Date.now();
    await runtime.close();
    expect(Date.now() - started).toBeLessThan(50);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log.aborted).toBe(2);
    expect(log.spawned).toBe(0);
  });

  it('a killed interpreter starts the next spare at once, beside the one already booting', async () => {
    const { spawn, log } = fakeSpawner(200);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 2, bootsAtOnce: 1 });
    await runtime.whenSpareReady();
    const first = await runtime.load('hang', LOAD);
    const second = await runtime.load('hang', LOAD);
    // Both spares taken: one replacement boots, the other waits its turn (one boot at a time).
    expect(log.started).toBe(3);
    await second.reset(1);
    await expect(second.step('x', { timeoutMs: 20 })).rejects.toThrow(/step to return within 20 ms/);
    expect(runtime.restarts).toBe(1);
    expect(log.started).toBe(4);
    expect(log.mostAtOnce).toBe(2);
    await first.dispose();
    await runtime.close();
  });
});
