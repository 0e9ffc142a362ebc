import { describe, expect, it } from 'vitest';
import { effectiveConcurrency, Scheduler, type WorkUnit } from '../../../src/core/loop/scheduler.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A unit that records its start and finishes when `finish` is called. */
function unit(name: string, order: number[], log: string[], finishers: Map<string, () => void>): WorkUnit {
  return {
    stage: 'play',
    order,
    run: () =>
      new Promise<void>((resolve) => {
        log.push(name);
        finishers.set(name, resolve);
      }),
  };
}

describe('the scheduler', () => {
  it('runs at most `limit` units, the earliest in order first, and units may add units', async () => {
    const log: string[] = [];
    const finish = new Map<string, () => void>();
    const scheduler = new Scheduler(2, async () => undefined);
    for (const [name, order] of [
      ['c', [2]],
      ['a', [0]],
      ['b', [1]],
    ] as const)
      scheduler.add(unit(name, [...order], log, finish));
    const done = scheduler.drain();
    await tick();
    expect(log).toEqual(['c', 'a']);
    scheduler.add(unit('z', [0, 5], log, finish));
    finish.get('a')!();
    await tick();
    expect(log).toEqual(['c', 'a', 'z']);
    for (const name of ['c', 'z']) finish.get(name)!();
    await tick();
    finish.get('b')!();
    await done;
    expect(log).toEqual(['c', 'a', 'z', 'b']);
    expect(scheduler.peak).toBe(2);
  });

  it('starts nothing while the gate holds, and one unit per opening (pause and step)', async () => {
    const log: string[] = [];
    const finish = new Map<string, () => void>();
    const openings: Array<() => void> = [];
    const scheduler = new Scheduler(8, () => new Promise<void>((resolve) => openings.push(resolve)));
    for (let i = 0; i < 3; i++) scheduler.add(unit(`u${i}`, [i], log, finish));
    const done = scheduler.drain();
    await tick();
    expect(log).toEqual([]);
    expect(openings).toHaveLength(1);
    openings.shift()!();
    await tick();
    expect(log).toEqual(['u0']);
    expect(openings).toHaveLength(1);
    openings.shift()!();
    openings.shift()?.();
    await tick();
    openings.shift()?.();
    await tick();
    for (const f of finish.values()) f();
    await done;
    expect(log).toEqual(['u0', 'u1', 'u2']);
  });

  it('calls what the gate resolved to once that unit has finished, also when it failed', async () => {
    const log: string[] = [];
    const finish = new Map<string, () => void>();
    const done: string[] = [];
    let opened = 0;
    const scheduler = new Scheduler(4, async () => {
      const name = `u${opened++}`;
      return () => done.push(name);
    });
    scheduler.add(unit('u0', [0], log, finish));
    scheduler.add(unit('u1', [1], log, finish));
    scheduler.add({ stage: 'play', order: [2], run: async () => Promise.reject(new Error('sandbox crashed')) });
    const drained = scheduler.drain();
    await tick();
    expect(log).toEqual(['u0', 'u1']);
    expect(done).toEqual(['u2']);
    finish.get('u1')!();
    await tick();
    expect(done).toEqual(['u2', 'u1']);
    finish.get('u0')!();
    await expect(drained).rejects.toThrow('sandbox crashed');
    expect(done).toEqual(['u2', 'u1', 'u0']);
  });

  it('stops starting units after a failure and rejects once the running ones settle', async () => {
    const log: string[] = [];
    const finish = new Map<string, () => void>();
    const scheduler = new Scheduler(2, async () => undefined);
    scheduler.add({ stage: 'play', order: [0], run: async () => Promise.reject(new Error('model unreachable')) });
    scheduler.add(unit('slow', [1], log, finish));
    scheduler.add(unit('never', [2], log, finish));
    let settled = false;
    const done = scheduler.drain().finally(() => (settled = true));
    await tick();
    expect(settled).toBe(false);
    finish.get('slow')!();
    await expect(done).rejects.toThrow('model unreachable');
    expect(log).toEqual(['slow']);
  });

  it('rejects when the gate throws (an abort) and starts nothing more', async () => {
    const log: string[] = [];
    const scheduler = new Scheduler(4, async () => Promise.reject(new Error('aborted')));
    scheduler.add(unit('u', [0], log, new Map()));
    await expect(scheduler.drain()).rejects.toThrow('aborted');
    expect(log).toEqual([]);
  });

  it('bounds the concurrency by what the model takes, one when it says nothing', () => {
    expect(effectiveConcurrency(16, {})).toBe(1);
    expect(effectiveConcurrency(16, { maxConcurrency: 1 })).toBe(1);
    expect(effectiveConcurrency(16, { maxConcurrency: Number.POSITIVE_INFINITY })).toBe(16);
    expect(effectiveConcurrency(4, { maxConcurrency: 2 })).toBe(2);
  });

  describe('with preparations ahead', () => {
    /** A unit whose preparation finishes when `ready` is called; its start is logged. */
    function prepared(name: string, order: number[], log: string[], ready: Map<string, () => void>): WorkUnit {
      return {
        stage: 'play',
        order,
        prepare: () =>
          new Promise<void>((resolve) => {
            log.push(`prepare ${name}`);
            ready.set(name, resolve);
          }),
        run: async () => void log.push(`run ${name}`),
      };
    }

    it('prepares the earliest units first, at most `lookAhead` at once, and a unit still preparing holds no place', async () => {
      const log: string[] = [];
      const ready = new Map<string, () => void>();
      const finish = new Map<string, () => void>();
      // Two places and two look-ahead (a scheduler never prepares more units ahead than may run at once).
      const scheduler = new Scheduler(2, async () => undefined, 2);
      for (const [name, order] of [
        ['p3', [3]],
        ['p1', [1]],
        ['p2', [2]],
      ] as const)
        scheduler.add(prepared(name, [...order], log, ready));
      const done = scheduler.drain();
      await tick();
      // Added in the order p3, p1, p2: the first two start preparing; p2 waits for a free look-ahead.
      expect(log).toEqual(['prepare p3', 'prepare p1']);
      // Units that need no preparation take both places while the plays prepare.
      scheduler.add(unit('design', [8], log, finish));
      scheduler.add(unit('judge', [9], log, finish));
      await tick();
      expect(log.slice(2)).toEqual(['design', 'judge']);
      ready.get('p3')!();
      ready.get('p1')!();
      await tick();
      expect(log).toEqual(['prepare p3', 'prepare p1', 'design', 'judge']);
      finish.get('design')!();
      await tick();
      await tick();
      // Prepared units run earliest first in the freed place; taking p1 frees a look-ahead, so p2 starts preparing.
      expect(log.slice(4)).toEqual(['prepare p2', 'run p1', 'run p3']);
      ready.get('p2')!();
      finish.get('judge')!();
      await done;
      expect(log.at(-1)).toBe('run p2');
    });

    it("without a look-ahead runs a preparation inside the unit's own place, as before", async () => {
      const log: string[] = [];
      const scheduler = new Scheduler(1, async () => undefined);
      for (const [name, order] of [
        ['b', [1]],
        ['a', [0]],
      ] as const)
        scheduler.add({
          stage: 'play',
          order: [...order],
          prepare: async () => void log.push(`prepare ${name}`),
          run: async () => void log.push(`run ${name}`),
        });
      await scheduler.drain();
      expect(log).toEqual(['prepare b', 'run b', 'prepare a', 'run a']);
    });

    it('drain waits for preparations in flight and rejects with a failed one', async () => {
      const scheduler = new Scheduler(1, async () => undefined, 1);
      scheduler.add({
        stage: 'play',
        order: [0],
        prepare: () => Promise.reject(new Error('no interpreter')),
        run: async () => undefined,
      });
      await expect(scheduler.drain()).rejects.toThrow('no interpreter');
    });
  });
});
