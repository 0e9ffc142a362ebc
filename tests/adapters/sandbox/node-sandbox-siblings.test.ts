// Interpreters of the Node sandbox share a host process (each a worker thread): one environment
// must never affect another's verdict. Each test puts an attacker and a sibling in the same host
// process, attacks while the sibling plays, and checks the sibling's episode plays exactly as it
// did alone and the host process lives on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime, spawnNodeSandbox } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { GOOD_ENVS, loadGoodEnv, playEpisode, readEnv, type Transcript } from '../../fixtures/env-fixtures.ts';
import { isRunning, runningThreads, sandboxChildren, waitUntil } from '../../fixtures/sandbox/sandbox-pids.ts';

const LADDER = GOOD_ENVS[0]!;
// Long enough that the sibling's whole episode fits inside it on a loaded machine.
const HANG_TIMEOUT_MS = 8000;
// Rounds of the slow sibling's step: a few tenths of a second to seconds of Python.
const SPIN = '\\boxed{spin 1500000}';

// Few spares and few kept, so every interpreter of this file fits one host process.
let runtime: PyodideSandboxRuntime;
let alone: Transcript;
let slowAlone: Transcript;

beforeAll(async () => {
  runtime = createNodeSandboxRuntime({ spares: 2, kept: 3, bootsAtOnce: 1 });
  const [ladder, slow] = [await loadGoodEnv(runtime, LADDER), await loadSibling('slow_checksum.py')];
  alone = await playEpisode(ladder, LADDER.seed, LADDER.winning);
  slowAlone = await playEpisode(slow, 5, [SPIN, SPIN, SPIN]);
  await Promise.all([ladder.dispose(), slow.dispose()]);
}, 120_000);

afterAll(async () => {
  await runtime.close();
});

function loadSibling(file: string): Promise<EnvHandle> {
  return runtime.load(readEnv('hostile', `siblings/${file}`), { maxTurns: 5, timeoutMs: 10_000 });
}

// How a promise ended, readable before it ends: `done` turns true once it settled.
function watch(promise: Promise<unknown>): { done: boolean; outcome: Promise<unknown> } {
  const watched = {
    done: false,
    outcome: promise.then(
      (value) => ({ resolved: value }),
      (error: unknown) => error,
    ),
  };
  void watched.outcome.then(() => (watched.done = true));
  return watched;
}

// The EnvError code an attack ended with ('resolved' if it did not fail).
async function codeOf(outcome: Promise<unknown>): Promise<string> {
  const error = await outcome;
  if (isEnvError(error)) return error.code;
  return error && typeof error === 'object' && 'resolved' in error ? 'resolved' : `not an EnvError: ${String(error)}`;
}

// The one host process of this file's interpreters.
function theHost(): number {
  const hosts = sandboxChildren(process.pid);
  expect(hosts).toHaveLength(1);
  return hosts[0]!;
}

interface Attack {
  name: string;
  file: string;
  /** The hostile call, made on the loaded attacker. */
  attack(handle: EnvHandle): Promise<unknown>;
  /** The code it ends with. */
  code: string;
}

const ATTACKS: Attack[] = [
  {
    name: 'os._exit in step',
    file: 'siblings/os_exit_step.py',
    attack: async (handle) => {
      await handle.reset(1);
      return handle.step('\\boxed{go}', { timeoutMs: 10_000 });
    },
    code: 'process_exit',
  },
  {
    name: 'sys.exit in reset',
    file: '../broken/sys_exit_reset.py',
    attack: (handle) => handle.reset(1, { timeoutMs: 10_000 }),
    code: 'process_exit',
  },
  {
    name: 'a memory bomb in reset',
    file: 'memory_bomb.py',
    attack: (handle) => handle.reset(1, { timeoutMs: 30_000 }),
    code: 'memory_exhausted',
  },
  {
    name: 'unbounded recursion with the recursion limit lifted',
    file: 'siblings/deep_recursion.py',
    attack: (handle) => handle.reset(1, { timeoutMs: 30_000 }),
    code: 'sandbox_crashed',
  },
  {
    name: 'a 64 MB observation',
    file: '../broken/huge_observation.py',
    attack: (handle) => handle.reset(1, { timeoutMs: 30_000 }),
    code: 'output_too_large',
  },
];

describe('an attacker in the same host process as a sibling', () => {
  it.each(ATTACKS)('$name: the sibling plays to the same result as alone', async ({ file, attack, code }) => {
    const sibling = await loadGoodEnv(runtime, LADDER);
    const attacker = await runtime.load(readEnv('hostile', file), { maxTurns: 5, timeoutMs: 10_000 });
    const host = theHost();
    const attacked = watch(attack(attacker));
    const transcript = await playEpisode(sibling, LADDER.seed, LADDER.winning);
    expect(await codeOf(attacked.outcome)).toBe(code);
    expect(transcript).toEqual(alone);
    expect(isRunning(host)).toBe(true);
    // After the attack, too: the same interpreter plays its episode again, as alone.
    expect(await playEpisode(sibling, LADDER.seed, LADDER.winning)).toEqual(alone);
    await Promise.all([sibling.dispose(), attacker.dispose()]);
  });

  it('a hang: the sibling answers every call during it, before the hang is killed at its own timeout', async () => {
    const sibling = await loadGoodEnv(runtime, LADDER);
    const hanging = await runtime.load(readEnv('broken', 'hang_step.py'), { maxTurns: 5, timeoutMs: 10_000 });
    await hanging.reset(1);
    const host = theHost();
    const restartsBefore = runtime.restarts;
    const hang = watch(hanging.step('\\boxed{1}', { timeoutMs: HANG_TIMEOUT_MS }));
    const transcript = await playEpisode(sibling, LADDER.seed, LADDER.winning);
    expect(hang.done).toBe(false);
    expect(transcript).toEqual(alone);
    expect(await codeOf(hang.outcome)).toBe('step_timeout');
    expect(runtime.restarts).toBe(restartsBefore + 1);
    // The hang ended its thread, not the host process; once the replacement has booted, nothing in it runs.
    expect(isRunning(host)).toBe(true);
    expect(await waitUntil(() => runningThreads(host) === 0, 20_000)).toBe(true);
    expect(await playEpisode(sibling, LADDER.seed, LADDER.winning)).toEqual(alone);
    await sibling.dispose();
  }, 60_000);

  it("a memory siege during a sibling's long call: the call's result is the same as alone", async () => {
    const sibling = await loadSibling('slow_checksum.py');
    const besieger = await loadSibling('memory_siege.py');
    theHost();
    const first = (await sibling.reset(5)).observation;
    const slowCall = watch(sibling.step(SPIN, { timeoutMs: 60_000 }));
    const siege = watch(besieger.reset(1, { timeoutMs: 60_000 }));
    const outcome = (await slowCall.outcome) as { resolved: Awaited<ReturnType<EnvHandle['step']>> };
    // The siege (several seconds at the cap) outlasted the sibling's call (under a second alone).
    expect(siege.done).toBe(false);
    const results = [outcome.resolved];
    for (let i = 0; i < 2; i += 1) results.push(await sibling.step(SPIN, { timeoutMs: 60_000 }));
    // The siege either held out (each MemoryError caught) or was stopped; never another interpreter's business.
    expect(['resolved', 'memory_exhausted', 'sandbox_crashed']).toContain(await codeOf(siege.outcome));
    const steps = results.map(({ observation, reward, terminated, truncated }) => ({
      action: SPIN,
      observation,
      reward,
      terminated,
      truncated,
    }));
    expect({ first, steps }).toEqual(slowAlone);
    await Promise.all([sibling.dispose(), besieger.dispose()]);
  }, 120_000);

  it('a flood of calls to one interpreter: every reply reaches its own call, and the sibling plays as alone', async () => {
    const sibling = await loadGoodEnv(runtime, LADDER);
    const flooded = await spawnNodeSandbox();
    try {
      theHost();
      const code = readEnv('good', LADDER.file);
      const call = async (body: object) => String(await flooded.call(JSON.stringify({ ...body, maxChars: 100_000 })));
      expect(await call({ op: 'load', code, maxTurns: 12, toolBaseAids: true })).toMatch(/"ok": ?true/);
      const seeds = Array.from({ length: 1500 }, (_, i) => i);
      const flood = Promise.all([
        ...seeds.map((seed) => call({ op: 'reset', seed, coerce: false })),
        ...seeds.map(() => flooded.call('not a request')),
      ]);
      const transcript = await playEpisode(sibling, LADDER.seed, LADDER.winning);
      const replies = await flood;
      expect(transcript).toEqual(alone);
      // Each reset's reply is the one its own seed gives when asked alone.
      for (const seed of [0, 1, 7, 700, 1499])
        expect(replies[seed]).toBe(await call({ op: 'reset', seed, coerce: false }));
      expect(new Set(replies.slice(0, seeds.length)).size).toBeGreaterThan(1);
    } finally {
      flooded.kill();
      await sibling.dispose();
    }
  }, 60_000);
});
