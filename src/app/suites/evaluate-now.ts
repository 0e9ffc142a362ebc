import { wrapModel } from '../../core/budget/wrapped-model.ts';
import type { ChatModel, ChatRequest, ChatResult } from '../../core/ports/chat-port.ts';
import type { EvalPlay, EvalRecord } from '../../core/eval/eval-record.ts';
import { evaluateAgent } from '../../core/eval/evaluate.ts';
import type { Suite } from '../../core/eval/suite.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import { countPlay, finishedEvaluation, startedEvaluation, type EvalProgress } from './eval-progress.ts';
import type { RunLock } from '../../adapters/tabs/tab-link.ts';
import { suiteSources, type StoredRunDeps } from '../run/run-loop.ts';
import { loadChosenSuite, storedTrainingCodes, suiteOverlap, type SuiteChoice } from './suite-choice.ts';
import { errorMessage } from '../../core/error-message.ts';

/** Thrown when the person cancels an on-demand evaluation (nothing is stored). */
export class EvaluationCancelled extends Error {
  constructor() {
    super('The evaluation was cancelled; nothing was stored.');
    this.name = 'EvaluationCancelled';
  }
}

/** What an on-demand evaluation runs with. */
export interface OnDemandPorts {
  store: Pick<RunStore, 'loadRun' | 'addEvaluation'>;
  model: ChatModel;
  sandbox: SandboxRuntime;
  suite: Suite;
  /** Cancels the evaluation before the next play or model call. */
  signal: AbortSignal;
  onPlay?: (play: EvalPlay, done: number, total: number) => void;
}

function cancellable(model: ChatModel, signal: AbortSignal): ChatModel {
  const check = () => {
    if (signal.aborted) throw new EvaluationCancelled();
  };
  return wrapModel(
    model,
    async (request: ChatRequest): Promise<ChatResult> => {
      check();
      const result = await model.complete({ ...request, signal });
      check();
      return result;
    },
    signal,
  );
}

/**
 * Evaluates a stored run's agent as it is now (its model and current playbook, the run's config)
 * on the suite, `afterEpochs` = its committed epochs, `trigger: 'demand'`, and stores the record
 * with `addEvaluation`. Rejects with EvaluationCancelled (storing nothing) when `signal` aborts.
 */
export async function evaluateOnDemand(ports: OnDemandPorts, runId: string): Promise<EvalRecord> {
  const loaded = await ports.store.loadRun(runId);
  if (!loaded) throw new Error(`The run ${runId} is no longer stored.`);
  const gate = async () => {
    if (ports.signal.aborted) throw new EvaluationCancelled();
  };
  const record = await evaluateAgent(
    {
      model: cancellable(ports.model, ports.signal),
      sandbox: ports.sandbox,
      gate,
      ...(ports.onPlay ? { onPlay: ports.onPlay } : {}),
    },
    {
      suite: ports.suite,
      config: loaded.meta.config,
      playbook: loaded.state.playbook ?? [],
      afterEpochs: loaded.meta.epochsCompleted,
      trigger: 'demand',
    },
  );
  await gate();
  await ports.store.addEvaluation(runId, record);
  return record;
}

/** What evaluating the open run on demand needs from the composition root: what playing it needs, and its lock. */
export type OpenRunEvaluationDeps = Pick<StoredRunDeps, 'store' | 'sandbox' | 'model' | 'suite'> & { lock?: RunLock };

/**
 * Evaluates a run on demand on the chosen suite while holding its lock (another tab that runs it
 * refuses), showing its progress through `show` from the start to done (with the suite
 * environments the run also trains on), cancelled or failed; resolves true when it stored a record.
 */
export async function evaluateOpenRun(
  deps: OpenRunEvaluationDeps,
  meta: RunMeta,
  choice: SuiteChoice,
  signal: AbortSignal,
  show: (progress: EvalProgress) => void,
): Promise<boolean> {
  let progress = startedEvaluation('demand', meta.epochsCompleted, 0);
  const update = (next: EvalProgress) => show((progress = next));
  show(progress);
  const release = deps.lock ? await deps.lock(meta.id) : () => undefined;
  try {
    if (!release) throw new Error('Another tab is running this run; evaluate it there, or when it stops.');
    const [suite, model, training] = await Promise.all([
      loadChosenSuite(choice, suiteSources(deps)),
      deps.model(meta),
      storedTrainingCodes(deps.store, meta),
    ]);
    update(startedEvaluation('demand', meta.epochsCompleted, suite.environments.length * meta.config.evalSeeds));
    const onPlay = (play: EvalPlay, done: number, total: number) => update(countPlay(progress, play, done, total));
    const record = await evaluateOnDemand(
      { store: deps.store, model, sandbox: deps.sandbox(), suite, signal, onPlay },
      meta.id,
    );
    update({ ...finishedEvaluation(progress, record), overlap: suiteOverlap(suite, training) });
    return true;
  } catch (error) {
    const cancelled = error instanceof EvaluationCancelled;
    update({ ...progress, phase: cancelled ? 'cancelled' : 'failed', error: cancelled ? null : errorMessage(error) });
    return false;
  } finally {
    await release?.();
  }
}
