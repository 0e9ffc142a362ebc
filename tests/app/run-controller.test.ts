import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { RunController, type RunControllerDeps } from '../../src/app/run/run-controller.svelte.ts';
import type { ChatModel } from '../../src/core/ports/chat-port.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { GroundingCorpus } from '../../src/core/loop/corpus.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import { StoreQuotaError } from '../../src/core/ports/store-errors.ts';
import { fakeSandbox, withDelays } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { HELD_OUT_SUITE, LESSON_SCRIPT } from './experiment-fixtures.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
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

// The controller is the point here, not Python: the script's two games as in-process doubles.
// Every call takes a macrotask (2 ms), as a real sandbox's round trip does, so an epoch takes long
// enough for the tests to catch it mid-stage.
const sandbox = withDelays(fakeSandbox(HINT_HELPS_DOUBLES), () => 2);

function deps(store: MemoryRunStore, locks = new Set<string>()): RunControllerDeps {
  return {
    store,
    sandbox: () => sandbox,
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => new ScriptedChatModel(SCRIPT),
    suite: async () => HELD_OUT_SUITE,
    lock: async (id) => {
      if (locks.has(id)) return null;
      locks.add(id);
      return () => void locks.delete(id);
    },
    schedule: (flush) => setTimeout(flush, 0),
  };
}

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('RunController', () => {
  it('runs the planned epochs, commits each, and shows the live epoch', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'demo',
      config: CONFIG,
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await controller.start();
    await until(() => controller.status === 'completed', 'completion');
    expect(controller.history.map((m) => m.epoch)).toEqual([0, 1]);
    expect((await store.loadRun(meta.id))!.meta).toMatchObject({ status: 'completed', epochsCompleted: 2 });
    expect(controller.live!.stage).toBe('done');
    expect(controller.live!.epoch).toBe(1);
    expect(controller.live!.slots[0]!.attempts[0]!.reply).toContain('class DoorWordEnv');
    expect(controller.live!.slots[0]!.stats).not.toBeNull();
  });

  it('pauses before the next unit, steps exactly one unit, resumes', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    await controller.create({ name: 'p', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 1 });
    await controller.start({ paused: true });
    await until(() => controller.stage === 'design', 'first gate');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(controller.live!.slots[0]!.attempts).toHaveLength(0);
    expect(controller.stepping).toBe(false);
    expect(controller.step()).toBe(true);
    expect(controller.stepping).toBe(true);
    // A second step while the first one's unit runs is refused, not queued.
    expect(controller.step()).toBe(false);
    await until(() => !controller.stepping, 'the step done');
    expect(controller.live!.slots[0]!.phase).toBe('valid');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(controller.live!.slots[1]!.attempts).toHaveLength(0);
    expect(controller.stage).toBe('design');
    controller.resume();
    await until(() => controller.status === 'completed', 'completion');
    expect(controller.history).toHaveLength(1);
  });

  it('shows a step running until its unit is done, for every kind of unit (design, hint, play, scoring), one unit per step at any concurrency', async () => {
    const store = new MemoryRunStore();
    // The script as a model that takes eight calls at once (steps run one unit at a time, so its replies come in the same order).
    const concurrent = async (): Promise<ChatModel> => {
      const model = new ScriptedChatModel(SCRIPT);
      return {
        id: model.id,
        maxConcurrency: 8,
        complete: (request) => model.complete(request),
        snapshot: () => model.snapshot(),
        restore: (saved) => model.restore(saved),
      };
    };
    const controller = new RunController({ ...deps(store), model: concurrent });
    await controller.create({
      name: 's',
      config: { ...CONFIG, concurrency: 8 },
      modelId: 'scripted:hint-helps',
      epochsPlanned: 1,
    });
    expect(controller.step()).toBe(false);
    await controller.start({ paused: true });
    await until(() => controller.stage === 'design', 'first gate');
    const finished = () =>
      controller.live!.slots.reduce((n, s) => n + s.plays.filter((p) => p.return !== null).length, 0);
    const stages: string[] = [];
    let steps = 0;
    while (controller.status === 'paused') {
      const before = { plays: finished(), stage: controller.stage! };
      expect(controller.step()).toBe(true);
      steps += 1;
      expect(controller.stepping).toBe(true);
      expect(controller.step()).toBe(false);
      await until(() => !controller.stepping || controller.status !== 'paused', `step ${steps} done`);
      stages.push(before.stage);
      // A play step finishes exactly one play; nothing else started meanwhile.
      if (before.stage === 'play') expect(finished()).toBe(before.plays + 1);
      else expect(finished()).toBe(before.plays);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    expect(controller.status).toBe('completed');
    expect(controller.stepping).toBe(false);
    const plays = CONFIG.slotsPerEpoch * (CONFIG.playsPerArm + CONFIG.hintPlays);
    expect(stages.filter((s) => s === 'play')).toHaveLength(plays);
    expect(stages.filter((s) => s === 'hint')).toHaveLength(CONFIG.slotsPerEpoch);
    expect(stages.filter((s) => s === 'score')).toHaveLength(1);
    expect(new Set(stages)).toEqual(new Set(['design', 'hint', 'play', 'score']));
  });

  it('abort discards the epoch in progress and keeps committed ones; the run resumes identically', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'a',
      config: CONFIG,
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await controller.start();
    await until(() => controller.history.length === 1 && controller.stage === 'play', 'second epoch playing');
    controller.abort();
    await until(() => controller.status === 'aborted', 'abort');
    expect((await store.loadRun(meta.id))!.state.epoch).toBe(1);
    expect(await store.metricsOf(meta.id)).toHaveLength(1);

    const reopened = new RunController(deps(store));
    await reopened.open(meta.id);
    await reopened.start();
    await until(() => reopened.status === 'completed', 'completion after resume');
    const resumed = await store.queryEnvironments(meta.id);

    const straight = new MemoryRunStore();
    const reference = new RunController(deps(straight));
    const other = await reference.create({
      name: 'b',
      config: CONFIG,
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await reference.start();
    await until(() => reference.status === 'completed', 'reference run');
    expect(JSON.stringify(resumed)).toBe(JSON.stringify(await straight.queryEnvironments(other.id)));
  });

  it('a failed run shows nothing in progress: no tokens/s, no slot designing or playing, nothing streaming', async () => {
    const store = new MemoryRunStore();
    let failing = false;
    const crashing = {
      ...deps(store),
      model: async () => {
        const model = new ScriptedChatModel(SCRIPT);
        return {
          id: model.id,
          complete: (request: Parameters<typeof model.complete>[0]) =>
            failing ? Promise.reject(new Error('the model crashed')) : model.complete(request),
        };
      },
    };
    const controller = new RunController(crashing);
    await controller.create({ name: 'f', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 2 });
    await controller.start();
    await until(() => controller.history.length === 1 && controller.live?.epoch === 1, 'second epoch started');
    expect(controller.piecesPerSecond).toBeGreaterThan(0);
    failing = true;
    await until(() => controller.status === 'failed', 'the failure');
    expect(controller.error).toBe('the model crashed');
    expect(controller.piecesPerSecond).toBe(0);
    expect(controller.stage).toBeNull();
    const live = controller.live!;
    expect(live.halted).toBe('failed');
    expect(
      live.slots.map((s) => s.phase).filter((p) => ['waiting', 'designing', 'valid', 'hinting', 'playing'].includes(p)),
    ).toEqual([]);
    expect(live.slots.flatMap((s) => [s.hintStreaming, ...s.plays.map((p) => p.streaming)]).join('')).toBe('');
  });

  it('a completed run given more epochs continues exactly as a run planned longer from the start', async () => {
    // The playbook and scheduled evaluations too: their state and schedule must carry across the extension.
    const config: Config = { ...CONFIG, usePlaybook: true, evalEvery: 2 };
    const learning = (store: MemoryRunStore) => ({
      ...deps(store),
      model: async () => new ScriptedChatModel(LESSON_SCRIPT),
    });
    const store = new MemoryRunStore();
    const controller = new RunController(learning(store));
    const meta = await controller.create({ name: 'x', config, modelId: 'scripted:hint-helps', epochsPlanned: 1 });
    await controller.start();
    await until(() => controller.status === 'completed' || controller.status === 'failed', 'the first epoch');
    expect(controller.error).toBeNull();
    await controller.extend(0);
    expect(controller.error).toBe('Give a whole number from 1 to 1000 of more epochs, got 0.');
    await controller.extend(2);
    expect(controller.meta).toMatchObject({ epochsPlanned: 3 });
    await until(() => controller.status === 'completed' || controller.status === 'failed', 'the extra epochs');
    expect(controller.error).toBeNull();
    expect((await store.loadRun(meta.id))!.meta).toMatchObject({
      status: 'completed',
      epochsCompleted: 3,
      epochsPlanned: 3,
    });

    const straight = new MemoryRunStore();
    const reference = new RunController(learning(straight));
    const other = await reference.create({ name: 'y', config, modelId: 'scripted:hint-helps', epochsPlanned: 3 });
    await reference.start();
    await until(() => reference.status === 'completed', 'the reference run');
    const recorded = async (s: MemoryRunStore, id: string) => {
      const environments = await s.queryEnvironments(id);
      const episodes = await Promise.all(environments.map((e) => s.episodesOf(id, e.id)));
      return JSON.stringify({
        environments,
        episodes,
        metrics: await s.metricsOf(id),
        rollouts: await s.rolloutsOf(id),
        evaluations: await s.evaluationsOf(id),
        state: (await s.loadRun(id))!.state,
      });
    };
    expect((await store.metricsOf(meta.id)).map((m) => m.epoch)).toEqual([0, 1, 2]);
    expect((await store.evaluationsOf(meta.id)).map((e) => e.afterEpochs)).toEqual([0, 2]);
    expect((await store.loadRun(meta.id))!.state.playbook?.length).toBeGreaterThan(0);
    expect(await recorded(store, meta.id)).toBe(await recorded(straight, other.id));
  });

  it('refuses to run a run another tab holds', async () => {
    const store = new MemoryRunStore();
    const locks = new Set<string>();
    const first = new RunController(deps(store, locks));
    const meta = await first.create({ name: 'l', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 1 });
    locks.add(meta.id);
    await first.start();
    expect(first.status).toBe('idle');
    expect(first.error).toContain('Another tab');
  });
});

/** A memory store whose disk is full until `full` is set to false: commitEpoch writes nothing and throws StoreQuotaError. */
class FullStore extends MemoryRunStore {
  full = true;
  override async commitEpoch(runId: string, result: EpochResult): Promise<void> {
    if (this.full) throw new StoreQuotaError(`epoch ${result.epoch + 1}`);
    return super.commitEpoch(runId, result);
  }
}

describe('RunController when storage is full', () => {
  it('stops with the quota message, keeps the run stopped at its last committed epoch, and continues once there is space', async () => {
    const store = new FullStore();
    store.full = false;
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'q',
      config: CONFIG,
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await controller.start();
    await until(() => controller.history.length === 1, 'first epoch committed');
    store.full = true;
    await until(() => controller.status === 'stopped', 'the quota stop');
    expect(controller.error).toMatch(
      /^Storage is full: epoch 2 did not fit .* the run stopped at its last committed epoch\. Free space/,
    );
    expect((await store.loadRun(meta.id))!.meta).toMatchObject({
      status: 'stopped',
      epochsCompleted: 1,
      lastError: controller.error,
    });
    expect(await store.metricsOf(meta.id)).toHaveLength(1);

    store.full = false;
    await controller.start();
    await until(() => controller.status === 'completed', 'completion after space was freed');
    expect(controller.error).toBeNull();
    expect((await store.metricsOf(meta.id)).map((m) => m.epoch)).toEqual([0, 1]);
  });
});

describe('RunController and the grounding corpus', () => {
  it('records the corpus of the first epoch, and says so when a later epoch would be grounded in another', async () => {
    const store = new MemoryRunStore();
    const first: GroundingCorpus = {
      docs: [{ id: 'a-1', text: 'Keys and doors: which key opens which door.' }],
      identity: { label: 'corpus A', documents: 1, sha256: 'aaa' },
    };
    const second: GroundingCorpus = {
      docs: [{ id: 'b-1', text: 'Words that open doors.' }],
      identity: { label: 'corpus B', documents: 1, sha256: 'bbb' },
    };
    let active = first;
    const grounded = { ...deps(store), corpus: async () => active };
    const controller = new RunController(grounded);
    const meta = await controller.create({
      name: 'g',
      config: { ...CONFIG, useCorpus: true },
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await controller.start();
    await until(() => controller.history.length === 1 && controller.stage === 'play', 'second epoch playing');
    expect(controller.notice).toBeNull();
    controller.abort();
    await until(() => controller.status === 'aborted', 'abort');
    expect((await store.loadRun(meta.id))!.meta.corpus).toEqual(first.identity);
    expect((await store.queryEnvironments(meta.id)).map((e) => e.docId)).toContain('a-1');

    active = second;
    const resumed = new RunController(grounded);
    await resumed.open(meta.id);
    await resumed.start();
    await until(() => resumed.status === 'completed', 'completion in the other corpus');
    expect(resumed.notice).toBe(
      "This run's earlier epochs were grounded in corpus A (1 documents); the active corpus is now corpus B (1 documents), so the epochs from here are grounded in it and will differ from a run that kept the first one. To keep the run consistent, switch the corpus back on the Runs view and continue.",
    );
    expect((await store.loadRun(meta.id))!.meta.corpus).toEqual(first.identity);
    expect((await store.queryEnvironments(meta.id, { epoch: 1 })).map((e) => e.docId)).toContain('b-1');
  });
});

describe('RunController after a crash', () => {
  it('reopens an interrupted run at its last committed epoch and says so', async () => {
    const store = new MemoryRunStore();
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'c',
      config: CONFIG,
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await controller.start();
    await until(() => controller.history.length === 1 && controller.stage === 'play', 'second epoch playing');
    const afterReload = new RunController(deps(store));
    await afterReload.open(meta.id);
    expect(afterReload.notice).toContain('interrupted during epoch 2');
    expect(afterReload.notice).toContain('Epoch 1 is saved;');
    expect(afterReload.history).toHaveLength(1);
    controller.abort();
    await until(() => controller.status === 'aborted', 'abort');
  });

  it('says no epoch is saved when it was interrupted during its first (never "Epochs 1 to 0")', async () => {
    const store = new MemoryRunStore();
    const meta = await new RunController(deps(store)).create({
      name: 'z',
      config: CONFIG,
      modelId: 'scripted:hint-helps',
      epochsPlanned: 2,
    });
    await store.updateRun(meta.id, { status: 'running' });
    const afterReload = new RunController(deps(store));
    await afterReload.open(meta.id);
    expect(afterReload.notice).toBe(
      'This run was interrupted during epoch 1 (the tab closed or crashed). No epoch is saved; the unfinished epoch was discarded. Continue runs it again with the same seeds.',
    );
  });
});
