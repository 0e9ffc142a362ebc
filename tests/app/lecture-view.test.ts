import { describe, expect, it } from 'vitest';
import { applyEvent, createLiveEpoch, type LivePlay, type LiveSlot } from '../../src/app/run/live-epoch.ts';
import {
  activeWork,
  followScroll,
  playPartId,
  scoresSoFar,
  type FollowLayout,
} from '../../src/app/run/lecture-view.ts';
import { readLectureMode, LectureMode } from '../../src/app/shell/lecture-mode.svelte.ts';

const SCALE = { agentPlays: 16, designs: 4, rollouts: 1, scale: 4 };

function epoch(slots = 3) {
  return createLiveEpoch(
    0,
    Array.from({ length: slots }, (_, slot) => ({ slot, skill: 'Logical Deduction' })),
  );
}

const play = (arm: LivePlay['arm'], index: number, ret: number | null, extra: Partial<LivePlay> = {}): LivePlay => ({
  arm,
  index,
  rollout: 0,
  streaming: '',
  turns: [],
  firstObservation: null,
  return: ret,
  error: null,
  dropped: false,
  ...extra,
});

const designing = (slot: LiveSlot, attempt: number) => {
  slot.phase = 'designing';
  slot.attempts.push({ attempt, repair: false, docId: null, reply: 'class', replied: false, report: null });
};

describe('the work lecture mode follows', () => {
  it('is the design under way, then a streaming hint, then the first running play, in slot order', () => {
    const live = epoch();
    expect(activeWork(live)).toBeNull();
    designing(live.slots[0]!, 0);
    expect(activeWork(live)).toEqual({ slot: 0, part: 'attempt-0' });
    designing(live.slots[0]!, 1);
    expect(activeWork(live)).toEqual({ slot: 0, part: 'attempt-1' });
    live.slots[0]!.phase = 'valid';
    expect(activeWork(live)).toBeNull();
    designing(live.slots[1]!, 0);
    expect(activeWork(live)).toEqual({ slot: 1, part: 'attempt-0' });
    live.slots[1]!.phase = 'valid';
    live.slots[0]!.hintStreaming = 'Halve the';
    expect(activeWork(live)).toEqual({ slot: 0, part: 'hint' });
    live.slots[0]!.hint = 'Halve the range.';
    live.slots[0]!.phase = 'playing';
    live.slots[0]!.plays.push(play('nohint', 0, 1), play('hint', 1, null), play('nohint', 2, null));
    expect(activeWork(live)).toEqual({ slot: 0, part: 'play-nohint-0-2' });
    live.slots[0]!.plays[2]!.return = 0;
    expect(activeWork(live)).toEqual({ slot: 0, part: 'play-hint-0-1' });
    live.slots[0]!.plays[1]!.error = 'hang';
    expect(activeWork(live)).toBeNull();
    live.slots[1]!.plays.push(play('nohint', 0, null));
    expect(activeWork(live)).toEqual({ slot: 1, part: playPartId({ arm: 'nohint', rollout: 0, index: 0 }) });
  });
});

describe('a slot’s scores so far', () => {
  const config = { playsPerArm: 4, hintPlays: 4 };

  it('waits for plays, then computes r_nohint, r_hint, regret and the win rate from the finished ones as the Score stage does', () => {
    const slot = epoch(1).slots[0]!;
    expect(scoresSoFar(slot, config)).toEqual({
      noHint: { done: 0, planned: 4, mean: null },
      hint: { done: 0, planned: 0, mean: null },
      regret: null,
      winRate: null,
    });
    slot.hint = 'Ask twice.';
    slot.plays.push(play('nohint', 0, 1), play('nohint', 1, 0), play('nohint', 2, null));
    expect(scoresSoFar(slot, config)).toEqual({
      noHint: { done: 2, planned: 4, mean: 0.5 },
      hint: { done: 0, planned: 4, mean: null },
      regret: null,
      winRate: 0.5,
    });
    slot.plays.push(
      play('hint', 0, 1),
      play('hint', 1, 1),
      play('nohint', 3, 0, { dropped: true }),
      play('nohint', 0, 0, { rollout: 1 }),
    );
    // r_nohint over the first rollout's kept plays (1, 0); the win rate over every kept unhinted play (1, 0, 0).
    const scores = scoresSoFar(slot, config);
    expect(scores.noHint).toEqual({ done: 2, planned: 4, mean: 0.5 });
    expect(scores.hint).toEqual({ done: 2, planned: 4, mean: 1 });
    expect(scores.regret).toBeCloseTo(0.5, 12);
    expect(scores.winRate).toBeCloseTo(1 / 3, 12);
  });
});

describe('where lecture mode scrolls', () => {
  // A 1000 px viewport; the side panel (600 px) sticks 10 px below the top within the stage (y 300 to 5000).
  const layout = (over: Partial<FollowLayout>): FollowLayout => ({
    scrollY: 0,
    viewport: 1000,
    slot: { top: 400, bottom: 900 },
    part: null,
    heading: 50,
    side: { height: 600, stickyTop: 10, stage: { top: 300, bottom: 5000 } },
    ...over,
  });

  it('stays put when the slot and the side panel already show', () => {
    expect(followScroll(layout({ scrollY: 0 }))).toBe(0);
    expect(followScroll(layout({ scrollY: 350 }))).toBe(350);
  });

  it('moves the least that shows a slot lower down, or higher up', () => {
    expect(followScroll(layout({ slot: { top: 2000, bottom: 2600 } }))).toBe(1600);
    expect(followScroll(layout({ scrollY: 3000, slot: { top: 2000, bottom: 2600 } }))).toBe(1992);
  });

  it('keeps the side panel whole where the stage ends, still showing the slot', () => {
    // The last slot ends the stage: below 4400 the side panel would slide up out of view.
    expect(followScroll(layout({ scrollY: 4600, slot: { top: 4500, bottom: 5000 } }))).toBe(4400);
  });

  it('shows the changing part, below the sticky heading, when the slot is taller than the viewport', () => {
    const tall = { top: 1000, bottom: 3000 };
    expect(followScroll(layout({ slot: tall, part: { top: 2500, bottom: 2700 } }))).toBe(1700);
    expect(followScroll(layout({ scrollY: 2800, slot: tall, part: { top: 2500, bottom: 2700 } }))).toBe(2442);
    expect(followScroll(layout({ slot: tall, part: { top: 1500, bottom: 2900 } }))).toBe(1442);
    expect(followScroll(layout({ slot: tall, part: null }))).toBe(992);
  });

  it('follows the work alone when the side panel is not beside it or cannot fit', () => {
    expect(followScroll(layout({ side: null, scrollY: 4800, slot: { top: 4500, bottom: 5000 } }))).toBe(4492);
    expect(
      followScroll(
        layout({
          side: { height: 1200, stickyTop: 10, stage: { top: 300, bottom: 5000 } },
          slot: { top: 2000, bottom: 2600 },
        }),
      ),
    ).toBe(1600);
  });
});

describe('lecture mode’s setting', () => {
  it('is off unless saved on, and is kept when changed', () => {
    const saved = new Map<string, string>();
    const storage = {
      getItem: (key: string) => saved.get(key) ?? null,
      setItem: (key: string, value: string) => void saved.set(key, value),
    };
    expect(readLectureMode(storage)).toBe(false);
    expect(readLectureMode(null)).toBe(false);
    const mode = new LectureMode(storage);
    expect(mode.on).toBe(false);
    mode.toggle();
    expect(mode.on).toBe(true);
    expect(new LectureMode(storage).on).toBe(true);
    mode.set(false);
    expect(readLectureMode(storage)).toBe(false);
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
    };
    expect(readLectureMode(refusing)).toBe(false);
    const kept = new LectureMode(refusing);
    kept.set(true);
    expect(kept.on).toBe(true);
  });
});

describe('a quarantined slot in the live view', () => {
  it('ends as quarantined with its reason when scored without stats, and a scored slot keeps its stats', () => {
    const live = epoch(2);
    const [quarantined, scored] = live.slots as [LiveSlot, LiveSlot];
    const note = 'Quarantined: 2 of its 2 unhinted plays failed.';
    applyEvent(live, { type: 'scored', epoch: 0, envId: quarantined.envId, stats: null, note, scale: SCALE });
    expect(quarantined).toMatchObject({ phase: 'quarantined', stats: null, note, scale: SCALE });
    const stats = {
      rHint: 1,
      rNoHint: 0.5,
      regret: 0.5,
      winRate: 0.5,
      fractionWon: 0.5,
      designerReward: 1,
      designerAdvantage: 0,
      designerGroupSize: 1,
      hung: false,
      droppedPlays: 0,
      turnsToWin: 1,
    };
    applyEvent(live, { type: 'scored', epoch: 0, envId: scored.envId, stats, note: null, scale: SCALE });
    expect(scored).toMatchObject({ phase: 'scored', stats });
  });
});
