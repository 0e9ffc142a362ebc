import { TOUR_STEPS, type TourStep } from './tour-steps.ts';

/** The guided tour over the live view: open or not, which step, and whether it waits for the demo to start. */
export class GuidedTour {
  open = $state(false);
  index = $state(0);
  /** Set by "Start the demo and take the tour": the tour opens once the new run is shown. */
  pending = $state(false);

  constructor(readonly steps: readonly TourStep[] = TOUR_STEPS) {}

  /** The step shown. */
  get step(): TourStep {
    return this.steps[this.index]!;
  }

  /** Whether the step shown is the last. */
  get last(): boolean {
    return this.index === this.steps.length - 1;
  }

  /** Opens the tour at its first step. */
  start(): void {
    this.index = 0;
    this.open = true;
    this.pending = false;
  }

  /** Asks for the tour to open with the next run the app shows. */
  request(): void {
    this.pending = true;
  }

  /** The next step; after the last, closes the tour. */
  next(): void {
    if (this.last) this.close();
    else this.index += 1;
  }

  /** The previous step (stays on the first). */
  back(): void {
    this.index = Math.max(0, this.index - 1);
  }

  /** Closes the tour (and forgets a pending request). */
  close(): void {
    this.open = false;
    this.pending = false;
  }
}
