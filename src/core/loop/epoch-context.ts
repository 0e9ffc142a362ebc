import type { AbortSignalLike, ChatModel, ChatRequest, ChatResult } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import type { CorpusDoc } from './corpus.ts';
import type { SpadeEvent } from './events.ts';
import type { RunState } from './run-state.ts';
import type { EpochTimings } from '../records.ts';
import type { Suite, SuiteEnvironment } from '../eval/suite.ts';
import { shownLessons, type Lesson } from '../playbook/lesson.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import type { FitListener } from '../budget/fit-request.ts';
import { wrapModel } from '../budget/wrapped-model.ts';
import { BudgetTally, type PromptBudgetSummary } from '../budget/budget-tally.ts';
import { effectiveConcurrency, lookAheadOf, Scheduler, type Gate } from './scheduler.ts';

/** The outside world an epoch runs against. */
export interface EpochPorts {
  model: ChatModel;
  sandbox: SandboxRuntime;
  corpus: readonly CorpusDoc[];
  /** Receives progress events. */
  emit?: (event: SpadeEvent) => void;
  /** Awaited before each unit of work (a slot's design, a hint, an episode, the scoring, a lesson); a run controller blocks here to pause or step, and hears when the unit is done. */
  gate?: Gate;
  /** Aborts the epoch: model calls are interrupted and the epoch rejects with EpochAbortedError. */
  signal?: AbortSignalLike;
  /** Wall clock in milliseconds, for timings only. */
  now?: () => number;
  /** The held-out suite the run's scheduled evaluations play (none scheduled without it). */
  evalSuite?: Suite;
  /** A fixed-pool run's environments (SPADE's `fixed_env` mode): played in turn instead of designed. */
  fixedPool?: readonly SuiteEnvironment[];
}

/** Thrown when an epoch is aborted; nothing of the epoch should be kept. */
export class EpochAbortedError extends Error {
  override readonly name = 'EpochAbortedError';
  constructor() {
    super('The epoch was aborted; nothing of it was kept.');
  }
}

/** What the steps of one epoch share, made once by `openEpoch`. */
export interface EpochContext {
  ports: EpochPorts;
  state: RunState;
  config: Config;
  /** The epoch's index (`state.epoch`). */
  epoch: number;
  /** The run's model, timed, told of each request fitted to its context size, and interrupted by an abort. */
  model: ChatModel;
  emit: (event: SpadeEvent) => void;
  /** The ports' gate, which rejects with EpochAbortedError once the epoch is aborted. */
  gate: Gate;
  /** Runs the designs, hints and plays up to the run's concurrency, in the order a sequential run takes. */
  scheduler: Scheduler;
  /** The playbook's lessons shown with a skill's plays this epoch (none without a playbook). */
  lessonsOf: (skill: string) => Lesson[];
  /** Every lesson shown this epoch. */
  shown: () => Lesson[];
  /** The epoch's prompt budget per role so far (null when no request was fitted). */
  promptBudget: () => PromptBudgetSummary | null;
  /** Wall, model and sandbox time since the epoch opened. */
  timings: () => EpochTimings;
}

/** Opens an epoch: its timed model, its gate and scheduler, and the lessons it shows. */
export function openEpoch(ports: EpochPorts, state: RunState, config: Config): EpochContext {
  const clock = ports.now ?? Date.now;
  const started = clock();
  const modelTime = { ms: 0 };
  const emit = ports.emit ?? (() => undefined);
  const tally = new BudgetTally();
  const model = timedModel(ports.model, clock, modelTime, ports.signal, (purpose, budget) => {
    tally.add(purpose, budget);
    emit({ type: 'prompt_fitted', epoch: state.epoch, purpose, budget });
  });
  const gate: Gate = async (stage) => {
    throwIfAborted(ports.signal);
    const done = await ports.gate?.(stage);
    if (ports.signal?.aborted) done?.();
    throwIfAborted(ports.signal);
    return done;
  };
  const playbook = state.playbook ?? [];
  const shown = new Map<string, Lesson[]>();
  const lessonsOf = (skill: string) =>
    config.usePlaybook
      ? (shown.get(skill) ?? shown.set(skill, shownLessons(playbook, skill, config.playbookSize)).get(skill)!)
      : [];
  return {
    ports,
    state,
    config,
    epoch: state.epoch,
    model,
    emit,
    gate,
    scheduler: new Scheduler(effectiveConcurrency(config.concurrency, ports.model), gate, lookAheadOf(ports.sandbox)),
    lessonsOf,
    shown: () => [...shown.values()].flat(),
    promptBudget: () => tally.summary(),
    timings: () => {
      const totalMs = clock() - started;
      return { epoch: state.epoch, totalMs, modelMs: modelTime.ms, sandboxMs: Math.max(0, totalMs - modelTime.ms) };
    },
  };
}

function throwIfAborted(signal: AbortSignalLike | undefined): void {
  if (signal?.aborted) throw new EpochAbortedError();
}

// The model's time is the wall time with at least one call in flight, so concurrent calls are counted once.
// Its context size is the run's model's (asked once per model), and each request fitted to it is told to `fitted`.
function timedModel(
  model: ChatModel,
  clock: () => number,
  spent: { ms: number },
  signal: AbortSignalLike | undefined,
  fitted: FitListener['onFitted'],
): ChatModel & FitListener {
  let inFlight = 0;
  let since = 0;
  const timed = wrapModel(
    model,
    async (request: ChatRequest): Promise<ChatResult> => {
      throwIfAborted(signal);
      if (inFlight++ === 0) since = clock();
      try {
        return await model.complete(signal ? { ...request, signal } : request);
      } finally {
        if (--inFlight === 0) spent.ms += clock() - since;
        throwIfAborted(signal);
      }
    },
    signal,
  );
  return fitted ? { ...timed, onFitted: fitted } : timed;
}
