import type { ChatModel } from '../../core/ports/chat-port.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { MAX_EPOCHS } from '../new-run/share-settings.ts';
import { evaluateOpenRun } from '../suites/evaluate-now.ts';
import { BUILTIN_CHOICE, loadChosenSuite, type SuiteChoice } from '../suites/suite-choice.ts';
import { newRunMeta, type NewRun } from '../new-run/new-run.ts';
import { suiteSources } from './run-loop.ts';
import { RunPlaying, type PlayingDeps } from './run-playing.svelte.ts';
import { RunSession } from './run-session.ts';
import type { RunLock } from '../../adapters/tabs/tab-link.ts';

export type { ControllerStatus } from './run-view-state.svelte.ts';

/** What the controller needs from the composition root. */
export interface RunControllerDeps extends PlayingDeps {
  /** Holds a run for this tab alone while a start plays it; absent: runs are played without a lock. */
  lock?: RunLock;
}

/**
 * Runs SPADE epochs for one run at a time: start, pause, step one unit, resume, abort; persists each
 * epoch. Shows a run another tab runs read-only, following it live. Its commands are here; what a
 * start does as it plays is in run-playing.svelte.ts, following another tab's run in
 * run-following.ts, what the views show in run-view-state.svelte.ts.
 */
export class RunController extends RunPlaying<RunControllerDeps> {
  private evalAbort: AbortController | null = null;
  /** True while a start waits for the previous start's end and the lock (a second click does nothing). */
  private starting = false;

  /** The model a run uses, as its epochs get it (for re-scoring an environment outside an epoch). */
  modelFor(meta: RunMeta): Promise<ChatModel> {
    return this.deps.model(meta);
  }

  /** Creates and selects a run (not started); a run that schedules evaluations records its held-out suite (and where it came from), a fixed-pool run its whole pool. */
  async create(input: NewRun): Promise<RunMeta> {
    const choice = input.evalSuite ?? BUILTIN_CHOICE;
    const suite = input.config.evalEvery > 0 ? await loadChosenSuite(choice, suiteSources(this.deps)) : null;
    const meta = newRunMeta(input, suite, (this.deps.now ?? Date.now)());
    await this.deps.store.createRun(meta);
    await this.open(meta.id);
    return meta;
  }

  /** Selects a stored run and shows its committed history; a run another tab runs is shown read-only and followed live. */
  async open(runId: string): Promise<void> {
    if (this.heldHere && this.heldHere.status !== 'stopping')
      throw new Error('Stop the current run before opening another.');
    if (this.evaluating) throw new Error('Cancel the held-out evaluation under way before opening another run.');
    const view = ++this.view;
    this.stopFollowing();
    const [loaded, history] = await Promise.all([
      this.deps.store.loadRun(runId),
      this.deps.store.metricsOf(runId),
      this.deps.presence?.refresh().catch(() => undefined),
    ]);
    if (!loaded) throw new Error(`No run with id ${runId}.`);
    if (view !== this.view) return;
    this.showOpened(loaded.meta, history);
    this.followIfHeldElsewhere();
  }

  /** Starts (or continues) the selected run from its last committed epoch. */
  async start(options: { paused?: boolean } = {}): Promise<void> {
    const meta = this.meta;
    const view = this.view;
    if (!meta || (this.heldHere && this.heldHere.status !== 'stopping') || this.evaluating || this.starting) return;
    if (this.readOnly) {
      this.error = 'Another tab is running this run: this view follows it read-only. Control it in that tab.';
      return;
    }
    this.starting = true;
    const release = await this.ended
      .then(() => (this.deps.lock ? this.deps.lock(meta.id) : () => undefined))
      .finally(() => (this.starting = false));
    if (!release) {
      this.error = 'Another tab is running this run: this view follows it read-only. Control it in that tab.';
      await this.deps.presence?.refresh().catch(() => undefined);
      this.followIfHeldElsewhere();
      return;
    }
    if (view !== this.view || this.heldHere) {
      await release();
      return;
    }
    const session = new RunSession(
      meta.id,
      view,
      options.paused === true ? 'paused' : 'running',
      release,
      meta.epochsCompleted,
    );
    this.session = session;
    this.stopFollowing();
    this.notice = null;
    this.stepping = false;
    this.error = null;
    this.piecesPerSecond = 0;
    this.changed(session);
    this.play(session);
  }

  /**
   * Gives a completed run `more` epochs and starts them. Nothing about an epoch depends on how many
   * were planned (seeds, skill rotation, memory and evaluations follow the epoch number and the
   * stored state), so the run continues exactly as one created with the larger count would have.
   */
  async extend(more: number): Promise<void> {
    const meta = this.meta;
    if (!meta || this.status !== 'completed' || this.evaluating) return;
    if (!Number.isInteger(more) || more < 1 || more > MAX_EPOCHS) {
      this.error = `Give a whole number from 1 to ${MAX_EPOCHS} of more epochs, got ${more}.`;
      return;
    }
    const epochsPlanned = Math.max(meta.epochsPlanned, meta.epochsCompleted) + more;
    await this.deps.store.updateRun(meta.id, {
      epochsPlanned,
      status: 'paused',
      updatedAt: (this.deps.now ?? Date.now)(),
    });
    this.meta = { ...meta, epochsPlanned, status: 'paused' };
    this.status = 'idle';
    await this.start();
  }

  /** Pauses before the next unit of work (a slot's design, a hint, an episode or the scoring). */
  pause(): void {
    const session = this.ownSession();
    if (session?.pause()) this.changed(session);
  }

  /**
   * While paused, runs exactly one more unit of work; false (and nothing happens) when the run is
   * not paused or a step's unit is still running: steps are refused, never queued.
   */
  step(): boolean {
    if (!this.ownSession()?.step()) return false;
    this.stepping = true;
    return true;
  }

  /** Continues after a pause. */
  resume(): void {
    const session = this.ownSession();
    if (session?.resume()) this.changed(session);
  }

  /** Stops at once; the epoch in progress is discarded, committed epochs stay. */
  abort(): void {
    const session = this.ownSession();
    if (session?.stop()) this.changed(session);
  }

  /**
   * Evaluates the open run's agent on a held-out suite now (the built-in one unless chosen; its
   * model and current playbook), when it is not running: `afterEpochs` = its committed epochs,
   * stored with `addEvaluation`. Progress is in `evaluation`, with the suite environments the run
   * also trains on; `cancelEvaluation` stops it and stores nothing.
   */
  async evaluateNow(choice: SuiteChoice = BUILTIN_CHOICE): Promise<void> {
    const meta = this.meta;
    if (!meta || this.evaluating || this.heldHere || this.readOnly) return;
    const abort = new AbortController();
    this.evalAbort = abort;
    if (await evaluateOpenRun(this.deps, meta, choice, abort.signal, (progress) => (this.evaluation = progress)))
      this.evaluationsStored += 1;
    if (this.evalAbort === abort) this.evalAbort = null;
  }

  /** Cancels the on-demand evaluation under way (before its next play or model call); nothing is stored. */
  cancelEvaluation(): void {
    this.evalAbort?.abort();
  }
}
