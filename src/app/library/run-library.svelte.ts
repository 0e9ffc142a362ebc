import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import type { RunController } from '../run/run-controller.svelte.ts';
import type { RunLock } from '../../adapters/tabs/tab-link.ts';
import type { NewRun } from '../new-run/new-run.ts';
import { summarizeRuns, type RunSummary } from './run-summary.ts';
import type { RunPresence } from '../run/run-presence.svelte.ts';
import { runStatus, type RunStatusView } from '../run/run-status.ts';
import { errorMessage } from '../../core/error-message.ts';

/** What the library needs from the composition root. */
export interface RunLibraryDeps {
  store: RunStore;
  /** The controller of the open run (it creates, opens and runs one run at a time). */
  run: RunController;
  /** The lock the run controller takes to run a run: a run another tab holds is not deleted. */
  lock?: RunLock;
  /** The runs other tabs hold: the list reads itself again when one is taken, let go, or commits an epoch. */
  presence?: RunPresence;
}

/** Every stored run: the list (read again when this tab or another stores a change of a run), and opening, creating and deleting runs (never one that is running, here or in another tab). */
export class RunLibrary {
  /** The stored runs, as last read. */
  runs: RunMeta[] = $state.raw([]);
  /** Why the last delete deleted nothing, or null. */
  deleteError: string | null = $state(null);
  /** Each listed run's key settings and headline numbers, by run id, as last read. */
  summaries: Record<string, RunSummary> = $state.raw({});

  private reads = 0;

  constructor(private readonly deps: RunLibraryDeps) {
    const reread = () => void this.refresh().catch(() => undefined);
    deps.presence?.onChange(reread);
    deps.run.onStored(reread);
  }

  /** The run that is running, paused, stopping or being evaluated in this tab (it cannot be deleted), or null. */
  get activeId(): string | null {
    const { heldHere, meta, evaluating } = this.deps.run;
    return heldHere?.runId ?? (evaluating ? (meta?.id ?? null) : null);
  }

  /** A listed run's status, as every view shows it (the live view's comes from the same function). */
  statusOf(meta: RunMeta): RunStatusView {
    return runStatus(meta, this.deps.run.heldHere, this.deps.presence?.held ?? {});
  }

  /** Reads the list of stored runs again (and which of them other tabs hold). */
  async refresh(): Promise<RunMeta[]> {
    const read = ++this.reads;
    const [runs] = await Promise.all([
      this.deps.store.listRuns(),
      this.deps.presence?.refresh().catch(() => undefined),
    ]);
    const summaries = await summarizeRuns(this.deps.store, runs);
    if (read !== this.reads) return runs;
    this.runs = runs;
    this.summaries = summaries;
    return runs;
  }

  /** Creates a run and opens it (not started), then reads the list again. */
  async create(input: NewRun): Promise<RunMeta> {
    const meta = await this.deps.run.create(input);
    await this.refresh();
    return meta;
  }

  /** Opens a stored run in the run controller; false (with the reason as the controller's error) when it could not. */
  async open(runId: string): Promise<boolean> {
    try {
      await this.deps.run.open(runId);
      return true;
    } catch (error) {
      this.deps.run.error = errorMessage(error);
      return false;
    }
  }

  /** Deletes a run and everything it produced; false (with `deleteError` saying why) when it deleted nothing. */
  async delete(runId: string): Promise<boolean> {
    this.deleteError = null;
    this.deleteError = await this.deleteUnlessRunning(runId);
    await this.refresh();
    return this.deleteError === null;
  }

  private async deleteUnlessRunning(runId: string): Promise<string | null> {
    if (this.activeId === runId)
      return 'This run is running in this tab: abort it on the Live run view before deleting it. Nothing was deleted.';
    const release = this.deps.lock ? await this.deps.lock(runId) : () => undefined;
    if (!release)
      return 'Another tab is running this run: stop it there (or close that tab) before deleting it. Nothing was deleted.';
    try {
      await this.deps.store.deleteRun(runId);
      if (this.deps.run.meta?.id === runId) this.deps.run.meta = null;
      return null;
    } catch (error) {
      return `The run could not be deleted: ${errorMessage(error)}. It is unchanged.`;
    } finally {
      await release();
    }
  }
}
