import type { Suite } from '../../core/eval/suite.ts';
import type { RunStore } from '../../core/ports/store-port.ts';
import type { FixedPoolPicker } from './fixed-pool.svelte.ts';
import { BUILTIN_CHOICE, loadChosenSuite, type SuiteChoice } from './suite-choice.ts';
import { errorMessage } from '../../core/error-message.ts';

/** A stored run whose pool can be a held-out suite: its id, name and committed epochs. */
export interface SuiteRunOption {
  id: string;
  name: string;
  epochs: number;
}

/** The chosen run's pool at the chosen epoch, as read to show what it holds. */
export interface RunPoolPreview {
  phase: 'none' | 'reading' | 'ready' | 'failed';
  suite: Suite | null;
  error: string | null;
}

const NO_PREVIEW: RunPoolPreview = { phase: 'none', suite: null, error: null };

/** What the choice needs from the composition root. */
export interface HeldOutChoiceDeps {
  store: Pick<RunStore, 'listRuns' | 'loadRun' | 'queryEnvironments'>;
  builtin: () => Promise<Suite>;
  /** Its own picker of an imported pool: every environment validated in the sandbox, rejects listed. */
  imported: FixedPoolPicker;
}

/** The held-out suite a person chooses (for a new run's scheduled evaluations, or for "Evaluate now"): the built-in suite, a stored run's pool at an epoch, or an imported pool. */
export class HeldOutChoice {
  /** Which kind of suite is chosen. */
  kind: SuiteChoice['kind'] = $state('builtin');
  /** Stored runs with at least one committed epoch, newest first (after `refresh`). */
  runs: SuiteRunOption[] = $state.raw([]);
  /** The chosen run, when the kind is `run`. */
  runId: string | null = $state(null);
  /** The chosen epoch of that run (as the app counts epochs: 1 is the first). */
  epoch = $state(1);
  /** The chosen run's pool at that epoch. */
  preview: RunPoolPreview = $state.raw(NO_PREVIEW);
  /** The imported pool's picker. */
  readonly imported: FixedPoolPicker;
  private sequence = 0;

  constructor(private readonly deps: HeldOutChoiceDeps) {
    this.imported = deps.imported;
  }

  /** Lists the stored runs again; a chosen run still stored is read again, one no longer stored gives way to the newest. */
  async refresh(): Promise<void> {
    const metas = await this.deps.store.listRuns();
    this.runs = metas
      .filter((meta) => meta.epochsCompleted > 0)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map((meta) => ({ id: meta.id, name: meta.name, epochs: meta.epochsCompleted }));
    if (this.kind !== 'run') return;
    const still = this.runs.find((run) => run.id === this.runId);
    if (still) await this.useRun(still.id, Math.min(this.epoch, still.epochs));
    else await this.setKind('run');
  }

  /** Chooses a kind; choosing `run` with no run chosen takes the newest at its last epoch. */
  async setKind(kind: SuiteChoice['kind']): Promise<void> {
    this.kind = kind;
    if (kind !== 'run') return;
    const chosen = this.runs.find((run) => run.id === this.runId) ?? this.runs[0];
    if (!chosen) {
      this.runId = null;
      this.preview = { ...NO_PREVIEW, phase: 'failed', error: 'No stored run has a committed epoch yet.' };
    } else if (chosen.id !== this.runId) await this.useRun(chosen.id);
  }

  /** Chooses a stored run's pool at `epoch` (default: its last committed epoch) and reads it to show what it holds. */
  async useRun(runId: string, epoch?: number): Promise<void> {
    const mine = ++this.sequence;
    this.kind = 'run';
    this.runId = runId;
    this.epoch = epoch ?? this.runs.find((run) => run.id === runId)?.epochs ?? 1;
    this.preview = { ...NO_PREVIEW, phase: 'reading' };
    const choice: SuiteChoice = { kind: 'run', runId, epoch: this.epoch };
    try {
      const suite = await loadChosenSuite(choice, { builtin: this.deps.builtin, store: this.deps.store });
      if (mine === this.sequence) this.preview = { phase: 'ready', suite, error: null };
    } catch (error) {
      if (mine === this.sequence) this.preview = { phase: 'failed', suite: null, error: errorMessage(error) };
    }
  }

  /** The choice as it stands, or null while it cannot be used (a run pool being read or unreadable, an imported pool not validated). */
  get choice(): SuiteChoice | null {
    if (this.kind === 'builtin') return BUILTIN_CHOICE;
    if (this.kind === 'run')
      return this.preview.phase === 'ready' && this.runId !== null
        ? { kind: 'run', runId: this.runId, epoch: this.epoch }
        : null;
    const picked = this.imported.state;
    return picked.phase === 'ready' && picked.pool ? { kind: 'pool', suite: picked.pool } : null;
  }

  /** What still has to be done before the choice can be used, or null when it can. */
  get missing(): string | null {
    if (this.choice) return null;
    if (this.kind === 'run')
      return this.preview.phase === 'reading'
        ? 'The run pool is being read.'
        : 'Choose a stored run and an epoch for the held-out suite.';
    return 'Import a pool (zip or folder) for the held-out suite; it is validated first.';
  }
}
