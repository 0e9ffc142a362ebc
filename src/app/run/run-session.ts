import type { EpochStage, SpadeEvent } from '../../core/loop/events.ts';
import type { UnitDone } from '../../core/loop/scheduler.ts';
import type { ActiveStatus } from './run-announcement.ts';
import type { ReleaseLock } from '../../adapters/tabs/tab-link.ts';

/**
 * One start of a run in this tab, from the lock taken to the lock released: its own abort signal,
 * pause gate, step and event buffer. Nothing here is shared with the next start, so a run
 * that is still stopping cannot act on (or write into) a run opened after it.
 */
export class RunSession {
  /** Aborts this start's epoch in progress. */
  readonly abort = new AbortController();
  /** Events not yet applied to the live view (streamed tokens wait for the next flush). */
  buffered: SpadeEvent[] = [];
  flushScheduled = false;
  /** The unit of work the start is at or waiting before. */
  stage: EpochStage | null = null;
  /** Epochs of the run committed so far. */
  epochsCompleted: number;
  /** True from a step until the unit it let through has finished (a step meanwhile is refused). */
  stepping = false;
  /** A step asked for whose unit has not passed the gate yet. */
  private stepPending = false;
  private wake: (() => void) | null = null;
  private released: Promise<void> | null = null;

  constructor(
    /** The run this start works on: every store write of the start goes to it. */
    readonly runId: string,
    /** The controller's view token when the start began: the start updates the view only while the token is unchanged. */
    readonly view: number,
    /** running, paused, or stopping (after abort, until the loop has ended). */
    public status: ActiveStatus,
    private readonly releaseLock: ReleaseLock,
    epochsCompleted: number,
  ) {
    this.epochsCompleted = epochsCompleted;
  }

  /** Pauses before the next unit of work; false when not running. */
  pause(): boolean {
    if (this.status !== 'running') return false;
    this.status = 'paused';
    return true;
  }

  /** While paused, lets exactly one more unit of work start; false when not paused or a step's unit still runs (refused, never queued). */
  step(): boolean {
    if (this.status !== 'paused' || this.stepping) return false;
    this.stepping = true;
    this.stepPending = true;
    this.wake?.();
    return true;
  }

  /** Continues after a pause; false when not paused. */
  resume(): boolean {
    if (this.status !== 'paused') return false;
    this.status = 'running';
    this.wake?.();
    return true;
  }

  /** Stops at once (the epoch in progress is discarded); false when already stopping. */
  stop(): boolean {
    if (this.status === 'stopping') return false;
    this.status = 'stopping';
    this.abort.abort();
    this.wake?.();
    return true;
  }

  /** Awaited before each unit of work: holds while paused, unless a step was asked for or the start was aborted; a unit a step lets through gets the function to call when it is done. */
  async gate(): Promise<UnitDone | void> {
    while (this.status === 'paused' && !this.stepPending && !this.abort.signal.aborted) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    if (!this.stepPending) return;
    this.stepPending = false;
    return () => (this.stepping = false);
  }

  /** Releases the run's lock (once); settles when it is released. */
  release(): Promise<void> {
    this.released ??= Promise.resolve(this.releaseLock());
    return this.released;
  }
}
