import { pageStorage, readPreference, writePreference, type PreferenceStorage } from './preferences.ts';

/** Reads whether lecture mode was left on; anything unreadable is off. */
export function readLectureMode(storage: PreferenceStorage | null): boolean {
  return readPreference(storage, 'lecture') === 'on';
}

/**
 * Lecture mode, for showing a run on a projector: large type, the live view following the work
 * with the run controls and the active slot's scores beside it, code folded once validated, and
 * keyboard shortcuts (space, right arrow). Kept in the page's storage across visits.
 */
export class LectureMode {
  on = $state(false);

  constructor(private readonly storage: PreferenceStorage | null = pageStorage()) {
    this.on = readLectureMode(storage);
  }

  /** Turns lecture mode on or off and keeps the choice (a storage that refuses only loses it for later visits). */
  set(on: boolean): void {
    this.on = on;
    writePreference(this.storage, 'lecture', on ? 'on' : 'off');
  }

  /** Switches lecture mode over. */
  toggle(): void {
    this.set(!this.on);
  }
}
