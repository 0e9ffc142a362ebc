import { earliest, type Gate, type UnitDone, type WorkUnit } from './work-unit.ts';

export { effectiveConcurrency, lookAheadOf, type Gate, type UnitDone, type WorkUnit } from './work-unit.ts';

/**
 * Runs units of work, at most `limit` at once, always starting the ready unit first in `order`.
 * `gate` is awaited before each unit starts, one at a time (so a paused run starts nothing and a
 * step starts exactly one unit); what the gate resolves to, if anything, is called once that unit
 * has finished. A script awaits its units' turns (`turn`), queueing its next units as soon as a
 * turn resolves and before the scheduler starts another unit. A unit with `prepare` is ready once its preparation has settled; up to
 * `lookAhead` units (never more than `limit`: no more can start when places free up, and each
 * prepared unit holds an interpreter, in a tab about 90 MB) are prepared (or being prepared) and not
 * yet started at once, so a request never waits for what could be done beforehand, while a unit
 * still preparing never holds a place.
 * Without preparations, at limit 1 the units run one after another in `order`, whatever their
 * timing. The first failure stops new starts and cancels every queued unit; `drain` rejects with
 * it once every started unit and preparation has settled.
 */
export class Scheduler {
  private readonly ready: WorkUnit[] = [];
  private readonly unprepared: WorkUnit[] = [];
  private ahead = 0;
  private preparing = 0;
  private running = 0;
  private dispatching = false;
  private failure: { error: unknown } | null = null;
  private idle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  /** The most units that were running at once. */
  peak = 0;

  private readonly lookAhead: number;

  constructor(
    private readonly limit: number,
    private readonly gate: Gate,
    lookAhead = 0,
  ) {
    this.lookAhead = Math.min(lookAhead, limit);
  }

  /** Queues `unit` and resolves with what its `run` resolves to once it has run; rejects with its failure, or with the failure that stopped the scheduler before it started. */
  turn<T>(unit: Omit<WorkUnit, 'run' | 'cancel'> & { run: () => Promise<T> }): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const run = () =>
        unit.run().then(resolve, (error: unknown) => {
          reject(error);
          throw error;
        });
      this.add({ ...unit, run, cancel: reject });
    });
  }

  /** Awaits scripts that take their units' turns here, resolving with their results in order; the first failure (a unit's or a script's own) cancels the queued units and rejects once all have settled. */
  async all<T>(scripts: ReadonlyArray<Promise<T>>): Promise<T[]> {
    const results: T[] = [];
    await Promise.all(
      scripts.map(async (script, i) => {
        try {
          results[i] = await script;
        } catch (error) {
          this.fail(error);
          this.settle();
        }
      }),
    );
    await this.drain();
    return results;
  }

  /** Queues a unit; it starts when it is prepared, a place is free, and no earlier unit is ready. */
  add(unit: WorkUnit): void {
    if (unit.prepare && this.lookAhead > 0) this.unprepared.push(unit);
    else this.ready.push(unit.prepare ? { ...unit, run: () => unit.prepare!().then(unit.run) } : unit);
    this.prepareAhead();
    void this.dispatch();
  }

  // Starts the preparations of the earliest unprepared units while fewer than `lookAhead` prepared units wait.
  private prepareAhead(): void {
    while (!this.failure && this.ahead < this.lookAhead && this.unprepared.length > 0) {
      const unit = earliest(this.unprepared);
      this.ahead += 1;
      this.preparing += 1;
      unit.prepare!().then(
        () => this.prepared(unit),
        (error: unknown) => {
          this.fail(error);
          this.prepared(unit);
        },
      );
    }
  }

  private prepared(unit: WorkUnit): void {
    this.preparing -= 1;
    this.ready.push(unit);
    void this.dispatch();
    this.settle();
  }

  /** Resolves once every unit added (including units added by units) has finished; rejects with the first failure. */
  drain(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.idle = { resolve, reject };
      this.settle();
    });
  }

  private next(): WorkUnit {
    const unit = earliest(this.ready);
    if (unit.prepare && this.lookAhead > 0) {
      this.ahead -= 1;
      this.prepareAhead();
    }
    return unit;
  }

  private async dispatch(): Promise<void> {
    if (this.dispatching) return;
    this.dispatching = true;
    try {
      while (!this.failure && this.ready.length > 0 && this.running < this.limit) {
        const picked = this.next();
        this.running += 1;
        let done: UnitDone | void;
        try {
          done = await this.gate(picked.stage);
        } catch (error) {
          this.running -= 1;
          this.fail(error);
          picked.cancel?.(error);
          break;
        }
        this.peak = Math.max(this.peak, this.running);
        void this.start(picked, done);
      }
    } finally {
      this.dispatching = false;
      this.settle();
    }
  }

  private async start(unit: WorkUnit, done: UnitDone | void): Promise<void> {
    try {
      await unit.run();
    } catch (error) {
      this.fail(error);
    } finally {
      done?.();
      this.running -= 1;
      void this.dispatch();
      this.settle();
    }
  }

  private fail(error: unknown): void {
    this.failure ??= { error };
  }

  private settle(): void {
    if (this.failure) this.cancelQueued(this.failure.error);
    if (!this.idle || this.running > 0 || this.dispatching || this.preparing > 0) return;
    if (this.failure) this.idle.reject(this.failure.error);
    else if (this.ready.length === 0 && this.unprepared.length === 0) this.idle.resolve();
  }

  private cancelQueued(error: unknown): void {
    const queued = [...this.ready.splice(0), ...this.unprepared.splice(0)];
    for (const unit of queued) unit.cancel?.(error);
  }
}
