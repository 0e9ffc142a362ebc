// The reference-semantics recomputation beside `spade verify` (docs/method.md section 5, "What it
// cost your run"), for tool-use masks and the differences that need a new run; crashes and hangs
// are in reference-recompute.test.ts. Every figure is worked out by hand in the comments.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../../src/core/config.ts';
import { compareWithReference } from '../../../src/core/scoring/reference-recompute.ts';
import type { Episode } from '../../../src/core/records.ts';
import { designedEnv, play } from '../../fixtures/scored-epoch.ts';
import { changed, failed, stored, TAB, tallyOf } from '../../fixtures/recompute-runs.ts';

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
