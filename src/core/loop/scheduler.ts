import type { ChatModel } from '../ports/chat-port.ts';
import type { EpochStage } from './events.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';

/** One unit of work: the stage it belongs to (for the gate), its place in the fixed order, and what it does. */
export interface WorkUnit {
  stage: EpochStage;
  /** Sort key: lower runs first (compared element by element); the order a sequential run would take. */
  order: readonly number[];
  run: () => Promise<void>;
  /**
   * Work done ahead of the unit, outside the concurrency limit (loading a play's environment into
   * an interpreter of its own): the scheduler starts it early, for at most its look-ahead of units
   * at once, earliest in `order` first, and starts the unit only once it has settled.
   */
  prepare?: () => Promise<void>;
  /** The unit is not ready before this settles (the play before it on the same interpreter); waiting for it holds no place and no look-ahead. */
  after?: Promise<void>;
}

/** Called once the unit of work a gate let through has finished (a run controller's Step knows its unit is done). */
export type UnitDone = () => void;

/** Awaited before each unit of work starts (a run controller pauses here); may resolve to a UnitDone, called when that unit has finished. */
export type Gate = (stage: EpochStage) => Promise<UnitDone | void>;

/** How many units may run at once: the run's `concurrency`, bounded by what the model says it can take (1 when it says nothing). */
export function effectiveConcurrency(concurrency: number, model: Pick<ChatModel, 'maxConcurrency'>): number {
  const bound = Math.min(concurrency, model.maxConcurrency ?? 1);
  return Number.isFinite(bound) ? Math.max(1, Math.floor(bound)) : 1;
}

/** How many plays to load ahead of their turn: the interpreters the sandbox runs well at once (none when it does not say). */
export function lookAheadOf(sandbox: Pick<SandboxRuntime, 'parallelism'>): number {
  return Math.max(0, Math.floor(sandbox.parallelism ?? 0));
}

function before(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! < b[i]!;
  return a.length < b.length;
}

/**
 * Runs units of work, at most `limit` at once, always starting the ready unit first in `order`.
 * `gate` is awaited before each unit starts, one at a time (so a paused run starts nothing and a
 * step starts exactly one unit); what the gate resolves to, if anything, is called once that unit
 * has finished. Units may add further units while they run. A unit with `after` waits for it
 * first, holding nothing; a unit with `prepare` is ready once its preparation has settled; up to `lookAhead` units are prepared (or being prepared) and not
 * yet started at once, so a request never waits for what could be done beforehand, while a
 * unit still preparing never holds a place. Without preparations, at limit 1 the units run one
 * after another in `order`, whatever their timing. The first failure stops new starts; `drain`
 * rejects with it once every started unit and preparation has settled.
 */
export class Scheduler {
  private readonly ready: WorkUnit[] = [];
  private readonly unprepared: WorkUnit[] = [];
  private ahead = 0;
  private preparing = 0;
  private blocked = 0;
  private readonly released = new WeakSet<WorkUnit>();
  private running = 0;
  private dispatching = false;
  private failure: { error: unknown } | null = null;
  private idle: { resolve: () => void; reject: (error: unknown) => void } | null = null;
  /** The most units that were running at once. */
  peak = 0;

  constructor(
    private readonly limit: number,
    private readonly gate: Gate,
    private readonly lookAhead = 0,
  ) {}

  /** Queues a unit; it starts when what it comes after has settled, it is prepared, a place is free, and no earlier unit is ready. */
  add(unit: WorkUnit): void {
    if (unit.after) {
      const after = unit.after;
      this.blocked += 1;
      void after.then(
        () => this.unblock({ ...unit, after: undefined }),
        () => this.unblock({ ...unit, after: undefined }),
      );
      return;
    }
    if (unit.prepare && this.lookAhead > 0) this.unprepared.push(unit);
    else this.ready.push(unit.prepare ? { ...unit, run: () => unit.prepare!().then(unit.run) } : unit);
    this.prepareAhead();
    void this.dispatch();
  }

  private unblock(unit: WorkUnit): void {
    this.blocked -= 1;
    this.released.add(unit);
    if (this.failure) this.settle();
    else this.add(unit);
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

  // A unit that waited for another (`after`: a lane's next play) may have become ready while the
  // gate held `picked`: the earliest such unit of the same stage runs instead, as a sequential run
  // would take it, and `picked` waits again.
  private earliestOfStage(picked: WorkUnit): WorkUnit {
    const same = this.ready.filter((u) => this.released.has(u) && u.stage === picked.stage && before(u.order, picked.order));
    if (same.length === 0) return picked;
    const unit = earliest(same);
    this.ready.splice(this.ready.indexOf(unit), 1);
    this.ready.push(picked);
    const counted = (u: WorkUnit) => (u.prepare && this.lookAhead > 0 ? 1 : 0);
    this.ahead += counted(picked) - counted(unit);
    return unit;
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
          break;
        }
        this.peak = Math.max(this.peak, this.running);
        void this.start(this.earliestOfStage(picked), done);
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
    if (!this.idle || this.running > 0 || this.dispatching || this.preparing > 0) return;
    if (this.failure) this.idle.reject(this.failure.error);
    else if (this.ready.length === 0 && this.unprepared.length === 0 && this.blocked === 0) this.idle.resolve();
  }
}

// Removes and returns the unit first in `order` (the list is not empty).
function earliest(units: WorkUnit[]): WorkUnit {
  let best = 0;
  for (let i = 1; i < units.length; i++) if (before(units[i]!.order, units[best]!.order)) best = i;
  return units.splice(best, 1)[0]!;
}
