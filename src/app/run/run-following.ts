import type { RunStore } from '../../core/ports/store-port.ts';
import type { RunAnnouncement } from './run-announcement.ts';
import { RunFollow, type FollowedView } from './run-follow.ts';
import type { RunPresence } from './run-presence.svelte.ts';
import { RunViewState } from './run-view-state.svelte.ts';

/** What following a run another tab holds needs from the composition root. */
export interface FollowingDeps {
  store: RunStore;
  /** The runs other tabs hold, and the link to them (announcements); absent: this tab is alone. */
  presence?: RunPresence;
  /** How often a run another tab holds is read from the store again, in milliseconds (default FOLLOW_POLL_MS, run-follow.ts). */
  pollMs?: number;
}

/**
 * The open run's view, kept current while another tab holds the run: it follows that tab's
 * announcements live, read-only, and reads the store again when that tab commits or lets go. The
 * run controller builds on it (run-playing.svelte.ts, run-controller.svelte.ts).
 */
export class RunFollowing<Deps extends FollowingDeps> extends RunViewState {
  /** Changes whenever another run is opened: work begun for an earlier view leaves the view alone. */
  protected view = 0;
  /** The run another tab holds that this view follows, or null. */
  private follow: RunFollow | null = null;
  /** Counts store reads of the open run, so an older read never overwrites a newer one. */
  private reads = 0;

  constructor(protected readonly deps: Deps) {
    super(deps.presence);
    deps.presence?.link.listen((message) => this.hear(message));
    deps.presence?.onChange(() => this.followIfHeldElsewhere());
  }

  /** Heard from another tab: news of the run this view follows (the run controller also answers questions about the run this tab holds). */
  protected hear(message: RunAnnouncement): void {
    this.follow?.hear(message);
  }

  /** Follows the open run while another tab holds it; when that tab lets go (finished, closed or crashed), reads the run's outcome from the store. */
  protected followIfHeldElsewhere(): void {
    const meta = this.meta;
    const link = this.deps.presence?.link;
    if (meta && link && this.readOnly && !this.follow) {
      const view = this.view;
      const shown = (show: () => void) => {
        if (view === this.view) show();
      };
      this.notice = null;
      const followed: FollowedView = {
        snapshot: (live, evaluation) =>
          shown(() => {
            this.live = live;
            this.evaluation = evaluation;
          }),
        events: (events) => shown(() => this.applyEvents(events)),
        state: (stage, epochsCompleted) =>
          shown(() => {
            this.stage = stage;
            if (epochsCompleted !== this.meta?.epochsCompleted) void this.reread(view, false);
          }),
        poll: () => void this.pollStore(view),
      };
      this.follow = new RunFollow(meta.id, followed, link, this.deps.pollMs);
    } else if (!this.readOnly && this.follow) {
      this.stopFollowing();
      void this.reread(this.view, true);
    }
  }

  /** Stops following the run another tab holds (no more polls; its messages are dropped). */
  protected stopFollowing(): void {
    this.follow?.stop();
    this.follow = null;
  }

  /** The store, read while following: an epoch the other tab committed shows even if its announcement was missed. */
  private async pollStore(view: number): Promise<void> {
    const runId = this.follow?.runId;
    if (!runId) return;
    const metrics = await this.deps.store.metricsOf(runId).catch(() => null);
    if (metrics && view === this.view && this.follow && metrics.length !== this.history.length)
      await this.reread(view, false);
  }

  /** Reads the open run's meta and history again; `released`: the tab that held it let go, so its status, notice and live epoch are settled from the store. */
  private async reread(view: number, released: boolean): Promise<void> {
    const runId = this.meta?.id;
    if (!runId) return;
    const read = ++this.reads;
    const [loaded, history] = await Promise.all([
      this.deps.store.loadRun(runId),
      this.deps.store.metricsOf(runId),
    ]).catch(() => [null, []] as const);
    if (view !== this.view || read !== this.reads || !loaded) return;
    this.meta = loaded.meta;
    this.history = [...history];
    if (!released) return;
    this.stage = null;
    this.showSettled(loaded.meta);
    if (this.shown?.word === 'interrupted') this.live = null;
  }
}
