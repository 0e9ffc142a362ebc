import { describe, expect, it } from 'vitest';
import { nonfiniteRewardNote, returnedReward, rewardText } from '../../src/app/explorer/step-reward.ts';
import { toolSteps } from '../../src/app/explorer/tool-steps.ts';
import type { Turn } from '../../src/core/records.ts';

// A turn as the run files hold it after JSON: a non-finite reward is null beside its name.
const stored = (reward: number, terminated = true): Turn =>
  JSON.parse(
    JSON.stringify({
      reply: 'r',
      action: 'a',
      observation: 'o',
      reward,
      ...(Number.isFinite(reward)
        ? {}
        : { nonfiniteReward: Number.isNaN(reward) ? 'nan' : reward > 0 ? 'inf' : '-inf' }),
      terminated,
      truncated: false,
    }),
  ) as Turn;

describe('step rewards in the views', () => {
  it('reads a stored non-finite reward back from its name, never as the null JSON wrote', () => {
    expect([stored(Number.NaN).reward, stored(Number.POSITIVE_INFINITY).reward]).toEqual([null, null]);
    expect(returnedReward(stored(Number.NaN))).toBeNaN();
    expect([
      returnedReward(stored(Number.POSITIVE_INFINITY)),
      returnedReward(stored(Number.NEGATIVE_INFINITY)),
      returnedReward(stored(0.5)),
    ]).toEqual([Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5]);
  });

  it("writes a reward in Python's words, and says so when the record holds no number", () => {
    expect([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5, -1, 0, null].map(rewardText)).toEqual([
      'nan',
      'inf',
      '-inf',
      '0.5',
      '-1',
      '0',
      'not recorded',
    ]);
    expect(returnedReward({ reward: null })).toBeNull();
    expect(returnedReward({ reward: null, nonfiniteReward: 'toString' })).toBeNull();
  });

  it('says how a non-finite reward counted: the clipped return when it ended a terminated play, else not at all', () => {
    const ended = (reward: number) => nonfiniteRewardNote([stored(0, false), stored(reward)], 1, false);
    expect(ended(Number.NaN)).toBe(
      'scored as a return of 1: the return is max(-1, min(1, reward)), which gives 1 for nan',
    );
    expect(ended(Number.POSITIVE_INFINITY)).toBe(
      'scored as a return of 1: the return is max(-1, min(1, reward)), which gives 1 for inf',
    );
    expect(ended(Number.NEGATIVE_INFINITY)).toBe(
      'scored as a return of -1: the return is max(-1, min(1, reward)), which gives -1 for -inf',
    );
    expect(nonfiniteRewardNote([stored(Number.NaN, false), stored(1)], 0, false)).toBe(
      'not scored: only the last reward of a terminated play counts',
    );
    expect(nonfiniteRewardNote([stored(Number.NaN, false)], 0, false)).toBe(
      'not scored: only the last reward of a terminated play counts',
    );
    expect(nonfiniteRewardNote([stored(Number.NaN)], 0, true)).toBe('not scored: the play failed');
    expect([nonfiniteRewardNote([stored(0.5)], 0, false), nonfiniteRewardNote([], 0, false)]).toEqual([null, null]);
  });

  it("gives a tool step's stored non-finite reward, not the null", () => {
    const [step] = toolSteps({ turns: [stored(Number.NEGATIVE_INFINITY)] });
    expect(step!.reward).toBe(Number.NEGATIVE_INFINITY);
  });
});
