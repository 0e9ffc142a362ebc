// The run controller's side of issue 13: scheduled evaluations and the playbook inside epochs,
// fixed-pool runs (also resumed), and "Evaluate now" with its progress and cancel. In-process
// doubles of the hint-helps games; no Python runs.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { epochProgress } from '../../src/app/run/progress.ts';
import { RunController, type RunControllerDeps } from '../../src/app/run/run-controller.svelte.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { Suite } from '../../src/core/eval/suite.ts';
import { fakeSandbox, withDelays } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { FIXED_POOL, HELD_OUT_SUITE, LESSON_SCRIPT, LESSON_TEXT } from './experiment-fixtures.ts';

const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  skills: ['Logical Deduction'],
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  useCorpus: false,
};
const sandbox = withDelays(fakeSandbox(HINT_HELPS_DOUBLES), () => 2);

function deps(store: MemoryRunStore, suite: Suite = HELD_OUT_SUITE): RunControllerDeps {
  const locks = new Set<string>();
  return {
    store,
    sandbox: () => sandbox,
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => new ScriptedChatModel(LESSON_SCRIPT),
    suite: async () => suite,
    lock: async (id) => {
      if (locks.has(id)) return null;
      locks.add(id);
      return () => void locks.delete(id);
    },
    schedule: (flush) => setTimeout(flush, 0),
  };
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

describe('a run with the playbook and an evaluation every epoch', () => {
  it('records its suite, evaluates before and after the epoch, learns a lesson with its source, and shows both live', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'e',
      config: { ...CONFIG, usePlaybook: true, evalEvery: 1 },
      modelId: 'scripted:lessons',
      epochsPlanned: 1,
    });
    expect(meta.evalSuite).toEqual({ name: 'builtin', sha256: HELD_OUT_SUITE.sha256 });
    expect(meta.fixedPool).toBeUndefined();
    const seen: string[] = [];
    await controller.start();
    await until(() => {
      const p = controller.evaluation;
      if (p && !seen.includes(`${p.afterEpochs}:${p.done}`)) seen.push(`${p.afterEpochs}:${p.done}`);
      return controller.status === 'completed';
    }, 'completion');
    expect(seen[0]).toBe('0:0');
    expect(seen).toContain('1:4');
    const evaluations = await store.evaluationsOf(meta.id);
    expect(evaluations.map((e) => [e.afterEpochs, e.epoch, e.trigger, e.episodes, e.wins, e.playbook])).toEqual([
      [0, 0, 'schedule', 4, 2, true],
      [1, 0, 'schedule', 4, 2, true],
    ]);
    expect(evaluations.map((e) => e.lessonsShown)).toEqual([0, 2]);
    expect(controller.evaluation).toMatchObject({
      trigger: 'schedule',
      afterEpochs: 1,
      phase: 'done',
      done: 4,
      total: 4,
      wins: 2,
    });
    expect(controller.live!.lessons).toEqual([
      expect.objectContaining({
        envId: 'e0000-s00',
        problem: null,
        lesson: expect.objectContaining({ text: LESSON_TEXT }),
      }),
    ]);
    expect((await store.loadRun(meta.id))!.state.playbook).toEqual([
      expect.objectContaining({ id: 'L-e0000-s00', origin: 'learned', sourceEnvId: 'e0000-s00', status: 'active' }),
    ]);
  });

  it('says so when the held-out suite changed since the run recorded it, and records the new one', async () => {
    const store = new MemoryRunStore();
    const first = new RunController(deps(store));
    const meta = await first.create({
      name: 's',
      config: { ...CONFIG, evalEvery: 1 },
      modelId: 'scripted:lessons',
      epochsPlanned: 2,
    });
    const changed = { ...HELD_OUT_SUITE, sha256: 'c'.repeat(64), environments: HELD_OUT_SUITE.environments.slice(1) };
    const second = new RunController(deps(store, changed));
    await second.open(meta.id);
    await second.start();
    await until(() => second.status === 'completed', 'completion');
    expect(second.notice).toContain(
      `The held-out suite changed since this run last recorded it (builtin ${'a'.repeat(12)}, now ${'c'.repeat(12)})`,
    );
    expect((await store.loadRun(meta.id))!.meta.evalSuite).toEqual({ name: 'builtin', sha256: 'c'.repeat(64) });
    expect((await store.evaluationsOf(meta.id)).map((e) => e.suiteSha256)).toEqual([
      'c'.repeat(64),
      'c'.repeat(64),
      'c'.repeat(64),
    ]);
  });
});

describe('a fixed-pool run (the baseline without a designer)', () => {
  it('records its pool, plays it in turn instead of designing, and continues from it after a reload', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'p',
      config: { ...CONFIG, slotsPerEpoch: 1 },
      modelId: 'scripted:lessons',
      epochsPlanned: 2,
      fixedPool: FIXED_POOL,
    });
    expect(meta.fixedPool).toEqual({
      name: 'starter',
      sha256: FIXED_POOL.sha256,
      environments: FIXED_POOL.environments,
    });
    expect(meta.evalSuite).toBeUndefined();
    await controller.start();
    await until(() => controller.history.length === 1 && controller.stage === 'play', 'second epoch playing');
    controller.abort();
    await until(() => controller.status === 'aborted', 'abort');

    const reloaded = new RunController(deps(store));
    await reloaded.open(meta.id);
    await reloaded.start();
    await until(() => reloaded.status === 'completed', 'completion after the reload');
    expect(reloaded.live!.slots.map((s) => [s.envId, s.poolId, s.attempts.length])).toEqual([
      ['e0001-s00', 'pool_door', 0],
    ]);
    expect(epochProgress(reloaded.live!, meta.config)).toMatchObject({
      slots: 1,
      slotsDone: 1,
      attempts: 0,
      playsDone: 4,
      plays: 4,
      fraction: 1,
    });
    const envs = await store.queryEnvironments(meta.id);
    expect(envs.map((e) => [e.id, e.poolId, e.difficulty, e.status])).toEqual([
      ['e0000-s00', 'pool_glow', 'fixed pool', 'valid'],
      ['e0001-s00', 'pool_door', 'fixed pool', 'valid'],
    ]);
  });
});

describe('Evaluate now', () => {
  it('stores an on-demand evaluation of the agent as it is (its playbook included) after the epochs it has', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'd',
      config: { ...CONFIG, usePlaybook: true },
      modelId: 'scripted:lessons',
      epochsPlanned: 1,
    });
    await controller.start();
    await until(() => controller.status === 'completed', 'completion');
    expect(await store.evaluationsOf(meta.id)).toEqual([]);
    await controller.evaluateNow();
    expect(controller.evaluation).toMatchObject({
      trigger: 'demand',
      afterEpochs: 1,
      phase: 'done',
      done: 4,
      total: 4,
      error: null,
    });
    expect(controller.evaluationsStored).toBe(1);
    const [stored] = await store.evaluationsOf(meta.id);
    expect(stored).toMatchObject({
      trigger: 'demand',
      afterEpochs: 1,
      epoch: 0,
      suiteSha256: HELD_OUT_SUITE.sha256,
      playbook: true,
      lessonsShown: 2,
      episodes: 4,
    });
  });

  it('does nothing while the run runs, and a cancel stops it before the next play and stores nothing', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({ name: 'c', config: CONFIG, modelId: 'scripted:lessons', epochsPlanned: 1 });
    await controller.start({ paused: true });
    await controller.evaluateNow();
    expect(controller.evaluation).toBeNull();
    controller.resume();
    await until(() => controller.status === 'completed', 'completion');

    const evaluating = controller.evaluateNow();
    expect(controller.evaluating).toBe(true);
    await until(() => (controller.evaluation?.done ?? 0) >= 1, 'the first held-out play');
    await controller.start();
    expect(controller.status).toBe('completed');
    controller.cancelEvaluation();
    await evaluating;
    expect(controller.evaluation).toMatchObject({ trigger: 'demand', phase: 'cancelled' });
    expect(controller.evaluation!.done).toBeLessThan(4);
    expect(controller.evaluating).toBe(false);
    expect(await store.evaluationsOf(meta.id)).toEqual([]);
  });
});
