// Environments that share one interpreter of the real Node sandbox (see shared-interpreter.ts):
// each must find it exactly as it left it, never see another's state, and lose nothing when a
// neighbour hangs or keeps the interpreter to itself. The runtimes here may boot only as many
// interpreters as a test allows, so the environments must share.
import { afterEach, describe, expect, it } from 'vitest';
import { spawnNodeSandbox } from '../../../src/adapters/sandbox/node-sandbox.ts';
import { PyodideSandboxRuntime, type SpawnSandbox } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { COUNTER } from '../../fixtures/counter-environment.ts';

// Hangs on its first step.
const HANG = COUNTER.replace('        global TOTAL\n        TOTAL += 1', '        while True:\n            pass');

// Replies with bytes no seed decides.
const UNSEEDED = COUNTER.replace('random.randint(0, 10**9)', "__import__('os').urandom(8).hex()");

// Writes a file on reset: its state cannot be parked (the file system is outside memory).
const WRITER = COUNTER.replace(
  '        TOTAL = 0\n',
  "        TOTAL = 0\n        with open('/tmp/note.txt', 'w') as f:\n            f.write('x')\n",
);

// Holds 150 MB of changed memory from reset on: more than an interpreter parks.
const HOG = COUNTER.replace('        TOTAL = 0\n', "        TOTAL = 0\n        self.blob = b'x' * (150 * 2**20)\n");

// Spins for about a second of Python on every step.
const SLOW = COUNTER.replace(
  '        TOTAL += 1',
  '        TOTAL += 1\n        n = 0\n        for i in range(4_000_000):\n            n += i',
);

const runtimes: PyodideSandboxRuntime[] = [];

afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.close()));
});

// A sharing runtime that may boot `boots` interpreters in all: later boots never finish.
function runtimeBooting(boots: number): PyodideSandboxRuntime {
  let left = boots;
  const spawn: SpawnSandbox = (signal) =>
    left-- > 0 ? spawnNodeSandbox('shared', signal) : new Promise<never>(() => undefined);
  const runtime = new PyodideSandboxRuntime(spawn, { spares: 1, bootsAtOnce: 1, sharedBy: 8 });
  runtimes.push(runtime);
  return runtime;
}

// A sharing runtime whose boots after the first wait until `allow()` lets one more start.
function runtimeGated(): { runtime: PyodideSandboxRuntime; allow: () => void } {
  let allowed = 1;
  const gate: (() => void)[] = [];
  const spawn: SpawnSandbox = async (signal) => {
    if (allowed-- <= 0) await new Promise<void>((resolve) => gate.push(resolve));
    return spawnNodeSandbox('shared', signal);
  };
  const runtime = new PyodideSandboxRuntime(spawn, { spares: 1, bootsAtOnce: 1, sharedBy: 8 });
  runtimes.push(runtime);
  return { runtime, allow: () => (gate.length > 0 ? gate.shift()!() : (allowed += 1)) };
}

function load(runtime: PyodideSandboxRuntime, code: string): Promise<EnvHandle> {
  return runtime.load(code, { maxTurns: 50, timeoutMs: 20_000, stage: 'play' });
}

async function steps(handle: EnvHandle, count: number): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < count; i++) seen.push((await handle.step('go', { timeoutMs: 20_000 })).observation);
  return seen;
}

const totals = (observations: string[]) => observations.map((text) => text.split(' draw ')[0]);

describe('environments sharing one interpreter', () => {
  it('each finds the interpreter as it left it, with a random stream of its own', async () => {
    // Steps taken in turn: one shared module global or random stream would interleave both counts and draws.
    const runtime = runtimeBooting(1);
    const [a, b] = [await load(runtime, COUNTER), await load(runtime, COUNTER)];
    expect((await a.reset(1)).observation).toBe((await b.reset(1)).observation);
    const seen: [string[], string[]] = [[], []];
    for (let i = 0; i < 3; i++) {
      seen[0].push(...(await steps(a, 1)));
      seen[1].push(...(await steps(b, 1)));
    }
    expect(totals(seen[0])).toEqual(['total 1', 'total 2', 'total 3']);
    expect(totals(seen[1])).toEqual(['total 1', 'total 2', 'total 3']);
    expect(seen[0]).toEqual(seen[1]);
    expect(runtime.boots).toBe(1);
    await Promise.all([a.dispose(), b.dispose()]);
  }, 60_000);

  it('a hang kills the shared interpreter; the environment parked beside it moves and plays on exactly', async () => {
    const runtime = runtimeBooting(2);
    const a = await load(runtime, COUNTER);
    await a.reset(3);
    const before = await steps(a, 2);
    const hung = await load(runtime, HANG);
    await hung.reset(1);
    await expect(hung.step('go', { timeoutMs: 300 })).rejects.toThrow(/step to return within 300 ms/);
    expect(runtime.restarts).toBe(1);
    // Its replay on the second interpreter gave the same replies (the random stream included), so it goes on.
    const after = await steps(a, 2);
    expect(totals([...before, ...after])).toEqual(['total 1', 'total 2', 'total 3', 'total 4']);
    expect(runtime.boots).toBe(2);
    await a.dispose();
  }, 60_000);

  it('a hang beside an environment: its calls move to an interpreter with room and go on during the hang', async () => {
    const { runtime, allow } = runtimeGated();
    const a = await load(runtime, COUNTER);
    await a.reset(3);
    const before = await steps(a, 2);
    const hung = await load(runtime, HANG);
    await hung.reset(1);
    allow();
    await runtime.whenSpareReady();
    let hangSettled = false;
    const hang = hung.step('go', { timeoutMs: 6000 }).finally(() => (hangSettled = true));
    const after = await steps(a, 2);
    expect(hangSettled).toBe(false);
    expect(totals([...before, ...after])).toEqual(['total 1', 'total 2', 'total 3', 'total 4']);
    await expect(hang).rejects.toThrow(/step to return within 6000 ms/);
    expect(runtime.boots).toBe(2);
    await a.dispose();
  }, 60_000);

  it('an environment whose replies no seed decides fails with why when its interpreter is lost', async () => {
    const runtime = runtimeBooting(2);
    const a = await load(runtime, UNSEEDED);
    await a.reset(3);
    await steps(a, 1);
    const hung = await load(runtime, HANG);
    await hung.reset(1);
    await expect(hung.step('go', { timeoutMs: 300 })).rejects.toThrow(/step_timeout|within 300 ms/);
    await expect(a.step('go', { timeoutMs: 20_000 })).rejects.toThrow(/not deterministic given its seed/);
  }, 60_000);

  it.each([
    ['a file written', WRITER],
    ['150 MB of changed memory', HOG],
  ])(
    'a state that cannot be parked (%s) keeps its interpreter alone; the one beside it moves and plays on',
    async (_, code) => {
      const runtime = runtimeBooting(2);
      const a = await load(runtime, COUNTER);
      await a.reset(2);
      const before = await steps(a, 1);
      const pinned = await load(runtime, code);
      await pinned.reset(1);
      const after = await steps(a, 1);
      expect(totals([...before, ...after])).toEqual(['total 1', 'total 2']);
      expect(totals(await steps(pinned, 2))).toEqual(['total 1', 'total 2']);
      expect(runtime.boots).toBe(2);
      expect(runtime.restarts).toBe(0);
      await Promise.all([a.dispose(), pinned.dispose()]);
    },
    60_000,
  );

  it("a neighbour's long call does not count toward the time limit of a call waiting behind it", async () => {
    const runtime = runtimeBooting(1);
    const [slow, quick] = [await load(runtime, SLOW), await load(runtime, COUNTER)];
    await Promise.all([slow.reset(1), quick.reset(1)]);
    const started = performance.now();
    const slowStep = slow.step('go', { timeoutMs: 20_000 });
    const quickStep = quick.step('go', { timeoutMs: 150 });
    await expect(quickStep).resolves.toMatchObject({ observation: expect.stringMatching(/^total 1 /) });
    await slowStep;
    // The quick call waited for the slow one (a shared interpreter runs one call at a time).
    expect(performance.now() - started).toBeGreaterThan(150);
    await Promise.all([slow.dispose(), quick.dispose()]);
  }, 60_000);
});
