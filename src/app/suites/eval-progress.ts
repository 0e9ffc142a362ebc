import type { EvalPlay, EvalRecord, EvalTrigger, WinRateSummary } from '../../core/eval/eval-record.ts';
import type { SpadeEvent } from '../../core/loop/events.ts';

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
  /** The finished evaluation's suite name. */
  suite: string | null;
  /** Ids of the suite environments whose code the run trains on too (null: not checked yet). */
  overlap: string[] | null;
  error: string | null;
}

/** An evaluation that has just started. */
export function startedEvaluation(trigger: EvalTrigger, afterEpochs: number, total: number): EvalProgress {
  return {
    trigger,
    afterEpochs,
    done: 0,
    total,
    wins: 0,
    phase: 'running',
    result: null,
    suite: null,
    overlap: null,
    error: null,
  };
}

/** The progress after one more play. */
export function countPlay(progress: EvalProgress, play: EvalPlay, done: number, total: number): EvalProgress {
  return { ...progress, done, total, wins: progress.wins + (play.won ? 1 : 0) };
}

/** The progress after a finished evaluation. */
export function finishedEvaluation(progress: EvalProgress, record: EvalRecord): EvalProgress {
  const { environments, episodes, wins, winRate, ci95 } = record;
  return {
    ...progress,
    phase: 'done',
    done: episodes,
    total: episodes,
    result: { environments, episodes, wins, winRate, ci95 },
    suite: record.suite,
  };
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
      return `${what}: win rate ${p.result ? rateWithInterval(p.result) : '?'} over ${p.result?.environments ?? 0} environments${p.suite ? ` of ${p.suite}` : ''}, ${p.total} plays`;
    case 'cancelled':
      return `${what}: cancelled after ${p.done} of ${p.total} plays; nothing was stored`;
    case 'failed':
      return `${what}: failed: ${p.error ?? 'unknown error'}`;
  }
}

/** The warning next to a finished evaluation whose suite shares environments with the run's training pool, or null when it shares none. */
export function overlapText(p: EvalProgress): string | null {
  if (p.phase !== 'done' || !p.overlap || p.overlap.length === 0) return null;
  const shown = p.overlap.slice(0, 5).join(', ') + (p.overlap.length > 5 ? `, and ${p.overlap.length - 5} more` : '');
  const count = `${p.overlap.length} of the ${p.result?.environments ?? p.overlap.length} suite environments`;
  return `Not held out: ${count} (${shown}) have the same code as environments this run trains on, so this result cannot tell held-out play from play on training data.`;
}
