import { pageStorage, readPreference, writePreference, type PreferenceStorage } from './preferences.ts';
import { errorMessage } from '../../core/error-message.ts';

/** Where the start estimate comes from: this browser's last start, or a fixed guess on a first visit. */
export type EstimateSource = 'last start' | 'first visit';

/** The app's Python sandbox as the header shows it. */
export type PythonState =
  | { phase: 'idle' }
  | { phase: 'starting'; startedAt: number; estimateMs: number; source: EstimateSource }
  /** `coldBecause`: why Python started cold instead of from the build's snapshot (absent when it started from it). */
  | { phase: 'ready'; tookMs: number; coldBecause?: string }
  | { phase: 'failed'; message: string };

/** What a start reports: nothing, or why it started cold. */
export type PythonStart = { coldBecause: string } | void;

/** First-visit guess of a start, in ms: a first start on a fresh profile took 17-25 s in headless Chromium on a 2-core machine (Pyodide's files not yet cached). */
export const FIRST_VISIT_ESTIMATE_MS = 20_000;

const LONGEST_PLAUSIBLE_MS = 10 * 60_000;

/** The last start's duration saved in `storage`, or null when none is saved or it is not a plausible duration. */
export function savedStartMs(storage: PreferenceStorage | null): number | null {
  const raw = readPreference(storage, 'pythonStartMs');
  const ms = raw === null ? NaN : Number(raw);
  return Number.isFinite(ms) && ms > 0 && ms <= LONGEST_PLAUSIBLE_MS ? Math.round(ms) : null;
}

/**
 * Starts the app's Python sandbox on its first need and says where it stands: not started yet,
 * starting, with an estimate (this browser's last start, or a labelled first-visit guess), ready
 * with the time it took (remembered for the next visit's estimate) and, when it started cold
 * instead of from the build's snapshot, why, or failed with the reason.
 */
export class PythonStatus {
  state: PythonState = $state.raw({ phase: 'idle' });
  private started: Promise<void> = Promise.resolve();

  constructor(
    private readonly warm: () => Promise<PythonStart>,
    private readonly storage: PreferenceStorage | null = pageStorage(),
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Starts the sandbox once; later calls return the same start (a failed one is tried again). */
  start(): Promise<void> {
    if (this.state.phase === 'starting' || this.state.phase === 'ready') return this.started;
    const saved = savedStartMs(this.storage);
    const startedAt = this.now();
    this.state = {
      phase: 'starting',
      startedAt,
      estimateMs: saved ?? FIRST_VISIT_ESTIMATE_MS,
      source: saved === null ? 'first visit' : 'last start',
    };
    this.started = this.warm().then(
      (report) => {
        const tookMs = Math.round(this.now() - startedAt);
        this.state = report ? { phase: 'ready', tookMs, coldBecause: report.coldBecause } : { phase: 'ready', tookMs };
        // For measuring first paint to Python ready in a browser (tests/bench/first-view.ts).
        performance.mark('spade-python-ready');
        writePreference(this.storage, 'pythonStartMs', String(tookMs));
      },
      (error: unknown) => {
        this.state = { phase: 'failed', message: errorMessage(error) };
      },
    );
    return this.started;
  }
}
