// Scripts that await their units' turns (the epoch's slots): the order they take, and how a failure ends them.
import { describe, expect, it } from 'vitest';
import { Scheduler } from '../../../src/core/loop/scheduler.ts';

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A unit body that logs its start and finishes when the test calls `finish.get(name)`. */
function held(name: string, log: string[], finish: Map<string, () => void>): () => Promise<string> {
  return () =>
    new Promise<string>((resolve) => {
      log.push(name);
      finish.set(name, () => resolve(name));
    });
}

describe('scripts on the scheduler', () => {
  it("a script's next unit, queued as its turn resolves, runs before a later unit at limit 1 (a sequential run's order)", async () => {
    const log: string[] = [];
    const scheduler = new Scheduler(1, async () => undefined);
    const script = async () => {
      const design = await scheduler.turn({
        stage: 'design',
        order: [0, 1],
        run: async () => (log.push('design'), 'env'),
      });
      const hint = await scheduler.turn({
        stage: 'hint',
        order: [1, 1],
        run: async () => (log.push(`hint of ${design}`), 'hint'),
      });
      return `${design} + ${hint}`;
    };
    const slot = script();
    const later = scheduler.turn({
      stage: 'play',
      order: [2, 0],
      run: async () => void log.push('play of another slot'),
    });
    const results = await scheduler.all([slot, later]);
    expect(log).toEqual(['design', 'hint of env', 'play of another slot']);
    expect(results).toEqual(['env + hint', undefined]);
  });

  it('a failed unit cancels the queued turns, and `all` rejects with it once the running units settle', async () => {
    const log: string[] = [];
    const finish = new Map<string, () => void>();
    const scheduler = new Scheduler(2, async () => undefined);
    const running = scheduler.turn({ stage: 'play', order: [0], run: held('running', log, finish) });
    const failing = scheduler.turn({ stage: 'play', order: [1], run: () => Promise.reject(new Error('sandbox lost')) });
    const queued = scheduler.turn({ stage: 'play', order: [2], run: held('queued', log, finish) });
    let settled = false;
    const all = scheduler.all([running, failing, queued]).finally(() => (settled = true));
    await expect(queued).rejects.toThrow('sandbox lost');
    await tick();
    expect(settled).toBe(false);
    finish.get('running')!();
    await expect(all).rejects.toThrow('sandbox lost');
    await expect(running).resolves.toBe('running');
    expect(log).toEqual(['running']);
  });

  it("a script's own failure (outside its units) rejects `all` with it and cancels the units still queued", async () => {
    const log: string[] = [];
    const scheduler = new Scheduler(1, async () => undefined);
    const broken = (async () => {
      await scheduler.turn({ stage: 'design', order: [0], run: async () => void log.push('design') });
      throw new Error('no record from that design');
    })();
    const others = [1, 2, 3].map((i) =>
      scheduler.turn({ stage: 'design', order: [i], run: async () => void log.push(`design ${i}`) }),
    );
    await expect(scheduler.all([broken, ...others])).rejects.toThrow('no record from that design');
    // The failure is seen once the script's continuation has run: at most the unit started meanwhile runs, the rest never do.
    expect(log.length).toBeLessThanOrEqual(2);
    expect(log[0]).toBe('design');
    await expect(others[2]!).rejects.toThrow('no record from that design');
  });

  it('an abort at the gate cancels the unit it held and every queued one', async () => {
    const scheduler = new Scheduler(1, () => Promise.reject(new Error('aborted')));
    const first = scheduler.turn({ stage: 'design', order: [0], run: async () => 'never' });
    const second = scheduler.turn({ stage: 'design', order: [1], run: async () => 'never' });
    await expect(scheduler.all([first, second])).rejects.toThrow('aborted');
    await expect(first).rejects.toThrow('aborted');
    await expect(second).rejects.toThrow('aborted');
  });
});
