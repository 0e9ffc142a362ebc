import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import {
  clampTurn,
  loadEnvPage,
  memoryProvenance,
  pairEpisodes,
  playSeeds,
  replayFrames,
  rescoreWithRunModel,
} from '../../src/app/explorer/env-page.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import type { MemoryRecord } from '../../src/core/loop/memory.ts';
import { scriptedEpochs, testMeta, TEST_CONFIG } from '../adapters/store/store-fixtures.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';

// The view data, the store or the re-score is the point, not Python: the scripted games run as in-process doubles.
const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);

let epochs: EpochResult[];
let store: MemoryRunStore;
beforeAll(async () => {
  epochs = await scriptedEpochs(sandbox, 2);
  store = new MemoryRunStore(() => 0);
  await store.createRun(testMeta('r'));
  for (const e of epochs) await store.commitEpoch('r', e);
});

describe('environment page data', () => {
  it('loads an environment with its episodes and the run state, or null', async () => {
    const data = (await loadEnvPage(store, 'r', 'e0001-s00'))!;
    expect(data.env.id).toBe('e0001-s00');
    expect(data.episodes.map((e) => e.id)).toEqual(
      epochs[1]!.episodes.filter((e) => e.envId === 'e0001-s00').map((e) => e.id),
    );
    expect(data.state).toEqual(epochs[1]!.nextState);
    expect(await loadEnvPage(store, 'r', 'e0099-s00')).toBeNull();
    expect(await loadEnvPage(store, 'missing', 'e0001-s00')).toBeNull();
  });

  it('pairs the plays of each seed, without and with the hint; later rollouts apart', async () => {
    const data = (await loadEnvPage(store, 'r', 'e0000-s00'))!;
    const { pairs, extra } = pairEpisodes(data.episodes);
    expect(pairs.map((p) => [p.index, p.seed, p.nohint?.arm, p.hint?.arm, p.nohint?.seed === p.hint?.seed])).toEqual([
      [0, data.episodes[0]!.seed, 'nohint', 'hint', true],
      [1, data.episodes[1]!.seed, 'nohint', 'hint', true],
    ]);
    expect(extra).toEqual([]);
    const later = { ...data.episodes[0]!, id: 'x', rollout: 1 };
    expect(pairEpisodes([...data.episodes, later]).extra).toEqual([later]);
  });

  it('replays an episode as frames: the first observation, then reply, action, reward and observation per turn', async () => {
    const data = (await loadEnvPage(store, 'r', 'e0000-s00'))!;
    const hinted = data.episodes.find((e) => e.arm === 'hint')!;
    const frames = replayFrames(hinted);
    expect(frames).toHaveLength(hinted.turns.length + 1);
    expect(frames[0]).toEqual({
      turn: 0,
      reply: null,
      action: null,
      reward: null,
      rewardNote: null,
      observation: hinted.firstObservation,
      terminated: false,
      truncated: false,
    });
    expect(frames[0]!.observation).toContain('\n\nHINT: ');
    const t = hinted.turns[0]!;
    expect(frames[1]).toEqual({
      turn: 1,
      reply: t.reply,
      action: t.action,
      reward: t.reward,
      rewardNote: null,
      observation: t.observation,
      terminated: t.terminated,
      truncated: t.truncated,
    });
    expect([clampTurn(-1, 3), clampTurn(7, 3), clampTurn(1, 3)]).toEqual([0, 2, 1]);
  });

  it('replays a stored non-finite reward as the environment returned it, with how it was scored', async () => {
    const data = (await loadEnvPage(store, 'r', 'e0000-s00'))!;
    const played = data.episodes.find((e) => e.arm === 'nohint')!;
    const last = played.turns.length - 1;
    const withNaN = {
      ...played,
      error: null,
      turns: played.turns.map((t, i) =>
        i === last ? { ...t, reward: Number.NaN, nonfiniteReward: 'nan' as const, terminated: true } : t,
      ),
    };
    const stored = JSON.parse(JSON.stringify(withNaN)) as typeof withNaN;
    expect(stored.turns[last]!.reward).toBeNull();
    const frame = replayFrames(stored)[last + 1]!;
    expect(frame.reward).toBeNaN();
    expect(frame.rewardNote).toBe(
      'scored as a return of 1: the return is max(-1, min(1, reward)), which gives 1 for nan',
    );
  });

  it('names what memory showed the designer, and whether the environment is in memory now', async () => {
    const data = (await loadEnvPage(store, 'r', 'e0000-s00'))!;
    const memory: MemoryRecord[] = [
      { envId: 'e0000-s00', skill: 'x', code: '', winRate: 0.5, regret: 1, epoch: 0 },
      { envId: 'p1', skill: 'x', code: '', winRate: 0.95, regret: 0, epoch: 0 },
    ];
    const env = { ...data.env, memoryShown: { positives: ['p1', 'gone'], negative: 'p1' } };
    expect(memoryProvenance(env, memory)).toEqual({
      shown: [
        { envId: 'p1', role: 'positive', record: memory[1] },
        { envId: 'gone', role: 'positive', record: null },
        { envId: 'p1', role: 'negative', record: memory[1] },
      ],
      inMemory: memory[0],
    });
  });

  it("offers the seeds of the agent's plays, or the run's schedule when there are none", async () => {
    const data = (await loadEnvPage(store, 'r', 'e0000-s00'))!;
    expect(playSeeds(data)).toEqual(data.episodes.filter((e) => e.arm === 'nohint').map((e) => e.seed));
    expect(playSeeds({ ...data, episodes: [] })).toEqual(playSeeds(data));
  });
});

describe("re-scoring with the run's model", () => {
  it("restores the run's model snapshot, reports progress per episode, and reproduces the stored scores", async () => {
    const data = (await loadEnvPage(store, 'r', 'e0001-s00'))!;
    const restored: unknown[] = [];
    const model = new ScriptedChatModel(SCRIPT);
    const restore = model.restore.bind(model);
    model.restore = (snapshot) => (restored.push(snapshot), restore(snapshot));
    const progress: string[] = [];
    const result = await rescoreWithRunModel(
      { model: async (meta) => (expect(meta.id).toBe('r'), model), sandbox },
      data,
      data.env.code,
      (done, total) => progress.push(`${done}/${total}`),
    );
    expect(restored).toEqual([data.state.modelSnapshot]);
    expect(progress).toEqual(['1/4', '2/4', '3/4', '4/4']);
    expect(TEST_CONFIG.playsPerArm).toBe(2);
    expect(result.stats.regret).toBe(data.env.stats!.regret);
    expect(result.stats.winRate).toBe(data.env.stats!.winRate);
  });
});
