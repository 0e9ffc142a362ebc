/** The part of `navigator.storage` these helpers use (absent in Node and in some embedded browsers). */
export interface StorageManagerLike {
  persist?: () => Promise<boolean>;
  persisted?: () => Promise<boolean>;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
}

/** Outcome of asking for persistent storage. */
export type PersistOutcome = 'granted' | 'denied' | 'unavailable';

function defaultStorage(): StorageManagerLike | undefined {
  return (globalThis as { navigator?: { storage?: StorageManagerLike } }).navigator?.storage;
}

/**
 * Asks the browser not to evict this origin's storage under pressure. `unavailable` where the
 * API is missing or throws (Node, some embedded browsers); then data may be evicted.
 */
export async function requestPersistentStorage(
  storage: StorageManagerLike | undefined = defaultStorage(),
): Promise<PersistOutcome> {
  if (!storage?.persist) return 'unavailable';
  try {
    if (await storage.persisted?.()) return 'granted';
    return (await storage.persist()) ? 'granted' : 'denied';
  } catch {
    return 'unavailable';
  }
}

/** Bytes used and the quota, as the browser estimates them. */
export interface StorageEstimate {
  usage: number;
  quota: number;
  /** usage / quota, in [0, 1] (0 when the quota is unknown). */
  fraction: number;
}

/** The browser's storage estimate, or null where the API is missing or fails. */
export async function estimateStorage(
  storage: StorageManagerLike | undefined = defaultStorage(),
): Promise<StorageEstimate | null> {
  if (!storage?.estimate) return null;
  try {
    const { usage = 0, quota = 0 } = await storage.estimate();
    return { usage, quota, fraction: quota > 0 ? Math.min(1, usage / quota) : 0 };
  } catch {
    return null;
  }
}
