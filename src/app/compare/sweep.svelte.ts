import type { ControllerStatus, RunController } from '../run/run-controller.svelte.ts';
import type { RunLock } from '../../adapters/tabs/tab-link.ts';
import {
  previewSweep,
  type SweepForm,
  type SweepPlan,
  type SweepPlanCell,
  type SweepPlanStorage,
  type SweepPreview,
} from './sweep-plan.ts';
import { errorMessage } from '../../core/error-message.ts';
import type { ComparisonStore } from './compare-data.ts';
import { loadSweepFigures, sweepFigureRows, type SweepCellFigures, type SweepFigureRow } from './sweep-figures.ts';

/** What the sweep controller needs from the composition root. */
export interface SweepDeps {
  /** The run controller of this tab: the sweep creates, opens and starts its runs through it, one at a time. */
  run: Pick<RunController, 'create' | 'open' | 'start' | 'abort' | 'status' | 'meta' | 'error' | 'evaluating'>;
  /** Reads the Runs list again once the sweep's runs are created. */
  refreshRuns: () => Promise<unknown>;
  storage: SweepPlanStorage;
  /** Where the sweep's runs are read back for its figures per cell. */
  store: ComparisonStore;
  /** Model id of the scripted demo (its copied commands name the demo's script file). */
  demoModelId: string;
  /** Whether the model can run now (an in-tab model has to be loaded again after a reload). */
  modelReady: (modelId: string) => boolean;
  /** Held while this tab drives the sweep (key `sweep`), so a second tab does not drive it too. */
  lock?: RunLock;
  /** How often the controller looks whether the run under way has ended, in milliseconds (default 250). */
  pollMs?: number;
  now?: () => number;
}

const BUSY: readonly ControllerStatus[] = ['running', 'paused', 'stopping'];

/** A sweep in the tab: one run per grid cell, run one after another, kept across reloads, cancellable. */
export class SweepController {
  /** The sweep under way or last run (null: none), as stored. */
  plan: SweepPlan | null = $state.raw(null);
  /** True while this tab drives the sweep. */
  driving = $state(false);
  /** Why the sweep could not start or go on, or null. */
  error: string | null = $state(null);
  /** A status line (resumed after a reload, waiting for a model), or null. */
  notice: string | null = $state(null);

  /** Each grid cell's held-out mean over its seeds and its interval, as last read (null: not read yet). */
  private cellFigures: SweepCellFigures[] | null = $state.raw(null);
  /** Why the figures could not be read, or null. */
  figuresError: string | null = $state(null);

  private cancelRequested = false;
  private figuresRead = 0;

  constructor(private readonly deps: SweepDeps) {}

  /** The runs and commands a form would make, or what is wrong with it. */
  preview(form: SweepForm): SweepPreview {
    return previewSweep(form, this.deps.demoModelId);
  }

  /** The run ids of the sweep's cells, in cell order (for the comparison). */
  get runIds(): string[] {
    return this.plan?.cells.map((c) => c.runId) ?? [];
  }

  /** Epochs committed and planned of the cell running now in this tab, or null. */
  get runningEpochs(): { done: number; planned: number } | null {
    const cell = this.plan?.cells.find((c) => c.status === 'running');
    const meta = this.deps.run.meta;
    return this.driving && cell && meta?.id === cell.runId
      ? { done: meta.epochsCompleted, planned: meta.epochsPlanned }
      : null;
  }

  /** The table's rows: the figures as last read, each cell's completed runs as the plan stands now (null: not read yet). */
  get figures(): SweepFigureRow[] | null {
    return this.cellFigures && this.plan ? sweepFigureRows(this.cellFigures, this.plan) : null;
  }

  /** Reads the sweep's figures per cell again (a later call wins over one still reading). */
  async loadFigures(): Promise<void> {
    const plan = this.plan;
    const mine = ++this.figuresRead;
    if (!plan) {
      this.cellFigures = null;
      return;
    }
    try {
      const figures = await loadSweepFigures(this.deps.store, plan);
      if (mine !== this.figuresRead) return;
      this.cellFigures = figures;
      this.figuresError = null;
    } catch (error) {
      if (mine === this.figuresRead)
        this.figuresError = `The sweep's runs could not be read for its figures: ${errorMessage(error)}.`;
    }
  }

  /** Creates one run per cell and runs them one after another; false (with `error` saying why) when nothing was created. */
  async start(form: SweepForm): Promise<boolean> {
    this.error = null;
    this.notice = null;
    if (this.driving || this.plan?.status === 'running')
      return this.refuse('A sweep is under way: cancel it, or let it finish, before starting another.');
    if (this.tabBusy())
      return this.refuse(
        'A run or an evaluation is under way in this tab: let it finish or stop it on the Live run view, then start the sweep.',
      );
    const preview = this.preview(form);
    if ('error' in preview) return this.refuse(preview.error);
    const cells: SweepPlanCell[] = [];
    try {
      for (const planned of preview.cells) {
        const meta = await this.deps.run.create({
          name: planned.name,
          config: planned.config,
          modelId: form.modelId,
          epochsPlanned: form.epochs,
        });
        cells.push({ name: planned.name, runId: meta.id, status: 'pending', error: null });
      }
    } catch (error) {
      if (cells.length === 0) return this.refuse(`The sweep's runs could not be created: ${errorMessage(error)}`);
      this.error = `Only ${cells.length} of ${preview.cells.length} runs could be created (${errorMessage(error)}); the sweep runs those.`;
    }
    this.save({ form, status: 'running', cells, createdAt: (this.deps.now ?? Date.now)() });
    await this.deps.refreshRuns();
    void this.drive();
    return true;
  }

  /** Reads the stored sweep after a reload; one that was running goes on at once when its model is ready (true), else says what to load. */
  restore(): boolean {
    const plan = this.deps.storage.load();
    this.plan = plan;
    if (!plan || plan.status !== 'running') return false;
    const at = plan.cells.findIndex((c) => c.status === 'running' || c.status === 'pending');
    const where = `cell ${at + 1} of ${plan.cells.length}`;
    if (!this.deps.modelReady(plan.form.modelId)) {
      this.notice = `A reload interrupted this sweep at ${where}. Load ${plan.form.modelLabel} under Model, then continue the sweep.`;
      return false;
    }
    this.notice = `A reload interrupted this sweep at ${where}; it goes on from that cell's last committed epoch.`;
    void this.drive();
    return true;
  }

  /** Goes on with a sweep that stopped or was interrupted: failed cells run again (from their last committed epoch), then the pending ones. */
  continue(): void {
    const plan = this.plan;
    if (!plan || this.driving) return;
    this.error = null;
    this.notice = null;
    this.save({
      ...plan,
      status: 'running',
      cells: plan.cells.map((c) =>
        c.status === 'failed' || c.status === 'cancelled' ? { ...c, status: 'pending', error: null } : c,
      ),
    });
    void this.drive();
  }

  /** Cancels the sweep: the run under way is aborted (its committed epochs stay), the cells not run are marked cancelled. */
  cancel(): void {
    const plan = this.plan;
    if (!plan || plan.status !== 'running') return;
    this.cancelRequested = true;
    const current = plan.cells.find((c) => c.status === 'running');
    if (current && this.deps.run.meta?.id === current.runId) this.deps.run.abort();
    if (!this.driving) this.finish();
  }

  /** Forgets a sweep that is not running (its runs stay in the Runs list). */
  dismiss(): void {
    if (this.driving || this.plan?.status === 'running') return;
    this.deps.storage.clear();
    this.plan = null;
    this.notice = null;
    this.error = null;
  }

  /** True while the run controller runs a run or evaluates one (the sweep waits before opening its next run). */
  private tabBusy(): boolean {
    return BUSY.includes(this.deps.run.status) || this.deps.run.evaluating;
  }

  private refuse(message: string): false {
    this.error = message;
    return false;
  }

  private save(plan: SweepPlan): void {
    this.plan = plan;
    this.deps.storage.save(plan);
  }

  private setCell(index: number, patch: Partial<SweepPlanCell>): void {
    const plan = this.plan!;
    this.save({ ...plan, cells: plan.cells.map((c, i) => (i === index ? { ...c, ...patch } : c)) });
  }

  private finish(): void {
    const cancelled = this.cancelRequested;
    const cells = this.plan!.cells.map((c) =>
      cancelled && (c.status === 'pending' || c.status === 'running') ? { ...c, status: 'cancelled' as const } : c,
    );
    this.save({ ...this.plan!, status: cancelled ? 'cancelled' : 'finished', cells });
    this.cancelRequested = false;
  }

  private async drive(): Promise<void> {
    if (this.driving) return;
    this.driving = true;
    this.cancelRequested = false;
    const release = this.deps.lock ? await this.deps.lock('sweep') : () => undefined;
    if (!release) {
      this.driving = false;
      this.error = 'Another tab is running this sweep; it goes on there. Close that tab to run it here.';
      return;
    }
    try {
      for (;;) {
        const index = this.plan!.cells.findIndex((c) => c.status === 'running' || c.status === 'pending');
        if (index < 0 || this.cancelRequested) break;
        await this.runCell(index);
      }
      this.finish();
    } finally {
      this.driving = false;
      release();
    }
  }

  private async runCell(index: number): Promise<void> {
    const { run } = this.deps;
    const cell = this.plan!.cells[index]!;
    this.setCell(index, { status: 'running', error: null });
    try {
      await this.until(() => this.cancelRequested || !this.tabBusy());
      if (this.cancelRequested) return this.setCell(index, { status: 'cancelled' });
      await run.open(cell.runId);
      if (run.status !== 'completed') {
        await run.start();
        if (!BUSY.includes(run.status)) throw new Error(run.error ?? 'The run did not start.');
        await this.until(() => run.meta?.id !== cell.runId || !BUSY.includes(run.status));
      }
      if (run.status === 'completed') this.setCell(index, { status: 'completed' });
      else if (this.cancelRequested) this.setCell(index, { status: 'cancelled' });
      else
        this.setCell(index, {
          status: 'failed',
          error: run.error ?? `The run stopped (${run.status}) before its last epoch; continue the sweep to run it on.`,
        });
    } catch (error) {
      this.setCell(index, { status: this.cancelRequested ? 'cancelled' : 'failed', error: errorMessage(error) });
    }
  }

  private async until(done: () => boolean): Promise<void> {
    while (!done()) await new Promise((resolve) => setTimeout(resolve, this.deps.pollMs ?? 250));
  }
}
