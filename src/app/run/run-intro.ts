import type { RunMeta } from '../../core/ports/store-port.ts';
import type { EvalProgress } from '../suites/eval-progress.ts';
import type { ControllerStatus } from './run-view-state.svelte.ts';

/** What a started run is doing before its epoch's first event, for the live view's main area: the words, and the evaluation's plays done and planned when it is evaluating. */
export interface StartingWork {
  text: string;
  progress: { done: number; total: number } | null;
}

/**
 * What the live view says between Start and the epoch's first event (null when the run is not
 * started): the held-out evaluation before training, with its progress, or the model, corpus and
 * sandbox being readied. Never "Press Start" for a run that has started.
 */
export function startingWork(
  meta: RunMeta,
  status: ControllerStatus,
  evaluation: EvalProgress | null,
): StartingWork | null {
  if (status !== 'running' && status !== 'paused') return null;
  const epoch = `epoch ${meta.epochsCompleted + 1}`;
  const paused = status === 'paused' ? ' (paused)' : '';
  if (
    evaluation?.trigger === 'schedule' &&
    evaluation.phase === 'running' &&
    evaluation.afterEpochs === meta.epochsCompleted
  ) {
    const what = `Before ${epoch}${paused}: the held-out evaluation measures the untrained agent, the starting point its later evaluations are compared with.`;
    if (evaluation.total === 0) return { text: `${what} Reading the suite and the model…`, progress: null };
    const play = `Held-out play ${Math.min(evaluation.done + 1, evaluation.total)} of ${evaluation.total} (${evaluation.wins} won so far); ${epoch} starts when it is done.`;
    return { text: `${what} ${play}`, progress: { done: evaluation.done, total: evaluation.total } };
  }
  const parts = meta.config.useCorpus ? 'the model, the grounding corpus and Python' : 'the model and Python';
  return { text: `Starting ${epoch}${paused}: getting ${parts} ready…`, progress: null };
}
