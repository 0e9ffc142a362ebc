import { EpochAbortedError } from '../../core/loop/epoch.ts';
import type { EpochStage, SpadeEvent } from '../../core/loop/events.ts';
import type { UnitDone } from '../../core/loop/scheduler.ts';
import { StoreQuotaError } from '../../core/ports/store-errors.ts';
import { errorMessage } from '../../core/error-message.ts';
import type { LiveEpoch } from './live-epoch.ts';
import type { AnnouncedState, FinishedStatus, RunAnnouncement } from './run-announcement.ts';
import { RunFollowing, type FollowingDeps } from './run-following.ts';
import { playStoredRun, type StoredRunDeps } from './run-loop.ts';
import type { RunSession } from './run-session.ts';
import { holdMs, type ScoreHold } from './score-hold.ts';

/** What playing a run in this tab needs from the composition root. */
export interface PlayingDeps extends StoredRunDeps, FollowingDeps {
  /** Schedules a UI flush (requestAnimationFrame in the browser). */
  schedule?: (flush: () => void) => void;
  /** How long a completed epoch's scores stay on screen before the next epoch of the same start begins (read at each epoch's end; default: no hold). */
  scoreHold?: () => ScoreHold;
}

/**
 * A start of a run played in this tab, from its first unit to its lock released: the view and the
 * other tabs told of every stage and event, the pause gate and its steps, each committed epoch's
 * scores held on screen, and how the start ended stored. The run controller's commands begin and
 * steer the starts (run-controller.svelte.ts).
 */
export class RunPlaying<Deps extends PlayingDeps> extends RunFollowing<Deps> {
  /** The start that holds a run in this tab, or null. */
  protected session: RunSession | null = null;
  /** The end of the last start (its lock released). */
  protected ended: Promise<void> = Promise.resolve();
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners, not state the UI reads
  private readonly storedListeners = new Set<(runId: string) => void>();
  /** Ends the hold under way at once, or null when none is. */
  private endHold: (() => void) | null = null;

  /** Calls `listener` with a run's id each time this tab has stored a change of it (an epoch committed, or the run ended); returns the function that stops it. */
  onStored(listener: (runId: string) => void): () => void {
    this.storedListeners.add(listener);
    return () => this.storedListeners.delete(listener);
  }

  /** Ends the hold on a completed epoch's scores: the next epoch starts now. */
  continueNow(): void {
    this.endHold?.();
  }

  /** Plays `session` to its end, then lets its run go; the next start waits for that. */
  protected play(session: RunSession): void {
    this.ended = this.loop(session).then((outcome) => this.end(session, outcome));
  }

  /** True while `session` is the start of the open run in this view (it may update the view). */
  protected inView(session: RunSession): boolean {
    return session.view === this.view;
  }

  /** The start of the open run, or null (a start of an earlier view only finishes stopping). */
  protected ownSession(): RunSession | null {
    const session = this.session;
    return session && this.inView(session) ? session : null;
  }

  /** After a start's status or stage changed: the view (while it is the start's), `heldHere`, and the other tabs are told. */
  protected changed(session: RunSession): void {
    if (this.inView(session)) this.status = session.status;
    this.heldHere = { runId: session.runId, status: session.status };
    this.post({ type: 'state', ...this.stateOf(session) });
  }

  /** Heard from another tab: a question about the run this tab holds, or news of the run this tab follows. */
  protected override hear(message: RunAnnouncement): void {
    if (message.type !== 'ask') return super.hear(message);
    const session = this.session;
    if (session?.runId !== message.runId) return;
    if (!message.live) return this.post({ type: 'state', ...this.stateOf(session) });
    const live = this.inView(session) && this.live ? ($state.snapshot(this.live) as LiveEpoch) : null;
    this.post({
      type: 'snapshot',
      ...this.stateOf(session),
      live,
      evaluation: this.inView(session) ? this.evaluation : null,
    });
  }

  private stateOf(session: RunSession): AnnouncedState {
    return {
      runId: session.runId,
      status: session.status,
      stage: session.stage,
      epochsCompleted: session.epochsCompleted,
    };
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

  /** Plays a start's run to its end, the view and the other tabs told as it goes; resolves with how it ended (stored). */
  private async loop(session: RunSession): Promise<FinishedStatus> {
    const clock = this.deps.now ?? Date.now;
    const shown = (show: () => void) => {
      if (this.inView(session)) show();
    };
    try {
      await playStoredRun(this.deps, session, {
        notice: (text, append) =>
          shown(() => (this.notice = append ? [this.notice, text].filter(Boolean).join(' ') : text)),
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
            if (overlap && this.evaluation?.phase === 'done')
              this.evaluation = { ...this.evaluation, overlap: overlap() };
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
    if (ms === 0 || !shown || !this.meta || next >= this.meta.epochsPlanned || session.abort.signal.aborted)
      return Promise.resolve();
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
    await this.deps.store
      .updateRun(session.runId, { status, lastError: message, updatedAt: (this.deps.now ?? Date.now)() })
      .catch(() => undefined);
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
