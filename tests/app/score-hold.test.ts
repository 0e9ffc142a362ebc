import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { RunController } from '../../src/app/run/run-controller.svelte.ts';
import { createLiveEpoch, type LiveEpoch } from '../../src/app/run/live-epoch.ts';
import {
  holdMs,
  holdText,
  keepRecent,
  readScoreHold,
  RECENT_EPOCHS,
  saveScoreHold,
  type ScoreHold,
} from '../../src/app/run/score-hold.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { fakeSandbox, withDelays } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { HELD_OUT_SUITE } from './experiment-fixtures.ts';

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

function controller(hold: ScoreHold): { runs: RunController; store: MemoryRunStore } {
  const store = new MemoryRunStore();
  const runs = new RunController({
    store,
    sandbox: () => withDelays(fakeSandbox(HINT_HELPS_DOUBLES), () => 1),
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => new ScriptedChatModel(SCRIPT),
    suite: async () => HELD_OUT_SUITE,
    schedule: (flush) => setTimeout(flush, 0),
    scoreHold: () => hold,
  });
  return { runs, store };
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

function done(epoch: number): LiveEpoch {
  return { ...createLiveEpoch(epoch, [{ slot: 0, skill: 'Logic' }]), stage: 'done' };
}

describe('holding an epoch final scores', () => {
  it('keeps the scores of a finished epoch on screen until Next epoch now, then runs the next epoch and keeps the finished one reachable', async () => {
    const { runs, store } = controller('click');
    const meta = await runs.create({ name: 'held', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 2 });
    await runs.start();
    await until(() => runs.held !== null, 'the hold');
    expect(runs.held).toEqual({ next: 1, until: null });
    await new Promise((resolve) => setTimeout(resolve, 100));
    // Still the first epoch's final scores: the second epoch has not started.
    expect(runs.live).toMatchObject({ epoch: 0, stage: 'done' });
    expect(runs.live!.slots.every((s) => s.stats !== null)).toBe(true);
    expect((await store.loadRun(meta.id))!.meta.epochsCompleted).toBe(1);
    runs.continueNow();
    await until(() => runs.status === 'completed', 'completion');
    expect(runs.held).toBeNull();
    expect(runs.live!.epoch).toBe(1);
    expect(runs.recent.map((e) => [e.epoch, e.stage, e.slots.every((s) => s.stats !== null)])).toEqual([
      [0, 'done', true],
    ]);
  });

  it('ends a timed hold by itself, holds nothing after the last epoch, and an abort ends a hold at once', async () => {
    const timed = controller('5s');
    await timed.runs.create({ name: 'timed', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 2 });
    const started = Date.now();
    await timed.runs.start();
    await until(() => timed.runs.held !== null, 'the timed hold');
    expect(timed.runs.held!.until! - Date.now()).toBeGreaterThan(4_000);
    await until(() => timed.runs.status === 'completed', 'completion after the hold', 20_000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_000);
    expect(timed.runs.held).toBeNull();

    const stopped = controller('click');
    await stopped.runs.create({ name: 'stopped', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 3 });
    await stopped.runs.start();
    await until(() => stopped.runs.held !== null, 'the hold');
    stopped.runs.abort();
    await until(() => stopped.runs.status === 'aborted', 'the abort');
    expect(stopped.runs.held).toBeNull();
    expect(stopped.runs.meta!.epochsCompleted).toBe(1);
  });

  it('runs straight on without a hold', async () => {
    const { runs } = controller('off');
    await runs.create({ name: 'off', config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 2 });
    let seen = false;
    await runs.start();
    await until(() => {
      seen ||= runs.held !== null;
      return runs.status === 'completed';
    }, 'completion');
    expect(seen).toBe(false);
  });
});

describe('score hold settings and the epochs kept', () => {
  it('reads a saved hold, falls back to the default on anything else, and gives each hold its length', () => {
    const saved = new Map<string, string>();
    const storage = {
      getItem: (k: string) => saved.get(k) ?? null,
      setItem: (k: string, v: string) => void saved.set(k, v),
    };
    expect(readScoreHold(storage)).toBe('5s');
    saveScoreHold(storage, 'click');
    expect(readScoreHold(storage)).toBe('click');
    saved.set('spade-lab-score-hold', 'forever');
    expect(readScoreHold(storage)).toBe('5s');
    expect(['off', '5s', '15s', 'click'].map((h) => holdMs(h as ScoreHold))).toEqual([0, 5_000, 15_000, null]);
  });

  it('keeps the last completed epochs, newest last, and never an unfinished or halted one', () => {
    let recent: LiveEpoch[] = [];
    for (let epoch = 0; epoch < RECENT_EPOCHS + 2; epoch += 1) recent = keepRecent(recent, done(epoch));
    expect(recent.map((e) => e.epoch)).toEqual([2, 3, 4, 5, 6]);
    expect(keepRecent(recent, createLiveEpoch(7, [])).map((e) => e.epoch)).toEqual([2, 3, 4, 5, 6]);
    expect(keepRecent(recent, { ...done(7), halted: 'aborted' }).length).toBe(RECENT_EPOCHS);
    expect(keepRecent([], null)).toEqual([]);
  });

  it('says how long the scores stay, in whole seconds, or that the button starts the next epoch', () => {
    expect(holdText(1, 4_200)).toBe('Scores held: epoch 2 starts in 5 s.');
    expect(holdText(1, -30)).toBe('Scores held: epoch 2 starts in 1 s.');
    expect(holdText(2, null)).toBe('Scores held: epoch 3 starts when you press Next epoch now.');
  });
});
