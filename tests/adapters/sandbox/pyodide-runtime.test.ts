// The Pyodide runtime's host side (pool, kills, restarts, reply checks) and the validator's stage
// order over fake sandbox processes: no Python, milliseconds. The same paths with real Pyodide are
// in node-sandbox*.test.ts.
import { describe, expect, it } from 'vitest';
import { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { fakeSpawner } from '../../fixtures/fake-sandbox-process.ts';

const LOAD = { maxTurns: 5, timeoutMs: 1000 };
const codeOf = (error: unknown) => (isEnvError(error) ? `${error.code}@${error.stage}` : String(error));

describe('PyodideSandboxRuntime over fake processes', () => {
  it('keeps its spares booted: warm boots the syntax interpreter and a spare; a load takes the spare and a replacement boots', async () => {
    const { spawn, log } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    await runtime.warm();
    expect(log.spawned).toBe(2);
    const handle = await runtime.load('count', LOAD);
    await runtime.whenSpareReady();
    expect(log.spawned).toBe(3);
    await handle.reset(1);
    await handle.step('\\boxed{up}');
    await handle.step('\\boxed{up}');
    expect(await handle.step('\\boxed{up}')).toMatchObject({ reward: 1, terminated: true });
    await handle.dispose();
    // Restored, but the pool already holds its one spare: killed.
    expect([log.recycled, log.killed]).toEqual([1, 1]);
    await runtime.close();
  });

  it('hands a validation the next booted interpreter before plays that queued for one earlier', async () => {
    const { spawn } = fakeSpawner(20);
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1, bootsAtOnce: 1 });
    const order: string[] = [];
    const plays = [1, 2, 3].map((n) =>
      runtime.load('count', { ...LOAD, stage: 'play' }).then((h) => (order.push(`play ${n}`), h)),
    );
    const validation = runtime.load('count', { ...LOAD, stage: 'load' }).then((h) => (order.push('validation'), h));
    const handles = await Promise.all([...plays, validation]);
    // All four asked before the first boot was done: the validation, asked last, got it.
    expect(order).toEqual(['validation', 'play 1', 'play 2', 'play 3']);
    await Promise.all(handles.map((h) => h.dispose()));
    await runtime.close();
  });

  it('holds a reserved interpreter for one later load, takes back an unused one untouched, and kills held ones at close', async () => {
    const { spawn: boot, log } = fakeSpawner();
    // Two interpreters boot; every later boot never finishes, so a load can only be served by those two.
    let boots = 0;
    const spawn: typeof boot = (signal) =>
      ++boots <= 2
        ? boot(signal)
        : new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    const used = await runtime.reserve();
    const unused = await runtime.reserve();
    // Nothing ran in a reserved interpreter: the environment's code goes only with the load.
    expect(log.requests.filter((r) => r.includes('"op":"load"'))).toHaveLength(0);
    const handle = await runtime.load('count', { ...LOAD, stage: 'play', ticket: used });
    expect(log.requests.filter((r) => r.includes('"op":"load"'))).toHaveLength(1);
    await handle.reset(1);
    unused.release();
    unused.release();
    const next = await Promise.race([
      runtime.load('count', { ...LOAD, stage: 'play' }),
      new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('the given-back interpreter was not reused')), 2000),
      ),
    ]);
    await next.reset(1);
    expect(log.killed).toBe(0);
    await next.dispose();
    // Restored to its sealed state, it waits for the next environment instead of being killed.
    expect([log.recycled, log.killed, runtime.recycled]).toEqual([1, 0, 1]);
    await runtime.close();
    // At close the restored spare and the environment still loaded in the first reserved interpreter are killed.
    expect(log.killed).toBe(2);
  });

  it('restores the interpreter of a disposed environment for the next environment, which then needs no boot', async () => {
    const { spawn, log } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1, kept: 4 });
    const handles = await Promise.all([1, 2, 3].map(() => runtime.load('count', LOAD)));
    await runtime.whenSpareReady();
    const booted = log.spawned;
    await Promise.all(handles.map((h) => h.dispose()));
    expect([log.recycled, log.killed]).toEqual([3, 0]);
    const again = await Promise.all([1, 2, 3, 4].map(() => runtime.load('count', LOAD)));
    expect(log.spawned).toBe(booted);
    for (const handle of again) await handle.reset(1);
    await runtime.close();
  });

  it('kills a disposed interpreter that refuses to be restored, and one restored beyond the kept count', async () => {
    const { spawn, log } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1, kept: 1 });
    const [dirty, first, second] = await Promise.all(
      ['dirty', 'count', 'count'].map((code) => runtime.load(code, LOAD)),
    );
    await runtime.whenSpareReady();
    await dirty!.dispose();
    expect([log.recycled, log.killed]).toEqual([0, 1]);
    // The pool already holds its one spare: both restored interpreters are killed.
    await first!.dispose();
    await second!.dispose();
    expect([log.recycled, log.killed, runtime.recycled]).toEqual([2, 3, 2]);
    expect(runtime.restarts).toBe(0);
    await runtime.close();
  });

  it('kills a step that does not answer within its limit, counts a restart, and loses that environment only', async () => {
    const { spawn, log } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    const hung = await runtime.load('hang', LOAD);
    await hung.reset(1);
    const started = Date.now();
    await expect(hung.step('x', { timeoutMs: 30, stage: 'play' })).rejects.toSatisfy(
      (e) => codeOf(e) === 'step_timeout@play',
    );
    expect(Date.now() - started).toBeLessThan(1000);
    expect(runtime.restarts).toBe(1);
    expect(log.killed).toBe(1);
    await expect(hung.reset(2)).rejects.toSatisfy((e) => codeOf(e) === 'env_lost@play');
    const next = await runtime.load('count', LOAD);
    await expect(next.reset(1)).resolves.toMatchObject({ observation: 'Count to three with \\boxed{up}.' });
    await runtime.close();
  });

  it('kills an interpreter whose reply is not the protocol, with bad_harness_reply', async () => {
    const { spawn, log } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    const handle = await runtime.load('garbage', LOAD);
    await handle.reset(1);
    await expect(handle.step('x')).rejects.toSatisfy((e) => codeOf(e) === 'bad_harness_reply@play');
    expect(runtime.restarts).toBe(1);
    expect(log.killed).toBe(1);
    await runtime.close();
  });

  it.each(['badtag', 'deepinfo'])(
    'a %s reply that parses as JSON but breaks the value encoding kills the interpreter with bad_harness_reply',
    async (behaviour) => {
      const { spawn, log } = fakeSpawner();
      const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
      const handle = await runtime.load(behaviour, LOAD);
      await handle.reset(1);
      await expect(handle.step('x')).rejects.toSatisfy((e) => codeOf(e) === 'bad_harness_reply@play');
      expect(runtime.restarts).toBe(1);
      expect(log.killed).toBe(1);
      await expect(handle.reset(2)).rejects.toSatisfy((e) => codeOf(e) === 'env_lost@play');
      await runtime.close();
    },
  );

  it('reports a process that dies mid-call as sandbox_crashed', async () => {
    const { spawn } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    const handle = await runtime.load('crash', LOAD);
    await handle.reset(1);
    await expect(handle.step('x')).rejects.toSatisfy((e) => codeOf(e) === 'sandbox_crashed@play');
    expect(runtime.restarts).toBe(1);
    await runtime.close();
  });

  it('close kills every live interpreter and refuses later loads', async () => {
    const { spawn, log } = fakeSpawner();
    const runtime = new PyodideSandboxRuntime(spawn, { spares: 1 });
    await runtime.load('count', LOAD);
    await runtime.close();
    expect(log.killed).toBeGreaterThanOrEqual(1);
    await expect(runtime.load('count', LOAD)).rejects.toSatisfy((e) => codeOf(e) === 'sandbox_crashed@load');
  });
});

describe('validateEnvironment over fake processes', () => {
  const reply = (code: string) => '```python\n' + code + '\nclass FakeEnv:\n    pass\n```';

  it('runs extract, load, probe and determinism in that order for a working environment', async () => {
    const runtime = new PyodideSandboxRuntime(fakeSpawner().spawn, { spares: 1 });
    const report = await validateEnvironment(reply('count'), runtime, DEFAULT_VALIDATION);
    expect(report).toMatchObject({ ok: true, code: null, className: 'FakeEnv' });
    expect(report.stages.map((s) => s.stage)).toEqual(['extract', 'load', 'probe', 'determinism']);
    await runtime.close();
  });

  it('stops at the probe with step_timeout when a step hangs, within the call limit', async () => {
    const runtime = new PyodideSandboxRuntime(fakeSpawner().spawn, { spares: 1 });
    const report = await validateEnvironment(reply('hang'), runtime, { ...DEFAULT_VALIDATION, callTimeoutMs: 40 });
    expect(report).toMatchObject({ ok: false, code: 'step_timeout', stage: 'probe' });
    expect(report.stages.map((s) => s.stage)).toEqual(['extract', 'load', 'probe']);
    expect(runtime.restarts).toBe(1);
    await runtime.close();
  });

  it('six designs validated at once, waiting for interpreters booted one at a time, are all valid within a budget shorter than the wait', async () => {
    // Each boot takes 150 ms, one at a time: the sixth design waits about a second for its interpreter.
    // Interpreters are not restored here, or the designs would never wait.
    const runtime = new PyodideSandboxRuntime(fakeSpawner(150, false).spawn, { spares: 1, bootsAtOnce: 1 });
    await runtime.warm();
    const started = Date.now();
    const reports = await Promise.all(
      Array.from({ length: 6 }, () =>
        validateEnvironment(reply('count'), runtime, {
          ...DEFAULT_VALIDATION,
          totalTimeoutMs: 400,
          callTimeoutMs: 200,
        }),
      ),
    );
    expect(Date.now() - started).toBeGreaterThan(600);
    expect(reports.map((r) => r.code)).toEqual(Array(6).fill(null));
    for (const report of reports) expect(report.envMs).toBeLessThan(400);
    expect(Math.max(...reports.map((r) => r.ms))).toBeGreaterThan(600);
    await runtime.close();
  });
});
