import type { AnnouncedState, RunAnnouncement } from './run-announcement.ts';
import type { HeldElsewhere } from './run-status.ts';
import type { TabLink } from '../../adapters/tabs/tab-link.ts';

/** How often the locks are read again while another tab holds a run, in milliseconds (a closed or crashed tab lets go without a word). */
export const PRESENCE_POLL_MS = 1000;

type Entry = Pick<AnnouncedState, 'status' | 'epochsCompleted'> | null;

/**
 * The runs other tabs hold, and what those tabs last announced about them: from the run locks
 * (read again every `pollMs` while any is held elsewhere) and the announcements. A `finished`
 * announcement ends a hold at once; a tab that closes or crashes ends it within about two reads.
 */
export class RunPresence {
  /** The runs other tabs hold, by id, with their last announced status and committed epochs (null: not heard yet). */
  elsewhere: Readonly<Record<string, Entry>> = $state.raw({});

  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners, not state the UI reads
  private readonly changed = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private reads = 0;
  /** When each run was first found free without a word from its tab (let go once it has stayed so for `pollMs`). */
  private silentSince: Record<string, number> = {};
  /** Per run, the read count when its tab announced it finished: a lock read started before then may still see it held. */
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup for lock reads, not state the UI reads
  private readonly finishedAt = new Map<string, number>();

  constructor(
    /** This tab's link to the others (locks and announcements). */
    readonly link: TabLink<RunAnnouncement>,
    private readonly pollMs = PRESENCE_POLL_MS,
  ) {
    link.listen((message) => this.hear(message));
  }

  /** The runs other tabs hold, as `runStatus` takes them. */
  get held(): HeldElsewhere {
    return this.elsewhere;
  }

  /** Calls `listener` when a run is taken or let go by another tab, or its announced status or committed epochs change; returns the function that stops it. */
  onChange(listener: () => void): () => void {
    this.changed.add(listener);
    return () => this.changed.delete(listener);
  }

  /**
   * Reads which runs other tabs hold now, and asks the tab holding one it did not know of where
   * that run stands. A run whose lock is free but whose tab said nothing is let go by a read `pollMs`
   * or more later that still finds it free: a tab that finishes normally says so right after
   * releasing the lock, and what it sent before (its last events) arrives first.
   */
  async refresh(): Promise<void> {
    const started = ++this.reads;
    const ids = await this.link.heldElsewhere();
    const next: Record<string, Entry> = {};
    for (const id of ids) if ((this.finishedAt.get(id) ?? 0) <= started) next[id] = this.elsewhere[id] ?? null;
    for (const id of Object.keys(next))
      if (!(id in this.elsewhere)) this.link.post({ type: 'ask', runId: id, live: false });
    const now = Date.now();
    const silentSince: Record<string, number> = {};
    for (const id of Object.keys(this.elsewhere)) {
      if (id in next) continue;
      const since = this.silentSince[id] ?? now;
      if (now - since >= this.pollMs) continue;
      silentSince[id] = since;
      next[id] = this.elsewhere[id] ?? null;
    }
    this.silentSince = silentSince;
    this.set(next);
  }

  private hear(message: RunAnnouncement): void {
    if (message.type === 'state' || message.type === 'snapshot') {
      this.finishedAt.delete(message.runId);
      this.set({
        ...this.elsewhere,
        [message.runId]: { status: message.status, epochsCompleted: message.epochsCompleted },
      });
    } else if (message.type === 'finished') {
      this.finishedAt.set(message.runId, this.reads + 1);
      const rest = { ...this.elsewhere };
      delete rest[message.runId];
      this.set(rest);
    }
  }

  private set(next: Record<string, Entry>): void {
    const before = this.elsewhere;
    const same =
      Object.keys(before).length === Object.keys(next).length &&
      Object.entries(next).every(
        ([id, entry]) =>
          id in before &&
          before[id]?.status === entry?.status &&
          before[id]?.epochsCompleted === entry?.epochsCompleted,
      );
    if (!same) {
      this.elsewhere = next;
      for (const listener of this.changed) listener();
    }
    this.schedule();
  }

  private schedule(): void {
    if (this.timer !== null || Object.keys(this.elsewhere).length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.refresh().catch(() => this.schedule());
    }, this.pollMs);
  }
}
