// The reference-semantics recomputation beside `spade verify` (docs/method.md section 5, "What it
// cost your run"), on hand-made tab runs whose every figure under either rule is worked out by hand
// in the comments.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withPreset, withSetting, type Config } from '../../../src/core/config.ts';
import { compareWithReference } from '../../../src/core/scoring/reference-recompute.ts';
import { ruleDifferences } from '../../../src/core/scoring/reference-rules.ts';
import type { Episode } from '../../../src/core/records.ts';
import { designedEnv, play, SKILL } from '../../fixtures/scored-epoch.ts';
import { changed, close, failed, retried, stored, TAB, tallyOf } from '../../fixtures/recompute-runs.ts';

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
