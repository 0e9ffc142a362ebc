import { pageStorage, type SpeedStorage } from '../run/demo-speed.ts';

const STORAGE_KEY = 'spade-lab-lecture';

/** Reads whether lecture mode was left on; anything unreadable is off. */
export function readLectureMode(storage: SpeedStorage | null): boolean {
  try {
    return storage?.getItem(STORAGE_KEY) === 'on';
  } catch {
    return false;
  }
}

/**
 * Lecture mode, for showing a run on a projector: large type, the live view following the work
 * with the run controls and the active slot's scores beside it, code folded once validated, and
 * keyboard shortcuts (space, right arrow). Kept in the page's storage across visits.
 */
export class LectureMode {
  on = $state(false);

  constructor(private readonly storage: SpeedStorage | null = pageStorage()) {
    this.on = readLectureMode(storage);
  }

  /** Turns lecture mode on or off and keeps the choice (a storage that refuses only loses it for later visits). */
  set(on: boolean): void {
    this.on = on;
    try {
      this.storage?.setItem(STORAGE_KEY, on ? 'on' : 'off');
    } catch {
      // The mode still applies in this tab.
    }
  }

  /** Switches lecture mode over. */
  toggle(): void {
    this.set(!this.on);
  }
}
