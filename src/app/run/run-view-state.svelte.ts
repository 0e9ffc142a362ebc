import type { SpadeEvent, EpochStage } from '../../core/loop/events.ts';
import type { EpochMetrics } from '../../core/records.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import type { EvalProgress } from '../suites/eval-progress.ts';
import { applyEvalEvent, isEvalEvent } from '../suites/eval-progress.ts';
import { applyEvent, createLiveEpoch, haltLiveEpoch, type LiveEpoch } from './live-epoch.ts';
import { keepRecent } from './score-hold.ts';
import type { FinishedStatus } from './run-announcement.ts';
import type { RunPresence } from './run-presence.svelte.ts';
import { runStatus, type HeldHere, type RunStatusView } from './run-status.ts';
import { savedEpochs } from '../shell/wording.ts';

/** What the controller is doing; `stopped`: storage filled up, the run stopped at its last committed epoch and continues once space is freed. */
export type ControllerStatus =
  'idle' | 'running' | 'paused' | 'stopping' | 'completed' | 'failed' | 'aborted' | 'stopped';

/**
 * What every view shows of the open run (its status, history, live epoch, evaluation and
 * notices), and the ways it changes that do not depend on where the run is played. The run
 * controller extends it with the work that makes it change.
 */
export class RunViewState {
  status: ControllerStatus = $state('idle');
  meta: RunMeta | null = $state(null);
  live: LiveEpoch | null = $state(null);
  /** The last completed epochs this tab watched before the live one (oldest first), for the live view's epoch picker. */
  recent: LiveEpoch[] = $state([]);
  /** While an epoch's final scores are held on screen: the next epoch's index and when the hold ends (Date.now() time; null: until Next epoch now is pressed). */
  held: { next: number; until: number | null } | null = $state.raw(null);
  history: EpochMetrics[] = $state([]);
  error: string | null = $state(null);
  /** A status line about the run's history (e.g. it was interrupted), or null. */
  notice: string | null = $state(null);
  /** The unit of work the run is at or waiting before. */
  stage: EpochStage | null = $state(null);
  /** True from a Step until the unit it lets through has finished; a Step meanwhile is refused, not queued. */
  stepping = $state(false);
  /** Streamed pieces per second over the last epoch (a token-rate proxy). */
  piecesPerSecond = $state(0);
  /** The latest held-out evaluation of the open run in this tab (scheduled or on demand), or null. */
  evaluation: EvalProgress | null = $state.raw(null);
  /** On-demand evaluations stored since the app started (views that show evaluations read again when it grows). */
  evaluationsStored = $state(0);
  /** The run this tab holds and works on (running, paused, or stopping after an abort), or null; it may differ from the open run while it stops. */
  heldHere: HeldHere | null = $state.raw(null);

  constructor(private readonly presence: RunPresence | undefined) {}

  /** The open run's status, as every view shows it (see runStatus), or null when no run is open. */
  get shown(): RunStatusView | null {
    return this.meta ? runStatus(this.meta, this.heldHere, this.presence?.held ?? {}) : null;
  }

  /** True when another tab runs the open run: this tab shows it and follows it, and offers no control over it. */
  get readOnly(): boolean {
    return this.shown?.where === 'another tab';
  }

  /** True while an on-demand evaluation of the open run is under way. */
  get evaluating(): boolean {
    return this.evaluation?.trigger === 'demand' && this.evaluation.phase === 'running';
  }

  /** Shows a run just read from the store, with nothing live. */
  protected showOpened(meta: RunMeta, history: EpochMetrics[]): void {
    this.meta = meta;
    this.history = history;
    this.live = null;
    this.recent = [];
    this.held = null;
    this.piecesPerSecond = 0;
    this.evaluation = null;
    this.stage = null;
    this.stepping = false;
    this.showSettled(meta);
  }

  /** Shows what the store says of a run nobody holds: its error, status and notice. */
  protected showSettled(meta: RunMeta): void {
    this.error = meta.lastError;
    this.status = meta.epochsCompleted >= meta.epochsPlanned ? 'completed' : 'idle';
    this.notice = this.storedNotice();
  }

  /** Shows how a start of the open run ended. */
  protected showFinished(status: FinishedStatus, message: string | null): void {
    this.status = status;
    this.error = message;
    this.stage = null;
    this.stepping = false;
    if (status !== 'completed') {
      // Nothing runs any more: no unit in progress, no rate of a run that is not running.
      this.piecesPerSecond = 0;
      if (this.live) haltLiveEpoch(this.live, status);
    }
    if (this.evaluation?.phase === 'running') this.evaluation = { ...this.evaluation, phase: 'cancelled' };
    if (this.meta) this.meta = { ...this.meta, status, lastError: message };
  }

  /** Builds the live view from events, here or as another tab sent them. */
  protected applyEvents(events: readonly SpadeEvent[]): void {
    for (const event of events) {
      if (isEvalEvent(event)) this.evaluation = applyEvalEvent(this.evaluation, event);
      else if (event.type === 'epoch_started') {
        this.recent = keepRecent(this.recent, this.live);
        this.live = createLiveEpoch(event.epoch, event.slots);
      } else if (this.live) applyEvent(this.live, event);
    }
  }

  /** The notice about the open run's stored state: an interrupted run says what was kept. */
  private storedNotice(): string | null {
    const meta = this.meta;
    if (!meta || this.shown?.word !== 'interrupted') return null;
    return `This run was interrupted during epoch ${meta.epochsCompleted + 1} (the tab closed or crashed). ${savedEpochs(meta.epochsCompleted)}; the unfinished epoch was discarded. Continue runs it again with the same seeds.`;
  }
}
