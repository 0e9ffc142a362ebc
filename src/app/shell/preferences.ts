/** Where preferences are kept: the page's localStorage in the app, a plain object in tests. */
export type PreferenceStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Every key the app keeps in the page's localStorage, by what it holds (the only place these names are written). */
export const PREFERENCE_KEYS = {
  /** The colour theme a person chose: `dark` or `light`. */
  theme: 'spade-lab-theme',
  /** The id of the run opened last, opened again on the next visit. */
  lastRun: 'spade-lab-last-run',
  /** Lecture mode: `on` or `off`. */
  lecture: 'spade-lab-lecture',
  /** The scripted demo's streaming speed. */
  demoSpeed: 'spade-lab-demo-speed',
  /** How long an epoch's final scores stay on screen. */
  scoreHold: 'spade-lab-score-hold',
  /** The last Python start's duration in milliseconds, the next visit's estimate. */
  pythonStartMs: 'spade-lab-python-start-ms',
  /** The sweep in progress or last run, as JSON (one sweep at a time). */
  sweep: 'spade-lab-sweep',
} as const;

/** The name of one stored preference. */
export type PreferenceName = keyof typeof PREFERENCE_KEYS;

/** The page's localStorage, or null where the browser denies it. */
export function pageStorage(): PreferenceStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** A preference's stored text; null when it is absent or the storage is missing or refuses. */
export function readPreference(
  storage: Pick<PreferenceStorage, 'getItem'> | null,
  name: PreferenceName,
): string | null {
  try {
    return storage?.getItem(PREFERENCE_KEYS[name]) ?? null;
  } catch {
    return null;
  }
}

/** Keeps a preference; a storage that is missing or refuses (private mode, full) only loses it for later visits. */
export function writePreference(
  storage: Pick<PreferenceStorage, 'setItem'> | null,
  name: PreferenceName,
  value: string,
): void {
  try {
    storage?.setItem(PREFERENCE_KEYS[name], value);
  } catch {
    // The setting still applies in this tab through the caller's state.
  }
}
