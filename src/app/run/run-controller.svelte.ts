import type { ChatModel } from '../../core/ports/chat-port.ts';
import { EpochAbortedError } from '../../core/loop/epoch.ts';
import type { EpochStage, SpadeEvent } from '../../core/loop/events.ts';
import type { UnitDone } from '../../core/loop/scheduler.ts';
import { StoreQuotaError } from '../../core/ports/store-errors.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { MAX_EPOCHS } from '../new-run/share-settings.ts';
import { evaluateOpenRun } from '../suites/evaluate-now.ts';
import type { LiveEpoch } from './live-epoch.ts';
import { BUILTIN_CHOICE, loadChosenSuite, type SuiteChoice } from '../suites/suite-choice.ts';
import { newRunMeta, type NewRun } from '../new-run/new-run.ts';
import type { AnnouncedState, FinishedStatus, RunAnnouncement } from './run-announcement.ts';
import { playStoredRun, suiteSources, type StoredRunDeps } from './run-loop.ts';
import type { RunPresence } from './run-presence.svelte.ts';
import { RunSession } from './run-session.ts';
import type { RunLock } from '../../adapters/tabs/tab-link.ts';
import { RunFollow, type FollowedView } from './run-follow.ts';
import { RunViewState } from './run-view-state.svelte.ts';
import { holdMs, type ScoreHold } from './score-hold.ts';
import { errorMessage } from '../../core/error-message.ts';

export type { ControllerStatus } from './run-view-state.svelte.ts';

/** What the controller needs from the composition root. */
export interface RunControllerDeps extends StoredRunDeps {
  lock?: RunLock;
  /** The runs other tabs hold, and the link to them (announcements); absent: this tab is alone. */
  presence?: RunPresence;
  /** How often a run another tab holds is read from the store again, in milliseconds (default FOLLOW_POLL_MS, run-follow.ts). */
  pollMs?: number;
  /** Schedules a UI flush (requestAnimationFrame in the browser). */
  schedule?: (flush: () => void) => void;
  /** How long a completed epoch's scores stay on screen before the next epoch of the same start begins (read at each epoch's end; default: no hold). */
  scoreHold?: () => ScoreHold;
}

/** Runs SPADE epochs for one run at a time: start, pause, step one unit, resume, abort; persists each epoch. Shows a run another tab runs read-only, following it live. */
export class RunController extends RunViewState {
  /** The start that holds a run in this tab, or null. */
  private session: RunSession | null = null;
  /** The end of the last start (its lock released). */
  private ended: Promise<void> = Promise.resolve();
  /** Changes whenever another run is opened: work begun for an earlier view leaves the view alone. */
  private view = 0;
  /** The run another tab holds that this view follows, or null. */
  private follow: RunFollow | null = null;
  /** Counts store reads of the open run, so an older read never overwrites a newer one. */
  private reads = 0;
  private evalAbort: AbortController | null = null;
  /** True while a start waits for the previous start's end and the lock (a second click does nothing). */
  private starting = false;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners, not state the UI reads
  private readonly storedListeners = new Set<(runId: string) => void>();
  /** Ends the hold under way at once, or null when none is. */
  private endHold: (() => void) | null = null;

  constructor(private readonly deps: RunControllerDeps) {
    super(deps.presence);
    deps.presence?.link.listen((message) => this.hear(message));
    deps.presence?.onChange(() => this.followIfHeldElsewhere());
  }

  /** Calls `listener` with a run's id each time this tab has stored a change of it (an epoch committed, or the run ended); returns the function that stops it. */
  onStored(listener: (runId: string) => void): () => void {
    this.storedListeners.add(listener);
    return () => this.storedListeners.delete(listener);
  }

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
    if (this.heldHere && this.heldHere.status !== 'stopping') throw new Error('Stop the current run before opening another.');
    if (this.evaluating) throw new Error('Cancel the held-out evaluation under way before opening another run.');
    const view = ++this.view;
    this.stopFollowing();
    const [loaded, history] = await Promise.all([this.deps.store.loadRun(runId), this.deps.store.metricsOf(runId), this.deps.presence?.refresh().catch(() => undefined)]);
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
    const release = await this.ended.then(() => (this.deps.lock ? this.deps.lock(meta.id) : () => undefined)).finally(() => (this.starting = false));
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
    const session = new RunSession(meta.id, view, options.paused === true ? 'paused' : 'running', release, meta.epochsCompleted);
    this.session = session;
    this.stopFollowing();
    this.notice = null;
    this.stepping = false;
    this.error = null;
    this.piecesPerSecond = 0;
    this.changed(session);
    this.ended = this.loop(session).then((outcome) => this.end(session, outcome));
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
    await this.deps.store.updateRun(meta.id, { epochsPlanned, status: 'paused', updatedAt: (this.deps.now ?? Date.now)() });
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
    if (await evaluateOpenRun(this.deps, meta, choice, abort.signal, (progress) => (this.evaluation = progress))) this.evaluationsStored += 1;
    if (this.evalAbort === abort) this.evalAbort = null;
  }

  /** Ends the hold on a completed epoch's scores: the next epoch starts now. */
  continueNow(): void {
    this.endHold?.();
  }

  /** Cancels the on-demand evaluation under way (before its next play or model call); nothing is stored. */
  cancelEvaluation(): void {
    this.evalAbort?.abort();
  }

  /** True while `session` is the start of the open run in this view (it may update the view). */
  private inView(session: RunSession): boolean {
    return session.view === this.view;
  }

  /** The start of the open run, or null (a start of an earlier view only finishes stopping). */
  private ownSession(): RunSession | null {
    const session = this.session;
    return session && this.inView(session) ? session : null;
  }

  /** After a start's status or stage changed: the view (while it is the start's), `heldHere`, and the other tabs are told. */
  private changed(session: RunSession): void {
    if (this.inView(session)) this.status = session.status;
    this.heldHere = { runId: session.runId, status: session.status };
    this.post({ type: 'state', ...this.stateOf(session) });
  }

  private stateOf(session: RunSession): AnnouncedState {
    return { runId: session.runId, status: session.status, stage: session.stage, epochsCompleted: session.epochsCompleted };
  }

  private post(message: RunAnnouncement): void {
    this.deps.presence?.link.post(message);
  }

  /** Before each unit: the stage shown and announced, then the start's gate; a unit let through by a step clears `stepping` when it is done. */
  private async gate(session: RunSession, stage: EpochStage): Promise<UnitDone | void> {
    session.stage = stage;
    if (this.inView(session)) this.stage = stage;
    this.post({ type: 'state', ...this.stateOf(session) });
    const stepDone = await session.gate();
    if (!stepDone) return;
    return () => {
      stepDone();
      if (this.inView(session)) this.stepping = false;
    };
  }

  private onEvent(session: RunSession, event: SpadeEvent): void {
    session.buffered.push(event);
    if (event.type !== 'token') return this.flush(session);
    if (session.flushScheduled) return;
    session.flushScheduled = true;
    (this.deps.schedule ?? ((f) => setTimeout(f, 16)))(() => this.flush(session));
  }

  /** Applies a start's buffered events to the view (while it is the start's) and sends them to the other tabs. */
  private flush(session: RunSession): void {
    session.flushScheduled = false;
    const events = session.buffered;
    session.buffered = [];
    if (events.length === 0) return;
    this.post({ type: 'events', runId: session.runId, events });
    if (this.inView(session)) this.applyEvents(events);
  }

  /** Heard from another tab: a question about the run this tab holds, or news of the run this tab follows. */
  private hear(message: RunAnnouncement): void {
    if (message.type === 'ask') {
      const session = this.session;
      if (session?.runId !== message.runId) return;
      if (!message.live) return this.post({ type: 'state', ...this.stateOf(session) });
      const live = this.inView(session) && this.live ? ($state.snapshot(this.live) as LiveEpoch) : null;
      this.post({ type: 'snapshot', ...this.stateOf(session), live, evaluation: this.inView(session) ? this.evaluation : null });
      return;
    }
    this.follow?.hear(message);
  }

  /** Follows the open run while another tab holds it; when that tab lets go (finished, closed or crashed), reads the run's outcome from the store. */
  private followIfHeldElsewhere(): void {
    const meta = this.meta;
    const link = this.deps.presence?.link;
    if (meta && link && this.readOnly && !this.follow) {
      const view = this.view;
      const shown = (show: () => void) => {
        if (view === this.view) show();
      };
      this.notice = null;
      const followed: FollowedView = {
        snapshot: (live, evaluation) =>
          shown(() => {
            this.live = live;
            this.evaluation = evaluation;
          }),
        events: (events) => shown(() => this.applyEvents(events)),
        state: (stage, epochsCompleted) =>
          shown(() => {
            this.stage = stage;
            if (epochsCompleted !== this.meta?.epochsCompleted) void this.reread(view, false);
          }),
        poll: () => void this.pollStore(view),
      };
      this.follow = new RunFollow(meta.id, followed, link, this.deps.pollMs);
    } else if (!this.readOnly && this.follow) {
      this.stopFollowing();
      void this.reread(this.view, true);
    }
  }

  private stopFollowing(): void {
    this.follow?.stop();
    this.follow = null;
  }

  /** The store, read while following: an epoch the other tab committed shows even if its announcement was missed. */
  private async pollStore(view: number): Promise<void> {
    const runId = this.follow?.runId;
    if (!runId) return;
    const metrics = await this.deps.store.metricsOf(runId).catch(() => null);
    if (metrics && view === this.view && this.follow && metrics.length !== this.history.length) await this.reread(view, false);
  }

  /** Reads the open run's meta and history again; `released`: the tab that held it let go, so its status, notice and live epoch are settled from the store. */
  private async reread(view: number, released: boolean): Promise<void> {
    const runId = this.meta?.id;
    if (!runId) return;
    const read = ++this.reads;
    const [loaded, history] = await Promise.all([this.deps.store.loadRun(runId), this.deps.store.metricsOf(runId)]).catch(() => [null, []] as const);
    if (view !== this.view || read !== this.reads || !loaded) return;
    this.meta = loaded.meta;
    this.history = [...history];
    if (!released) return;
    this.stage = null;
    this.showSettled(loaded.meta);
    if (this.shown?.word === 'interrupted') this.live = null;
  }

  /** Plays a start's run to its end, the view and the other tabs told as it goes; resolves with how it ended (stored). */
  private async loop(session: RunSession): Promise<FinishedStatus> {
    const clock = this.deps.now ?? Date.now;
    const shown = (show: () => void) => {
      if (this.inView(session)) show();
    };
    try {
      await playStoredRun(this.deps, session, {
        notice: (text, append) => shown(() => (this.notice = append ? [this.notice, text].filter(Boolean).join(' ') : text)),
        metaChanged: (patch) => shown(() => (this.meta = { ...this.meta!, ...patch })),
        emit: (event) => this.onEvent(session, event),
        gate: (stage) => this.gate(session, stage),
        committed: (result, overlap) => {
          this.post({ type: 'state', ...this.stateOf(session) });
          this.stored(session.runId);
          shown(() => {
            this.history = [...this.history, result.metrics];
            this.piecesPerSecond = this.live ? (1000 * this.live.pieces) / Math.max(1, result.timings.totalMs) : 0;
            this.meta = { ...this.meta!, epochsCompleted: result.nextState.epoch, updatedAt: clock() };
            if (overlap && this.evaluation?.phase === 'done') this.evaluation = { ...this.evaluation, overlap: overlap() };
          });
          return this.holdScores(session, result.nextState.epoch);
        },
      });
      return await this.finish(session, 'completed', null);
    } catch (error) {
      this.flush(session);
      if (error instanceof EpochAbortedError) return this.finish(session, 'aborted', null);
      if (error instanceof StoreQuotaError) return this.finish(session, 'stopped', error.message);
      return this.finish(session, 'failed', errorMessage(error));
    }
  }

  /**
   * Keeps a completed epoch's final scores on screen before epoch `next` of the same start begins,
   * for the chosen hold (some seconds, or until Next epoch now), when this view shows them and the run
   * has an epoch left; an abort ends the hold at once.
   */
  private holdScores(session: RunSession, next: number): Promise<void> {
    const ms = holdMs(this.deps.scoreHold?.() ?? 'off');
    const shown = this.inView(session) && this.live?.stage === 'done' && this.live.epoch === next - 1;
    if (ms === 0 || !shown || !this.meta || next >= this.meta.epochsPlanned || session.abort.signal.aborted) return Promise.resolve();
    const clock = this.deps.now ?? Date.now;
    return new Promise<void>((resolve) => {
      const end = () => {
        clearTimeout(timer);
        session.abort.signal.removeEventListener('abort', end);
        if (this.endHold === end) this.endHold = null;
        if (this.held?.next === next) this.held = null;
        resolve();
      };
      const timer = ms === null ? undefined : setTimeout(end, ms);
      session.abort.signal.addEventListener('abort', end);
      this.endHold = end;
      this.held = { next, until: ms === null ? null : clock() + ms };
    });
  }

  /** Stores how a start ended (in its own run), then shows it when the start's run is still the open one. */
  private async finish(session: RunSession, status: FinishedStatus, message: string | null): Promise<FinishedStatus> {
    await this.deps.store.updateRun(session.runId, { status, lastError: message, updatedAt: (this.deps.now ?? Date.now)() }).catch(() => undefined);
    if (this.session === session) this.session = null;
    if (this.heldHere?.runId === session.runId) this.heldHere = null;
    if (this.inView(session)) this.showFinished(status, message);
    return status;
  }

  /** Lets the run go (its lock released), then tells the other tabs how it ended. */
  private async end(session: RunSession, outcome: FinishedStatus): Promise<void> {
    await session.release();
    this.post({ type: 'finished', runId: session.runId, status: outcome });
    this.stored(session.runId);
  }

  private stored(runId: string): void {
    for (const listener of this.storedListeners) listener(runId);
  }
}
