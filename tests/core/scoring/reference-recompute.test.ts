// The reference-semantics recomputation beside `spade verify` (docs/method.md section 5, "What it
// cost your run"), on hand-made tab runs whose every figure under either rule is worked out by hand
// in the comments.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withPreset, withSetting, type Config } from '../../../src/core/config.ts';
import {
  compareWithReference,
  type QuantityTally,
  type Quantity,
  type StoredEpoch,
} from '../../../src/core/scoring/reference-recompute.ts';
import { ruleDifferences } from '../../../src/core/scoring/reference-rules.ts';
import { scoreEpoch } from '../../../src/core/scoring/score-epoch.ts';
import type { EnvErrorCode } from '../../../src/core/env/env-error.ts';
import type { Arm, EnvironmentRecord, Episode } from '../../../src/core/records.ts';
import { designedEnv, play, SKILL } from '../../fixtures/scored-epoch.ts';

/** K = 2, R = 2 (4 planned unhinted plays, quarantined at 2 dropped), the tab's failure rule. */
const TAB: Config = {
  ...DEFAULT_CONFIG,
  skills: [SKILL],
  skillsPerEpoch: 1,
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  rolloutsPerEpoch: 2,
  reward: 'blend',
  useMemory: false,
};

/** A play that failed with `code` (dropped when unhinted, 0 when hinted), as the tab records it. */
function failed(envId: string, rollout: number, arm: Arm, index: number, code: EnvErrorCode, id?: string): Episode {
  const e = play(envId, rollout, arm, index, 'crash');
  return { ...e, id: id ?? e.id, error: { code, message: `scripted ${code}` } };
}

/** An unhinted play whose first attempt crashed in step (stored `-failed`, retried) and whose retry gave `retry`. */
function retried(envId: string, rollout: number, index: number, retry: number | EnvErrorCode): Episode[] {
  const first = {
    ...failed(envId, rollout, 'nohint', index, 'step_exception'),
    id: `${envId}-r${rollout}-nohint-${index}-failed`,
    retried: true,
  };
  return [
    first,
    typeof retry === 'number'
      ? play(envId, rollout, 'nohint', index, retry)
      : failed(envId, rollout, 'nohint', index, retry),
  ];
}

/** A stored epoch as the tab's scoring wrote it. */
function stored(config: Config, environments: EnvironmentRecord[], episodes: readonly Episode[]): StoredEpoch {
  const scores = scoreEpoch(0, environments, episodes, config, {});
  return { epoch: 0, environments: scores.environments, episodes: scores.episodes };
}

const tallyOf = (tallies: readonly QuantityTally[], quantity: Quantity) =>
  tallies.find((t) => t.quantity === quantity)!;
const changed = (tallies: readonly QuantityTally[], quantity: Quantity) =>
  tallyOf(tallies, quantity).changes.map((c) => [c.id, c.run, c.reference]);
const close = (x: number) => Math.round(x * 1e6) / 1e6;

// A: rollout 0 [1, 0]; rollout 1 [1, crash then a won retry]; hinted [1, crash].
// Q: rollout 0 [1, crash twice]; rollout 1 [crash twice, 0]; hinted [1, 1]: 2 of 4 dropped, quarantined by the tab.
const CRASHES: Episode[] = [
  play('A', 0, 'nohint', 0, 1),
  play('A', 0, 'nohint', 1, 0),
  play('A', 0, 'hint', 0, 1),
  failed('A', 0, 'hint', 1, 'step_bad_return'),
  play('A', 1, 'nohint', 0, 1),
  ...retried('A', 1, 1, 1),
  play('Q', 0, 'nohint', 0, 1),
  ...retried('Q', 0, 1, 'step_exception'),
  play('Q', 0, 'hint', 0, 1),
  play('Q', 0, 'hint', 1, 1),
  ...retried('Q', 1, 0, 'step_exception'),
  play('Q', 1, 'nohint', 1, 0),
];

describe('the knobs a run differs from the reference preset in', () => {
  it('lists every tab default that differs, recomputed, replayed or inactive in the setting', () => {
    const games = ruleDifferences(DEFAULT_CONFIG);
    expect(games.filter((d) => d.status === 'recomputed').map((d) => d.knob)).toEqual(['crashesLose']);
    expect(games.filter((d) => d.status === 'inactive').map((d) => d.knob)).toEqual([
      'freeToolCalls',
      'toolBaseAids',
      'extraToolChecks',
    ]);
    expect(games.filter((d) => d.status === 'replay').map((d) => d.knob)).toEqual(
      expect.arrayContaining([
        'skillsPerEpoch',
        'restartSkillCycle',
        'slotsPerEpoch',
        'playsPerArm',
        'maxTurns',
        'replyAids',
        'coerceStepReturns',
        'difficulty',
        'stepTimeoutMs',
      ]),
    );
    const toolUse = ruleDifferences({ ...withSetting(DEFAULT_CONFIG, 'tool_use'), toolUseMasks: false });
    expect(toolUse.filter((d) => d.status === 'recomputed').map((d) => d.knob)).toEqual([
      'crashesLose',
      'toolUseMasks',
    ]);
    expect(toolUse.find((d) => d.knob === 'freeToolCalls')).toMatchObject({
      run: false,
      reference: true,
      status: 'replay',
    });
  });

  it('finds none at the reference preset, in either setting', () => {
    expect(ruleDifferences(withPreset(DEFAULT_CONFIG, 'reference'))).toEqual([]);
    expect(ruleDifferences(withPreset(withSetting(DEFAULT_CONFIG, 'tool_use'), 'reference'))).toEqual([]);
  });
});

describe('crashes recomputed under the reference rule', () => {
  const run = stored(TAB, [designedEnv('A', 0), designedEnv('Q', 1)], CRASHES);
  const comparison = compareWithReference(TAB, [run]);
  const crashes = comparison.differences.find((d) => d.knob === 'crashesLose')!;

  it('the tab run is as worked out: Q quarantined, A scored alone', () => {
    // A kept: r0 [1, 0], r1 [1, 1]; r_nohint 0.5, w 0.75, r_hint (1 + 0) / 2 = 0.5, regret 0; blend 0.6 x plateau(0.75) = 0.6 x 0.4 = 0.24.
    expect(run.environments.map((e) => e.status)).toEqual(['valid', 'quarantined']);
    expect(run.environments[0]!.stats).toMatchObject({
      rNoHint: 0.5,
      winRate: 0.75,
      rHint: 0.5,
      regret: 0,
      designerAdvantage: 0,
    });
    expect(close(run.environments[0]!.stats!.designerReward)).toBe(0.24);
  });

  it('each crashed play becomes a kept -1 and its retry is left out', () => {
    expect(changed(crashes.tallies, 'play return')).toEqual([
      ['A-r0-hint-1', 0, -1],
      ['A-r1-nohint-1', 1, -1],
      ['Q-r0-nohint-1', 'dropped', -1],
      ['Q-r1-nohint-0', 'dropped', -1],
    ]);
    expect(tallyOf(crashes.tallies, 'play return').compared).toBe(12);
  });

  it('Q is no longer quarantined, and every figure that follows is recomputed', () => {
    expect(changed(crashes.tallies, 'environment status')).toEqual([['Q', 'quarantined', 'valid']]);
    // A: r1 [1, -1], w (1 + 0 + 1 - 1) / 4 = 0.25, r_hint (1 - 1) / 2 = 0, regret 0 - 0.5 = -0.5; blend 0.6 x plateau(0.25) = 0.24 (unchanged).
    // Q: r0 [1, -1], r1 [-1, 0]: r_nohint 0, w -0.25, r_hint 1, regret 1; blend 0.4 x 1 + 0.6 x plateau(-0.25) = 0.4.
    expect(changed(crashes.tallies, 'win rate')).toEqual([
      ['A', 0.75, 0.25],
      ['Q', null, -0.25],
    ]);
    expect(changed(crashes.tallies, 'r_hint')).toEqual([
      ['A', 0.5, 0],
      ['Q', null, 1],
    ]);
    expect(changed(crashes.tallies, 'regret')).toEqual([
      ['A', 0, -0.5],
      ['Q', null, 1],
    ]);
    expect(
      changed(crashes.tallies, 'designer reward').map(([id, a, b]) => [
        id,
        a === null ? null : close(a as number),
        close(b as number),
      ]),
    ).toEqual([['Q', null, 0.4]]);
    // Same skill, rewards 0.24 and 0.4 (mean 0.32); scale = 4 rollout-0 plays / 2 designs x R 2 = 4: A -0.32, Q +0.32 (the tab: A alone, 0).
    expect(changed(crashes.tallies, 'designer advantage').map(([id, a, b]) => [id, a, close(b as number)])).toEqual([
      ['A', 0, -0.32],
      ['Q', null, 0.32],
    ]);
    expect(changed(crashes.tallies, 'designer scale')).toEqual([]);
    expect(changed(crashes.tallies, 'agent rows')).toEqual([['epoch', 4, 8]]);
    expect(changed(crashes.tallies, 'designer rows')).toEqual([['epoch', 1, 2]]);
    // Means over the scored environments: w 0.75 -> (0.25 - 0.25) / 2 = 0; regret 0 -> (-0.5 + 1) / 2 = 0.25; reward 0.24 -> 0.32.
    expect(changed(crashes.tallies, 'epoch mean win rate')).toEqual([['epoch', 0.75, 0]]);
    expect(changed(crashes.tallies, 'epoch mean regret')).toEqual([['epoch', 0, 0.25]]);
    // The skill's average starts at the epoch's mean kept unhinted return: A's 0.75, then (0 - 1 + 1 - 1 + 1 + 0 + 1 - 1) / 8 = 0.
    expect(changed(crashes.tallies, 'skill average (slow)')).toEqual([[SKILL, 0.75, 0]]);
    // Memory: A's rollout-0 share won stays 0.5, its regret 0 -> -0.5; Q enters with 0.5 and regret 1.
    expect(changed(crashes.tallies, 'memory win rate')).toEqual([['Q', null, 0.5]]);
    expect(changed(crashes.tallies, 'memory regret')).toEqual([
      ['A', 0, -0.5],
      ['Q', null, 1],
    ]);
  });

  it("agent advantages follow the new groups: A's rollout 1 [1, -1] gives +-1, Q's groups appear", () => {
    const advantages = changed(crashes.tallies, 'agent advantage').map(([id, a, b]) => [id, a, close(b as number)]);
    expect(advantages).toEqual([
      ['A-r1-nohint-0', 0, 1],
      ['A-r1-nohint-1', 0, -1],
      ['Q-r0-nohint-0', null, 1],
      ['Q-r0-nohint-1', null, -1],
      ['Q-r1-nohint-0', null, -1],
      ['Q-r1-nohint-1', null, 1],
    ]);
  });

  it('all rules together give the same as the one recomputable rule of a games run, and nothing needs re-playing', () => {
    expect(comparison.combined).toEqual(crashes.tallies);
    expect(comparison.needReplay).toEqual([]);
  });

  it('a failed reset is left as it ran and named as needing a new play', () => {
    const run2 = stored(
      TAB,
      [designedEnv('A', 0)],
      [
        play('A', 0, 'nohint', 0, 1),
        failed('A', 0, 'nohint', 1, 'reset_exception'),
        play('A', 1, 'nohint', 0, 1),
        play('A', 1, 'nohint', 1, 0),
      ],
    );
    const result = compareWithReference(TAB, [run2]);
    expect(result.needReplay).toEqual(['A-r0-nohint-1']);
    expect(result.combined.every((t) => t.changes.length === 0)).toBe(true);
  });
});

describe('hangs recomputed under the reference rule', () => {
  it('a hang in rollout 2 costs the regret reward -0.5 under the tab rule and nothing under the reference', () => {
    const config: Config = { ...TAB, rolloutsPerEpoch: 3, reward: 'regret' };
    // r0 [1, 0], r1 [1, 1], r2 [hang, skipped]: 2 of 6 dropped, scored. Reference: w (1 + 0 + 1 + 1) / 4 = 0.75, r_hint 1: max(0, 1 - 0.75) = 0.25.
    const episodes = [
      play('H', 0, 'nohint', 0, 1),
      play('H', 0, 'nohint', 1, 0),
      play('H', 0, 'hint', 0, 1),
      play('H', 0, 'hint', 1, 1),
      play('H', 1, 'nohint', 0, 1),
      play('H', 1, 'nohint', 1, 1),
      play('H', 2, 'nohint', 0, 'hang'),
      failed('H', 2, 'nohint', 1, 'env_hung'),
    ];
    const result = compareWithReference(config, [stored(config, [designedEnv('H', 0)], episodes)]);
    const crashes = result.differences.find((d) => d.knob === 'crashesLose')!.tallies;
    expect(changed(crashes, 'hung')).toEqual([['H', true, false]]);
    expect(changed(crashes, 'designer reward')).toEqual([['H', -0.5, 0.25]]);
    expect(changed(crashes, 'play return')).toEqual([]);
  });
});

describe('tool-use masks recomputed for a run without them', () => {
  const config: Config = {
    ...withSetting(DEFAULT_CONFIG, 'tool_use'),
    skills: ['API Orchestration'],
    skillsPerEpoch: 1,
    playsPerArm: 2,
    hintPlays: 0,
    useMemory: false,
    toolUseMasks: false,
  };
  const env = { ...designedEnv('T', 0, null), skill: 'API Orchestration' };
  const call = '<tool_call>{"name": "lookup", "arguments": {}}</tool_call>';
  const broken = '<tool_call>{"name": lookup</tool_call>';
  const turn = (reply: string, reward: number, terminated: boolean) => ({
    reply,
    action: reply,
    observation: 'ok',
    reward,
    terminated,
    truncated: !terminated && reward === 0,
  });
  const episode = (index: number, replies: string[], last: { reward: number; terminated: boolean }): Episode => ({
    ...play('T', 0, 'nohint', index, 0),
    messages: [
      { role: 'user' as const, content: 'Task.' },
      ...replies.flatMap((r) => [
        { role: 'assistant' as const, content: r },
        { role: 'tool' as const, content: 'ok' },
      ]),
    ].slice(0, -1),
    turns: replies.map((r, i) =>
      i === replies.length - 1 ? turn(r, last.reward, last.terminated) : turn(r, 0, false),
    ),
    return: last.terminated ? last.reward : 0,
  });
  // Play 0 reads a broken call, then a good one, then answers and wins; play 1 runs out of turns after two calls.
  const run = stored(
    config,
    [env],
    [
      episode(0, [broken, call, '<answer>B4</answer>'], { reward: 1, terminated: true }),
      episode(1, [call, call], { reward: 0, terminated: false }),
    ],
  );

  it("zeroes the unreadable call's reply and every reply of the unterminated play; no return changes", () => {
    const masks = compareWithReference(config, [run]).differences.find((d) => d.knob === 'toolUseMasks')!;
    expect(masks.status).toBe('recomputed');
    expect(changed(masks.tallies, 'reply weights')).toEqual([
      ['T-r0-nohint-0', '1,1,1', '0,1,1'],
      ['T-r0-nohint-1', '1,1', '0,0'],
    ]);
    expect(masks.tallies.filter((t) => t.quantity !== 'reply weights').every((t) => t.changes.length === 0)).toBe(true);
  });

  it('a run recorded with the masks (its unreadable call flagged) gets nothing from them; one that lost the flag is caught', () => {
    const masked = { ...config, toolUseMasks: true };
    const flagged = run.episodes.map((e) =>
      e.index === 0
        ? { ...e, turns: e.turns.map((t, i) => (i === 0 ? { ...t, malformedCall: true as const } : t)) }
        : e,
    );
    const result = compareWithReference(masked, [stored(masked, [env], flagged)]);
    expect(result.differences.some((d) => d.knob === 'toolUseMasks')).toBe(false);
    expect(tallyOf(result.combined, 'reply weights').changes).toEqual([]);
    const unflagged = compareWithReference(masked, [stored(masked, [env], run.episodes)]);
    expect(changed(unflagged.combined, 'reply weights')).toEqual([['T-r0-nohint-0', '1,1,1', '0,1,1']]);
  });
});

describe('differences that need a new run, counted on the stored plays', () => {
  const replying = (e: Episode, reply: string): Episode => ({ ...e, turns: e.turns.map((t) => ({ ...t, reply })) });

  it('reply aids: the plays with a reply the reference reads as another action', () => {
    // \boxed{\text{go}}: the aids read `go`, the reference `\boxed{\text{go}}`; a plain \boxed{go} reads alike; 1 of 3.
    const episodes = [
      replying(play('A', 0, 'nohint', 0, 1), '\\boxed{\\text{go}}'),
      play('A', 0, 'nohint', 1, 0),
      play('A', 1, 'nohint', 0, 1),
    ];
    const result = compareWithReference(TAB, [stored(TAB, [designedEnv('A', 0)], episodes)]);
    expect(result.differences.find((d) => d.knob === 'replyAids')).toMatchObject({
      status: 'replay',
      touched: { plays: 1, of: 3 },
    });
    expect(result.differences.find((d) => d.knob === 'maxTurns')!.touched).toBeUndefined();
  });

  it('one step per tool-use reply: the plays with a reply of several calls or out of class turns', () => {
    const config: Config = {
      ...withSetting(DEFAULT_CONFIG, 'tool_use'),
      skills: ['API Orchestration'],
      skillsPerEpoch: 1,
      playsPerArm: 3,
      hintPlays: 0,
    };
    const env = { ...designedEnv('T', 0, null), skill: 'API Orchestration' };
    const two =
      '<tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>';
    const truncated = play('T', 0, 'nohint', 2, 0);
    const episodes = [
      replying(play('T', 0, 'nohint', 0, 1), two),
      play('T', 0, 'nohint', 1, 1),
      { ...truncated, turns: truncated.turns.map((t) => ({ ...t, terminated: false, truncated: true })) },
    ];
    const result = compareWithReference(config, [stored(config, [env], episodes)]);
    expect(result.differences.find((d) => d.knob === 'freeToolCalls')).toMatchObject({
      status: 'replay',
      touched: { plays: 2, of: 3 },
    });
  });

  it('the strict step contract: the plays that failed or lost on a return the reference converts', () => {
    // A's hinted play failed on step_bad_info, one unhinted play kept a reward_not_finite crash (recorded
    // under crashesLose), one failed on step_bad_return (a -1 in the reference too): 2 of 4 touched.
    const kept = {
      ...play('A', 1, 'nohint', 0, -1),
      crash: { at: 'step' as const, code: 'reward_not_finite' as const, message: 'scripted' },
    };
    const episodes = [
      play('A', 0, 'nohint', 0, 1),
      failed('A', 0, 'hint', 0, 'step_bad_info'),
      kept,
      failed('A', 1, 'nohint', 1, 'step_bad_return'),
    ];
    const result = compareWithReference(TAB, [stored(TAB, [designedEnv('A', 0)], episodes)]);
    expect(result.differences.find((d) => d.knob === 'coerceStepReturns')).toMatchObject({
      status: 'replay',
      run: false,
      reference: true,
      touched: { plays: 2, of: 4 },
    });
    const converted = compareWithReference({ ...TAB, coerceStepReturns: true }, [
      stored(TAB, [designedEnv('A', 0)], episodes),
    ]);
    expect(converted.differences.some((d) => d.knob === 'coerceStepReturns')).toBe(false);
  });

  it('the strict reset contract: the plays that failed or went on from the reset error on a return the reference converts', () => {
    // A 1-tuple failed one play (reset_bad_return), an empty observation was kept as a reset crash under
    // crashesLose, and a reset that raised failed another (the reference catches that one too, but
    // converts nothing: it is crashesLose's difference): 2 of 4 touched.
    const kept = {
      ...play('A', 0, 'nohint', 1, 1),
      crash: { at: 'reset' as const, code: 'reset_empty_observation' as const, message: 'scripted' },
    };
    const episodes = [
      play('A', 0, 'nohint', 0, 1),
      failed('A', 0, 'hint', 0, 'reset_bad_return'),
      kept,
      failed('A', 1, 'nohint', 0, 'reset_exception'),
    ];
    const result = compareWithReference(TAB, [stored(TAB, [designedEnv('A', 0)], episodes)]);
    expect(result.differences.find((d) => d.knob === 'coerceStepReturns')).toMatchObject({
      touched: { plays: 2, of: 4, what: expect.stringContaining('a reset or step return') },
    });
  });
});
