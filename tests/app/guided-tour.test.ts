import { describe, expect, it } from 'vitest';
import { GuidedTour } from '../../src/app/learn/guided-tour.svelte.ts';
import { TOUR_STEPS } from '../../src/app/learn/tour-steps.ts';

describe('guided tour', () => {
  it('points at each part of the live view once, ending with the memory', () => {
    expect(TOUR_STEPS.map((s) => s.target)).toEqual([
      'timeline',
      'slot',
      'validation',
      'hint',
      'arm-nohint',
      'arm-hint',
      'regret',
      'score',
      'memory',
    ]);
    expect(new Set(TOUR_STEPS.map((s) => s.title)).size).toBe(TOUR_STEPS.length);
  });

  it('starts at the first step, moves with next and back within bounds, and closes after the last', () => {
    const tour = new GuidedTour();
    tour.request();
    expect([tour.open, tour.pending]).toEqual([false, true]);
    tour.start();
    expect([tour.open, tour.pending, tour.index, tour.step.target]).toEqual([true, false, 0, 'timeline']);
    tour.back();
    expect(tour.index).toBe(0);
    for (let i = 1; i < TOUR_STEPS.length; i++) tour.next();
    expect([tour.index, tour.last, tour.step.target]).toEqual([TOUR_STEPS.length - 1, true, 'memory']);
    tour.back();
    expect(tour.step.target).toBe('score');
    tour.next();
    tour.next();
    expect(tour.open).toBe(false);
    tour.request();
    tour.close();
    expect(tour.pending).toBe(false);
  });
});
