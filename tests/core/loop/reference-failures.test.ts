// The reference's failure rule (`crashesLose`, docs/method.md section 1 "Failures"): a step the
// environment breaks is a kept -1, a broken reset plays on, protocol errors and hangs still fail the
// play, and only a hang in rollout 0 costs the designer the regret reward's -0.5. Each expectation is
// computed by hand in the comments, and `spade verify` recomputes every number of the epoch.
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { environmentId, INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { playSchedule } from '../../../src/core/loop/play-environment.ts';
import { RESET_CRASH_OBSERVATION } from '../../../src/core/loop/step-crash.ts';
import type { EnvErrorCode } from '../../../src/core/env/env-error.ts';
import { rememberEnvironments } from '../../../src/core/loop/memory.ts';
import { recomputeRun } from '../../../src/verify/recompute-run.ts';
import { fakeFailure, fakeSandbox, type FakeClass, type FakeInstance } from '../../fixtures/fake-sandbox.ts';

const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 5,
  skills: ['Logical Deduction'],
  skillsPerEpoch: 1,
  slotsPerEpoch: 1,
  playsPerArm: 2,
  hintPlays: 2,
  rolloutsPerEpoch: 2,
  maxTurns: 3,
  useCorpus: false,
  useMemory: false,
  reward: 'regret',
};
const REFERENCE: Config = { ...CONFIG, crashesLose: true };
const ENV_ID = environmentId(0, 0);

/** The agent says win with the hint and on even unhinted requests, no on odd ones (so half its unhinted plays step `no`). */
function agent(): ScriptedChatModel {
  let unhinted = 0;
  return new ScriptedChatModel((r) => {
    if (r.purpose === 'designer' || r.purpose === 'repair') return '```python\nG\n```';
    if (r.purpose === 'hint') return 'Say win.';
    if (r.messages[0]!.content.includes('HINT:')) return '\\boxed{win}';
    return unhinted++ % 2 === 0 ? '\\boxed{win}' : '\\boxed{no}';
  });
}

/** A one-step game that wins on `win`; `broken(action, seed)` names the failure its step raises instead, if any. */
function game(broken: (action: string, seed: number | null) => EnvErrorCode | null, resetFails = false): FakeClass {
  let built = 0;
  return () => {
    const validating = built++ === 0;
    let seed: number | null = null;
    const instance: FakeInstance = {
      reset: (s) => {
        seed = s;
        if (resetFails && !validating) throw fakeFailure('reset_exception');
        return { observation: 'Say win.', info: {} };
      },
      step: (action) => {
        const code = validating ? null : broken(action, seed);
        if (code) throw fakeFailure(code);
        return {
          observation: 'over',
          reward: action.includes('win') ? 1 : 0,
          terminated: true,
          truncated: false,
          info: {},
        };
      },
    };
    return instance;
  };
}

async function epoch(config: Config, make: FakeClass): Promise<EpochResult> {
  return runEpoch(
    { model: agent(), sandbox: { ...fakeSandbox({ G: make }), parallelism: 1 }, corpus: [] },
    INITIAL_RUN_STATE,
    { ...config, concurrency: 1 },
  );
}

function verified(config: Config, result: EpochResult) {
  return recomputeRun({
    config: {
      reward: config.reward,
      rolloutsPerEpoch: config.rolloutsPerEpoch,
      playsPerArm: config.playsPerArm,
      crashesLose: config.crashesLose,
    },
    environments: result.environments,
    episodes: result.episodes,
    rollouts: result.rollouts,
    epochs: [result.metrics],
    state: { memory: rememberEnvironments([], result.nextState.memory), skillAverages: result.nextState.skillAverages },
    evaluations: [],
  });
}

const crashOnNo = game((action) => (action.includes('no') ? 'step_exception' : null));

describe('crashes under the reference preset', () => {
  it('a step that raises scores -1 and is kept, in both arms, and verify agrees', async () => {
    const result = await epoch(REFERENCE, crashOnNo);
    // Unhinted plays alternate win / no; every `no` raises: returns 1, -1 in each rollout. Hinted plays win.
    expect(result.episodes.map((e) => [e.arm, e.rollout, e.return, e.dropped, e.error, e.crash?.code ?? null])).toEqual(
      [
        ['nohint', 0, 1, false, null, null],
        ['nohint', 0, -1, false, null, 'step_exception'],
        ['hint', 0, 1, false, null, null],
        ['hint', 0, 1, false, null, null],
        ['nohint', 1, 1, false, null, null],
        ['nohint', 1, -1, false, null, 'step_exception'],
      ],
    );
    const crashed = result.episodes[1]!.turns.at(-1)!;
    expect([crashed.reward, crashed.terminated, crashed.observation.startsWith('Error: ')]).toEqual([-1, true, true]);
    // r_nohint = (1 - 1) / 2 = 0, r_hint = 1, regret 1; w = 0; regret reward max(0, 1 - 0) = 1; not quarantined.
    expect(result.environments[0]).toMatchObject({
      status: 'valid',
      stats: { rNoHint: 0, rHint: 1, regret: 1, winRate: 0, designerReward: 1, droppedPlays: 0, hung: false },
    });
    // Four agent rows (every unhinted play), each group [1, -1]: advantages +1 and -1.
    expect(result.rollouts.filter((r) => r.role === 'agent').map((r) => [r.reward, Math.round(r.advantage)])).toEqual([
      [1, 1],
      [-1, -1],
      [1, 1],
      [-1, -1],
    ]);
    expect(verified(REFERENCE, result).mismatches).toEqual([]);
  });

  it('a hinted play that crashes is a kept -1 too, not 0', async () => {
    const result = await epoch(
      REFERENCE,
      game(() => 'step_bad_return'),
    );
    expect(result.episodes.map((e) => [e.arm, e.return, e.dropped, e.crash?.code])).toEqual([
      ['nohint', -1, false, 'step_bad_return'],
      ['nohint', -1, false, 'step_bad_return'],
      ['hint', -1, false, 'step_bad_return'],
      ['hint', -1, false, 'step_bad_return'],
      ['nohint', -1, false, 'step_bad_return'],
      ['nohint', -1, false, 'step_bad_return'],
    ]);
    // r_hint = r_nohint = w = -1: regret 0, regret reward max(0, -1 - (-1)) = 0; scored, not quarantined.
    expect(result.environments[0]).toMatchObject({
      status: 'valid',
      stats: { rHint: -1, rNoHint: -1, regret: 0, winRate: -1, designerReward: 0 },
    });
    expect(verified(REFERENCE, result).mismatches).toEqual([]);
  });

  it('the tab rule drops the same crashes instead (retried once, then dropped)', async () => {
    const result = await epoch(CONFIG, crashOnNo);
    // The agent's second reply is `no`: that play crashes, and its retry is the third reply, `win`.
    expect(
      result.episodes.filter((e) => e.arm === 'nohint' && e.rollout === 0).map((e) => [e.return, e.dropped, e.retried]),
    ).toEqual([
      [1, false, false],
      [0, true, true],
      [1, false, false],
    ]);
    expect(result.episodes.some((e) => e.crash)).toBe(false);
    // Every retry is the agent's next reply, `win`: all four kept unhinted plays won, w = 1, r_nohint = 1,
    // r_hint = 1, regret 0 and regret reward 0 (no play failed for good), where the reference rule gives w = 0, regret 1, reward 1.
    expect(result.environments[0]).toMatchObject({
      status: 'valid',
      stats: { rNoHint: 1, rHint: 1, regret: 0, winRate: 1, designerReward: 0, droppedPlays: 0 },
    });
    expect(verified(CONFIG, result).mismatches).toEqual([]);
  });

  it('a reset that raises plays on from the error observation, and the play is kept', async () => {
    const result = await epoch(
      REFERENCE,
      game(() => null, true),
    );
    const first = result.episodes[0]!;
    expect([
      first.firstObservation,
      first.crash?.at,
      first.crash?.code,
      first.error,
      first.dropped,
      first.return,
    ]).toEqual([RESET_CRASH_OBSERVATION, 'reset', 'reset_exception', null, false, 1]);
    expect(result.episodes.every((e) => e.crash?.at === 'reset' && !e.dropped)).toBe(true);
    expect(verified(REFERENCE, result).mismatches).toEqual([]);
  });

  it.each(['bad_harness_reply', 'output_too_large', 'process_exit'] as const)(
    'a %s is not inside step: it still fails the play',
    async (code) => {
      const result = await epoch(
        REFERENCE,
        game((action) => (action.includes('no') ? code : null)),
      );
      expect(
        result.episodes
          .filter((e) => e.error !== null)
          .every((e) => e.error!.code === code && (e.arm === 'hint' || e.dropped)),
      ).toBe(true);
      expect(result.episodes.some((e) => e.error?.code === code)).toBe(true);
      expect(result.episodes.some((e) => e.crash)).toBe(false);
    },
  );

  it('only a hang in rollout 0 costs the regret reward -0.5; a later one still skips the rest of the epoch', async () => {
    const lastOfRolloutOne = playSchedule(CONFIG, ENV_ID).find((p) => p.rollout === 1 && p.index === 1)!.seed;
    const hangsLate = game((_action, seed) => (seed === lastOfRolloutOne ? 'step_timeout' : null));
    const tab = await epoch(CONFIG, hangsLate);
    const reference = await epoch(REFERENCE, hangsLate);
    for (const result of [tab, reference])
      expect(result.episodes.at(-1)).toMatchObject({
        rollout: 1,
        index: 1,
        dropped: true,
        error: { code: 'step_timeout' },
      });
    // Kept unhinted returns 1, 0, 1 (w = 2/3); hinted 1, 1; r_nohint = 1/2, regret 1/2; reference: max(0, 1 - 2/3) = 1/3.
    expect(tab.environments[0]!.stats).toMatchObject({ hung: true, designerReward: -0.5 });
    expect(reference.environments[0]!.stats).toMatchObject({ hung: false });
    expect(reference.environments[0]!.stats!.designerReward).toBeCloseTo(1 / 3, 12);
    expect(verified(CONFIG, tab).mismatches).toEqual([]);
    expect(verified(REFERENCE, reference).mismatches).toEqual([]);
    // A stored hung flag the rule does not give is caught.
    const forged = reference.environments.map((env) => ({ ...env, stats: { ...env.stats!, hung: true } }));
    expect(verified(REFERENCE, { ...reference, environments: forged }).mismatches.map((m) => m.field)).toEqual([
      'stats.hung',
    ]);
  });

  it('verify refuses a kept crash in a run made under the tab rule', async () => {
    const result = await epoch(REFERENCE, crashOnNo);
    expect(verified(CONFIG, result).mismatches.map((m) => [m.id, m.field])).toEqual([
      [result.episodes[1]!.id, 'crash kept'],
      [result.episodes[5]!.id, 'crash kept'],
    ]);
  });
});
