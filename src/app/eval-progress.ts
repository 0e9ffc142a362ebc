import type { EvalPlay, EvalTrigger, WinRateSummary } from '../core/eval/eval-record.ts';
import type { SpadeEvent } from '../core/loop/events.ts';

/** A held-out evaluation as the run view shows it: scheduled (inside an epoch) or on demand. */
export interface EvalProgress {
  trigger: EvalTrigger;
  afterEpochs: number;
  done: number;
  total: number;
  wins: number;
  /** `cancelled`: stopped by the person, or discarded with the epoch it belonged to. */
  phase: 'running' | 'done' | 'cancelled' | 'failed';
  /** The finished evaluation's overall figures. */
  result: WinRateSummary | null;
  error: string | null;
}

/** An evaluation that has just started. */
export function startedEvaluation(trigger: EvalTrigger, afterEpochs: number, total: number): EvalProgress {
  return { trigger, afterEpochs, done: 0, total, wins: 0, phase: 'running', result: null, error: null };
}

/** The progress after one more play. */
export function countPlay(progress: EvalProgress, play: EvalPlay, done: number, total: number): EvalProgress {
  return { ...progress, done, total, wins: progress.wins + (play.won ? 1 : 0) };
}

/** The progress after a finished evaluation. */
export function finishedEvaluation(progress: EvalProgress, result: WinRateSummary): EvalProgress {
  return { ...progress, phase: 'done', done: result.episodes, total: result.episodes, result };
}

/** The evaluation a scheduled-evaluation event leaves (the same progress for every other event). */
export function applyEvalEvent(progress: EvalProgress | null, event: SpadeEvent): EvalProgress | null {
  if (event.type === 'eval_started') return startedEvaluation('schedule', event.afterEpochs, event.total);
  if (event.type === 'eval_play' && progress) return countPlay(progress, event.play, event.done, event.total);
  if (event.type === 'eval_completed' && progress) return finishedEvaluation(progress, event.record);
  return progress;
}

/** True for the events `applyEvalEvent` reads. */
export function isEvalEvent(event: SpadeEvent): boolean {
  return event.type === 'eval_started' || event.type === 'eval_play' || event.type === 'eval_completed';
}

/** A win rate and its interval as text: `0.42 (95% interval 0.30 to 0.55)`. */
function rateWithInterval(summary: WinRateSummary): string {
  return `${summary.winRate.toFixed(2)} (95% interval ${summary.ci95[0].toFixed(2)} to ${summary.ci95[1].toFixed(2)})`;
}

const whenText = (p: EvalProgress) => `after ${p.afterEpochs} ${p.afterEpochs === 1 ? 'epoch' : 'epochs'}`;

/** One line for the run view: the play under way (`held-out play 12 of 48`), or how the evaluation ended. */
export function evalProgressText(p: EvalProgress): string {
  const what = `${p.trigger === 'demand' ? 'On-demand' : 'Scheduled'} held-out evaluation ${whenText(p)}`;
  switch (p.phase) {
    case 'running':
      if (p.total === 0) return `${what}: reading the suite and the model…`;
      return `${what}: held-out play ${Math.min(p.done + 1, p.total)} of ${p.total} (${p.wins} won so far)`;
    case 'done':
      return `${what}: win rate ${p.result ? rateWithInterval(p.result) : '?'} over ${p.result?.environments ?? 0} environments, ${p.total} plays`;
    case 'cancelled':
      return `${what}: cancelled after ${p.done} of ${p.total} plays; nothing was stored`;
    case 'failed':
      return `${what}: failed: ${p.error ?? 'unknown error'}`;
  }
}
