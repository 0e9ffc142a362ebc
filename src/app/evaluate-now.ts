import type { ChatModel, ChatRequest, ChatResult } from '../core/ports/chat-port.ts';
import type { EvalPlay, EvalRecord } from '../core/eval/eval-record.ts';
import { evaluateAgent } from '../core/eval/evaluate.ts';
import type { Suite } from '../core/eval/suite.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import type { RunStore } from '../core/ports/store-port.ts';

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
  return {
    id: model.id,
    ...(model.maxConcurrency !== undefined ? { maxConcurrency: model.maxConcurrency } : {}),
    async complete(request: ChatRequest): Promise<ChatResult> {
      check();
      const result = await model.complete({ ...request, signal });
      check();
      return result;
    },
  };
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
    { model: cancellable(ports.model, ports.signal), sandbox: ports.sandbox, gate, ...(ports.onPlay ? { onPlay: ports.onPlay } : {}) },
    { suite: ports.suite, config: loaded.meta.config, playbook: loaded.state.playbook ?? [], afterEpochs: loaded.meta.epochsCompleted, trigger: 'demand' },
  );
  await gate();
  await ports.store.addEvaluation(runId, record);
  return record;
}
