import { pageStorage, readPreference, writePreference, type PreferenceStorage } from '../shell/preferences.ts';

/** How fast the scripted demo streams its replies: slow for a lecture, normal to watch, instant for results. */
export type DemoSpeed = 'slow' | 'normal' | 'instant';

/** Pause between streamed pieces (about a word each) for each demo speed, in milliseconds. */
export const DEMO_PIECE_DELAY_MS: Readonly<Record<DemoSpeed, number>> = { slow: 25, normal: 3, instant: 0 };

/** The speeds in the order the control offers them. */
export const DEMO_SPEEDS: readonly DemoSpeed[] = ['slow', 'normal', 'instant'];

/** Reads the saved demo speed; anything unreadable or unknown is `normal`. */
export function readDemoSpeed(storage: PreferenceStorage | null): DemoSpeed {
  const saved = readPreference(storage, 'demoSpeed');
  return (DEMO_SPEEDS as readonly string[]).includes(saved ?? '') ? (saved as DemoSpeed) : 'normal';
}

/** Saves the demo speed; a storage that refuses (private mode, full) only loses the preference. */
export function saveDemoSpeed(storage: PreferenceStorage | null, speed: DemoSpeed): void {
  writePreference(storage, 'demoSpeed', speed);
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
