/** How fast the scripted demo streams its replies: slow for a lecture, normal to watch, instant for results. */
export type DemoSpeed = 'slow' | 'normal' | 'instant';

/** Pause between streamed pieces (about a word each) for each demo speed, in milliseconds. */
export const DEMO_PIECE_DELAY_MS: Readonly<Record<DemoSpeed, number>> = { slow: 25, normal: 3, instant: 0 };

/** The speeds in the order the control offers them. */
export const DEMO_SPEEDS: readonly DemoSpeed[] = ['slow', 'normal', 'instant'];

const STORAGE_KEY = 'spade-lab-demo-speed';

/** Storage the speed is kept in (the page's localStorage in the app). */
export type SpeedStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** Reads the saved demo speed; anything unreadable or unknown is `normal`. */
export function readDemoSpeed(storage: SpeedStorage | null): DemoSpeed {
  let saved: string | null = null;
  try {
    saved = storage?.getItem(STORAGE_KEY) ?? null;
  } catch {
    saved = null;
  }
  return (DEMO_SPEEDS as readonly string[]).includes(saved ?? '') ? (saved as DemoSpeed) : 'normal';
}

/** Saves the demo speed; a storage that refuses (private mode, full) only loses the preference. */
export function saveDemoSpeed(storage: SpeedStorage | null, speed: DemoSpeed): void {
  try {
    storage?.setItem(STORAGE_KEY, speed);
  } catch {
    // The speed still applies to this tab through the caller's state.
  }
}

/** The page's localStorage, or null where the browser denies it. */
export function pageStorage(): SpeedStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

let current: DemoSpeed | null = null;

/** The demo speed in force in this tab (read from storage once). */
export function currentDemoSpeed(): DemoSpeed {
  current ??= readDemoSpeed(pageStorage());
  return current;
}

/** Changes the demo speed at once, also for a demo already streaming, and keeps it for later visits. */
export function setDemoSpeed(speed: DemoSpeed): void {
  current = speed;
  saveDemoSpeed(pageStorage(), speed);
}
