/** Prefix of the Web Lock a tab holds while it runs a run (or a sweep). */
export const RUN_LOCK_PREFIX = 'spade-lab-run-';

/** Lets go of a run's lock; the promise (when there is one) settles once it is really released. */
export type ReleaseLock = () => void | Promise<void>;

/** Holds a run exclusively; returns a release function, or null when another tab holds it. */
export type RunLock = (runId: string) => Promise<ReleaseLock | null>;

/** This tab's link to the other tabs of the app: run locks, who holds them, and announcements (`Message`: what tabs tell each other). */
export interface TabLink<Message> {
  /** Holds a run's lock for this tab; null when another tab holds it. */
  lock: RunLock;
  /** Ids of the runs whose lock another tab holds now (this tab's own are left out). */
  heldElsewhere(): Promise<string[]>;
  /** Sends an announcement to the other tabs (never to this one). */
  post(message: Message): void;
  /** Calls `listener` with each announcement from another tab; returns the function that stops it. */
  listen(listener: (message: Message) => void): () => void;
}

/** The name of the app's BroadcastChannel. */
export const RUN_CHANNEL = 'spade-lab-runs';

/**
 * The browser's link: Web Locks named `RUN_LOCK_PREFIX + id`, and one BroadcastChannel (without them: every lock is granted, nothing is heard);
 * `read` turns what arrives into a message, or null to ignore it.
 */
export function browserTabLink<Message>(read: (data: unknown) => Message | null): TabLink<Message> {
  const mine = new Map<string, number>();
  const listeners = new Set<(message: Message) => void>();
  const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(RUN_CHANNEL) : null;
  channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
    const message = read(event.data);
    if (message) for (const listener of listeners) listener(message);
  });
  const lock: RunLock = (runId) =>
    new Promise((resolve) => {
      if (!navigator.locks) {
        resolve(() => undefined);
        return;
      }
      let granted = false;
      // The id leaves `mine` once the lock is really released, so this tab never sees its own lock as another's.
      const done = navigator.locks.request(`${RUN_LOCK_PREFIX}${runId}`, { ifAvailable: true }, (held) => {
        if (!held) {
          resolve(null);
          return undefined;
        }
        granted = true;
        mine.set(runId, (mine.get(runId) ?? 0) + 1);
        return new Promise<void>((release) =>
          resolve(() => {
            release();
            return released;
          }),
        );
      });
      const released = done.then(() => {
        if (!granted) return;
        const left = (mine.get(runId) ?? 1) - 1;
        if (left > 0) mine.set(runId, left);
        else mine.delete(runId);
      });
    });
  return {
    lock,
    async heldElsewhere() {
      if (!navigator.locks) return [];
      const { held = [] } = await navigator.locks.query();
      const ids = held.flatMap((l) =>
        l.name?.startsWith(RUN_LOCK_PREFIX) ? [l.name.slice(RUN_LOCK_PREFIX.length)] : [],
      );
      return ids.filter((id) => !mine.has(id));
    },
    post: (message) => channel?.postMessage(message),
    listen(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
