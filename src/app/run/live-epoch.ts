import type { ValidationReport } from '../../core/env/validate-env.ts';
import type { SpadeEvent } from '../../core/loop/events.ts';
import type { LessonOutcome } from '../../core/playbook/learn-lessons.ts';
import { addToRoleBudget, type PromptBudgetSummary } from '../../core/budget/budget-tally.ts';
import type { Arm, EnvStats, EpochMetrics, Turn } from '../../core/records.ts';
import type { DesignerScaleParts } from '../../core/scoring/advantages.ts';

/** One design attempt as it streams in and is judged. */
export interface LiveAttempt {
  attempt: number;
  repair: boolean;
  docId: string | null;
  /** The designer's reply so far. */
  reply: string;
  /** True once the reply is complete: the sandbox is validating it (starting Python first if it is not running yet). */
  replied: boolean;
  report: ValidationReport | null;
}

/** One episode as it streams in. */
export interface LivePlay {
  arm: Arm;
  index: number;
  rollout: number;
  /** The agent's reply being streamed for the current turn. */
  streaming: string;
  turns: Turn[];
  firstObservation: string | null;
  return: number | null;
  error: string | null;
  /** True when SPADE drops this play (an unhinted play that failed twice, or skipped after a hang). */
  dropped: boolean;
}

/** Where a slot is in the epoch; `halted`: the epoch ended (failed, aborted, stopped) before the slot was scored. */
export type SlotPhase =
  'waiting' | 'designing' | 'valid' | 'rejected' | 'hinting' | 'playing' | 'scored' | 'quarantined' | 'halted';

/** Why an epoch ended before it was committed (its work is discarded). */
export type LiveHalt = 'failed' | 'aborted' | 'stopped';

/** One environment slot of the live epoch. */
export interface LiveSlot {
  slot: number;
  skill: string;
  envId: string;
  phase: SlotPhase;
  attempts: LiveAttempt[];
  hint: string | null;
  hintStreaming: string;
  plays: LivePlay[];
  stats: EnvStats | null;
  /** Why the slot has no hint arm, or why it was quarantined. */
  note: string | null;
  /** The pool environment a fixed-pool run plays in this slot (no design), or null. */
  poolId: string | null;
  /** The epoch's designer scale and its parts, once the slot is scored. */
  scale: DesignerScaleParts | null;
}

/** Which stage of the epoch is running. */
export type LiveStage = 'design' | 'hint' | 'play' | 'score' | 'done';

/** Everything the live epoch view shows, built from the core's events. */
export interface LiveEpoch {
  epoch: number;
  stage: LiveStage;
  slots: LiveSlot[];
  metrics: EpochMetrics | null;
  /** Streamed pieces seen (a proxy for tokens). */
  pieces: number;
  /** The playbook's lesson requests of the epoch: each lesson learned, or why none was kept. */
  lessons: LessonOutcome[];
  /** Why the epoch ended uncommitted, or null while it runs and once it is done. */
  halted: LiveHalt | null;
  /** Per role, the epoch's prompts so far against the model's context window (largest prompt); empty when the model does not report its window. */
  budget: PromptBudgetSummary;
}

function envIdOf(epoch: number, slot: number): string {
  return `e${String(epoch).padStart(4, '0')}-s${String(slot).padStart(2, '0')}`;
}

/** A fresh live epoch for the planned slots. */
export function createLiveEpoch(epoch: number, slots: ReadonlyArray<{ slot: number; skill: string }>): LiveEpoch {
  return {
    epoch,
    stage: 'design',
    slots: slots.map(({ slot, skill }) => ({
      slot,
      skill,
      envId: envIdOf(epoch, slot),
      phase: 'waiting',
      attempts: [],
      hint: null,
      hintStreaming: '',
      plays: [],
      stats: null,
      note: null,
      poolId: null,
      scale: null,
    })),
    metrics: null,
    pieces: 0,
    lessons: [],
    halted: null,
    budget: {},
  };
}

const UNFINISHED: ReadonlySet<SlotPhase> = new Set(['waiting', 'designing', 'valid', 'hinting', 'playing']);

/**
 * Ends a live epoch that will never be committed, in place: nothing in it is in progress any more,
 * so its unfinished slots are `halted` and nothing streams (an epoch already done is left as it is).
 */
export function haltLiveEpoch(live: LiveEpoch, why: LiveHalt): void {
  if (live.stage === 'done') return;
  live.halted = why;
  for (const slot of live.slots) {
    if (UNFINISHED.has(slot.phase)) slot.phase = 'halted';
    slot.hintStreaming = '';
    for (const play of slot.plays) play.streaming = '';
  }
}

function playOf(slot: LiveSlot, arm: Arm, index: number, rollout: number): LivePlay {
  let play = slot.plays.find((p) => p.arm === arm && p.index === index && p.rollout === rollout);
  if (!play) {
    play = {
      arm,
      index,
      rollout,
      streaming: '',
      turns: [],
      firstObservation: null,
      return: null,
      error: null,
      dropped: false,
    };
    slot.plays.push(play);
  }
  return play;
}

function applyToken(live: LiveEpoch, event: Extract<SpadeEvent, { type: 'token' }>): void {
  const slot = live.slots.find((s) => s.envId === event.source.envId);
  if (!slot) return;
  live.pieces += 1;
  if (event.source.purpose === 'designer' || event.source.purpose === 'repair') {
    const attempt = slot.attempts[slot.attempts.length - 1];
    if (attempt) attempt.reply += event.delta;
  } else if (event.source.purpose === 'hint') {
    slot.hintStreaming += event.delta;
  } else if (
    event.source.purpose === 'agent' &&
    event.source.arm !== undefined &&
    event.source.playIndex !== undefined
  ) {
    playOf(slot, event.source.arm, event.source.playIndex, event.source.rollout ?? 0).streaming += event.delta;
  }
}

/** Applies one core event to the live epoch, in place (the view holds it in reactive state). */
export function applyEvent(live: LiveEpoch, event: SpadeEvent): void {
  const slotById = (envId: string) => live.slots.find((s) => s.envId === envId);
  switch (event.type) {
    case 'token':
      return applyToken(live, event);
    case 'design_started': {
      const slot = live.slots[event.slot];
      if (!slot) return;
      slot.phase = 'designing';
      slot.attempts.push({
        attempt: event.attempt,
        repair: event.repair,
        docId: event.docId,
        reply: '',
        replied: false,
        report: null,
      });
      return;
    }
    case 'design_replied': {
      const attempt = live.slots[event.slot]?.attempts.find((a) => a.attempt === event.attempt);
      if (attempt) attempt.replied = true;
      return;
    }
    case 'validated': {
      const slot = live.slots[event.slot];
      const attempt = slot?.attempts.find((a) => a.attempt === event.attempt);
      if (!slot || !attempt) return;
      attempt.replied = true;
      attempt.report = event.report;
      if (event.report.ok) slot.phase = 'valid';
      return;
    }
    case 'slot_rejected': {
      const slot = slotById(event.envId);
      if (slot) slot.phase = 'rejected';
      return;
    }
    case 'hinted': {
      const slot = slotById(event.envId);
      live.stage = 'hint';
      if (slot) {
        slot.hint = event.hint;
        slot.note = event.note;
        slot.phase = 'hinting';
      }
      return;
    }
    case 'turn': {
      const slot = slotById(event.envId);
      if (!slot) return;
      live.stage = 'play';
      slot.phase = 'playing';
      const play = playOf(slot, event.arm, event.playIndex, event.rollout);
      play.turns.push(event.turn);
      play.streaming = '';
      return;
    }
    case 'episode': {
      const slot = slotById(event.episode.envId);
      if (!slot) return;
      live.stage = 'play';
      slot.phase = 'playing';
      const play = playOf(slot, event.episode.arm, event.episode.index, event.episode.rollout);
      play.turns = event.episode.turns;
      play.firstObservation = event.episode.firstObservation;
      play.return = event.episode.return;
      play.error = event.episode.error?.message ?? null;
      play.dropped = event.episode.dropped;
      play.streaming = '';
      return;
    }
    case 'scored': {
      const slot = slotById(event.envId);
      live.stage = 'score';
      if (slot) {
        slot.stats = event.stats;
        slot.note = event.note;
        slot.scale = event.scale;
        slot.phase = event.stats ? 'scored' : 'quarantined';
      }
      return;
    }
    case 'pool_environment': {
      const slot = live.slots[event.slot];
      if (!slot) return;
      slot.poolId = event.poolId;
      slot.phase = 'valid';
      return;
    }
    case 'lesson':
      live.lessons.push(event.outcome);
      return;
    case 'prompt_fitted':
      live.budget = { ...live.budget, [event.purpose]: addToRoleBudget(live.budget?.[event.purpose], event.budget) };
      return;
    case 'epoch_completed':
      live.metrics = event.metrics;
      live.stage = 'done';
      return;
    case 'epoch_started':
    case 'eval_started':
    case 'eval_play':
    case 'eval_completed':
      return;
  }
}

/** The code to show for an attempt: the validated source once judged, else the reply streaming in. */
export function attemptCode(attempt: LiveAttempt): string {
  return attempt.report?.source || attempt.reply;
}

/** What an attempt without a verdict is doing: its reply still streaming, or (reply complete) the sandbox validating it, starting Python first when Python is still starting; `not finished` once its epoch ended. */
export function attemptStatus(attempt: LiveAttempt, halted: boolean, pythonStarting: boolean): string {
  if (halted) return 'not finished';
  if (!attempt.replied) return 'streaming…';
  return pythonStarting ? 'reply complete; starting Python, then validating…' : 'reply complete; validating…';
}
