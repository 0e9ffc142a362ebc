import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { evalSeed } from '../../../src/core/eval/evaluate.ts';
import type { Suite, SuiteEnvironment } from '../../../src/core/eval/suite.ts';
import { INITIAL_RUN_STATE, type EpochResult, type RunState } from '../../../src/core/loop/epoch.ts';
import type { SpadeEvent } from '../../../src/core/loop/events.ts';
import { runEpochs } from '../../../src/core/loop/run-epochs.ts';
import type { ChatModel, ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { PLAYBOOK_HEADING } from '../../../src/core/prompts/agent-prompt.ts';
import { lessonEffect } from '../../../src/core/playbook/lesson.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';

// GlowKey (a fake game): the observation names the glowing key, which wins. This agent reads the
// observation only when a hint or a playbook lesson tells it to; otherwise it always tries amber.
const GLOW = 'class GlowKeyEnv:\n    pass\n';
const KEYS = ['amber', 'cobalt', 'jade'];
const glowKeyOf = (seed: number) => KEYS[seed % 3]!;

function agentModel(requests: ChatRequest[]): ChatModel {
  return {
    id: 'scripted:test-learner',
    async complete(request) {
      requests.push(request);
      const first = request.messages[0]!.content;
      const reply = (text: string) => ({
        text,
        usage: { promptTokens: 1, completionTokens: 1 },
        finishReason: 'stop' as const,
      });
      if (request.purpose === 'hint') return reply('Pick the key that glows.');
      if (request.purpose === 'lesson') return reply('LESSON: Act on the one detail the scene points out.');
      const helped = first.includes('HINT:') || first.includes(PLAYBOOK_HEADING);
      const glowing = /The (\w+) key glows/.exec(first)?.[1] ?? 'amber';
      return reply(`\\boxed{${helped ? glowing : 'amber'}}`);
    },
  };
}

const pool: SuiteEnvironment[] = [{ id: 'glow-a', skill: 'Logical Deduction', code: GLOW, title: null }];
const suiteEnvs: SuiteEnvironment[] = ['held-1', 'held-2', 'held-3'].map((id) => ({
  id,
  skill: 'Logical Deduction',
  code: GLOW,
  title: null,
}));
const suite: Suite = { name: 'test-suite', sha256: 'x', environments: suiteEnvs };
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 3,
  skills: ['Logical Deduction'],
  skillsPerEpoch: 1,
  slotsPerEpoch: 2,
  playsPerArm: 4,
  hintPlays: 4,
  maxTurns: 1,
  useCorpus: false,
  evalEvery: 1,
  evalSeeds: 4,
};

async function run(config: Config, epochs: number) {
  const requests: ChatRequest[] = [];
  const events: SpadeEvent[] = [];
  const results: EpochResult[] = [];
  const state: RunState = await runEpochs(
    {
      model: agentModel(requests),
      sandbox: fakeSandbox(HINT_HELPS_DOUBLES),
      corpus: [],
      emit: (e) => events.push(e),
      evalSuite: suite,
      fixedPool: pool,
      commit: async (r) => void results.push(r),
    },
    INITIAL_RUN_STATE,
    config,
    epochs,
  );
  return { requests, events, results, state };
}

/** The held-out win rate the always-amber agent gets: the share of evaluation seeds whose glowing key is amber. */
const amberShare =
  suiteEnvs.flatMap((env) => [0, 1, 2, 3].map((i) => glowKeyOf(evalSeed(env.id, i)) === 'amber')).filter(Boolean)
    .length / 12;

describe('fixed pool, playbook and held-out evaluation over two epochs (fake sandbox, scripted learner)', () => {
  it('plays the pool without a designer, learns one lesson where the hint won, and shows it the next epoch', async () => {
    const { requests, results, state } = await run({ ...CONFIG, usePlaybook: true }, 2);
    expect(requests.some((r) => r.purpose === 'designer' || r.purpose === 'repair')).toBe(false);
    expect(results[0]!.environments.map((e) => [e.id, e.poolId, e.status, e.attempts.length])).toEqual([
      ['e0000-s00', 'glow-a', 'valid', 0],
      ['e0000-s01', 'glow-a', 'valid', 0],
    ]);
    expect(results[0]!.rollouts.some((r) => r.role === 'designer')).toBe(false);
    expect(requests.filter((r) => r.purpose === 'lesson')).toHaveLength(1);
    expect(requests.filter((r) => r.purpose === 'lesson').map((r) => [r.thinking, r.maxTokens])).toEqual([
      [false, CONFIG.hint.maxTokens],
    ]);
    expect(state.playbook!.map((l) => [l.id, l.text, l.sourceEnvId, l.epoch, l.origin])).toEqual([
      ['L-e0000-s00', 'Act on the one detail the scene points out.', 'e0000-s00', 0, 'learned'],
    ]);
    const epoch1Agent = requests.filter((r) => r.purpose === 'agent' && !r.messages[0]!.content.includes('HINT:'));
    expect(
      epoch1Agent.some((r) => r.messages[0]!.content.startsWith(`${PLAYBOOK_HEADING}\n- Act on the one detail`)),
    ).toBe(true);
  });

  it('credits the lesson with the second epoch plays: every unhinted play won against the first epoch baseline', async () => {
    const { results, state } = await run({ ...CONFIG, usePlaybook: true }, 2);
    const first = state.playbook![0]!;
    const epoch0 = results[0]!.episodes.filter((e) => e.arm === 'nohint');
    const baselineWins = epoch0.filter((e) => e.return > 0).length;
    expect(first.baseline).toEqual({ plays: 8, wins: baselineWins });
    expect(first.shown).toEqual({ plays: 8, wins: 8 });
    expect(lessonEffect(first)).toBe(1 - baselineWins / 8);
    expect(results[1]!.environments.every((e) => e.stats!.regret === 0)).toBe(true);
  });

  it('evaluates before training and after each epoch; held-out win rate rises with the playbook on and stays flat with it off', async () => {
    expect(amberShare).toBeGreaterThan(0);
    expect(amberShare).toBeLessThan(1);
    const on = await run({ ...CONFIG, usePlaybook: true }, 2);
    const off = await run({ ...CONFIG, usePlaybook: false }, 2);
    const rates = (r: typeof on) =>
      r.results.flatMap((x) => x.evaluations.map((e) => [e.afterEpochs, e.epoch, e.winRate]));
    expect(rates(on)).toEqual([
      [0, 0, amberShare],
      [1, 0, 1],
      [2, 1, 1],
    ]);
    expect(rates(off)).toEqual([
      [0, 0, amberShare],
      [1, 0, amberShare],
      [2, 1, amberShare],
    ]);
    expect(off.requests.some((r) => r.purpose === 'lesson')).toBe(false);
    expect(off.state.playbook).toBeUndefined();
    const after = on.results[0]!.evaluations[1]!;
    expect(after).toMatchObject({
      suite: 'test-suite',
      trigger: 'schedule',
      playbook: true,
      seedsPerEnvironment: 4,
      environments: 3,
      episodes: 12,
      wins: 12,
      lessonsShown: 12,
    });
    expect(after.plays.map((p) => p.seed)).toEqual(
      suiteEnvs.flatMap((env) => [0, 1, 2, 3].map((i) => evalSeed(env.id, i))),
    );
  });

  it('reports evaluation progress and lessons as events', async () => {
    const { events } = await run({ ...CONFIG, usePlaybook: true }, 1);
    const types = events.map((e) => e.type);
    expect(types[0]).toBe('eval_started');
    expect(types.filter((t) => t === 'eval_play')).toHaveLength(24);
    expect(types.filter((t) => t === 'pool_environment')).toHaveLength(2);
    expect(types.filter((t) => t === 'lesson')).toHaveLength(1);
    expect(types.at(-1)).toBe('eval_completed');
  });
});
