import type { EpochStage, SpadeEvent } from '../../core/loop/events.ts';
import type { EvalProgress } from '../suites/eval-progress.ts';
import type { LiveEpoch } from './live-epoch.ts';
import type { RunAnnouncement } from './run-announcement.ts';
import type { TabLink } from '../../adapters/tabs/tab-link.ts';

/** How often a run followed read-only is read from the store again, in milliseconds (a missed announcement still shows). */
export const FOLLOW_POLL_MS = 1000;

/** What following a run changes in the view that follows it. */
export interface FollowedView {
  /** The holder's live epoch and evaluation as they are now (the first thing shown). */
  snapshot(live: LiveEpoch | null, evaluation: EvalProgress | null): void;
  /** Events the holder applied to its live epoch since. */
  events(events: readonly SpadeEvent[]): void;
  /** Where the holder stands: the unit it is at, and its committed epochs (more than the view has: it committed one). */
  state(stage: EpochStage | null, epochsCompleted: number): void;
  /** Called every `pollMs`: read the store again. */
  poll(): void;
}

/**
 * Following, read-only, a run another tab holds: asks that tab for its live epoch, then takes
 * its events (only after the snapshot, so none is applied twice or to nothing) and its state, and
 * polls the store as a fallback. Messages about other runs are ignored.
 */
export class RunFollow {
  private synced = false;
  private readonly timer: ReturnType<typeof setInterval>;

  constructor(
    /** The run followed. */
    readonly runId: string,
    private readonly view: FollowedView,
    link: Pick<TabLink<RunAnnouncement>, 'post'>,
    pollMs = FOLLOW_POLL_MS,
  ) {
    this.timer = setInterval(() => view.poll(), pollMs);
    link.post({ type: 'ask', runId, live: true });
  }

  /** Takes a message from the tab holding the run. */
  hear(message: RunAnnouncement): void {
    if (message.runId !== this.runId) return;
    if (message.type === 'snapshot') {
      this.view.snapshot(message.live, message.evaluation);
      this.synced = true;
    }
    if (message.type === 'events' && this.synced) this.view.events(message.events);
    if (message.type === 'state' || message.type === 'snapshot')
      this.view.state(message.stage, message.epochsCompleted);
  }

  /** Stops following (no more polls; later messages are the caller's to drop). */
  stop(): void {
    clearInterval(this.timer);
  }
}
