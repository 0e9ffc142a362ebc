import type { ChatModel } from '../../core/ports/chat-port.ts';
import { corpusChangeNotice, type GroundingCorpus } from '../../core/loop/corpus.ts';
import type { EpochPorts, EpochResult } from '../../core/loop/epoch.ts';
import { runEpochs } from '../../core/loop/run-epochs.ts';
import { grammarNote } from '../../core/loop/agent-grammar.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import type { Suite } from '../../core/eval/suite.ts';
import {
  scheduledSuite,
  storedTrainingCodes,
  suiteOverlap,
  trainingCodes,
  type SuiteSources,
} from '../suites/suite-choice.ts';
import type { RunSession } from './run-session.ts';

/** What playing a stored run needs from the composition root. */
export interface StoredRunDeps {
  store: RunStore;
  sandbox: () => SandboxRuntime;
  /** The corpus new epochs are grounded in, with its identity (recorded by the first epoch, compared on resume). */
  corpus: () => Promise<GroundingCorpus>;
  /** The model a run uses (by its meta's modelId). */
  model: (meta: RunMeta) => Promise<ChatModel>;
  /** The built-in held-out suite (other suites are read from the store or chosen whole). */
  suite: () => Promise<Suite>;
  now?: () => number;
}

/** What a start of a run tells the view that shows it, and what it asks of it before each unit. */
export interface StoredRunView extends Pick<EpochPorts, 'emit' | 'gate'> {
  /** The run's notice: replaced by `text` (the corpus check at the start), or `text` added to it (`append`: the suite check). */
  notice(text: string | null, append: boolean): void;
  /** The run's stored meta changed by `patch`. */
  metaChanged(patch: Partial<RunMeta>): void;
  /** An epoch was committed; `overlap` (when it evaluated) gives the suite environments the run also trained on; the next epoch starts once what it returns has settled. */
  committed(result: EpochResult, overlap: (() => string[]) | null): void | Promise<void>;
}

/** Where chosen suites are read: the built-in suite and the stored runs. */
export function suiteSources(deps: Pick<StoredRunDeps, 'suite' | 'store'>): SuiteSources {
  return { builtin: deps.suite, store: deps.store };
}

/** The held-out suite of a run's scheduled evaluations, recorded in its meta when it has none or recorded another (then with a notice). */
async function recordedScheduledSuite(deps: StoredRunDeps, meta: RunMeta, view: StoredRunView): Promise<Suite> {
  const { suite, record, notice } = await scheduledSuite(meta, suiteSources(deps));
  if (notice) view.notice(notice, true);
  if (record) {
    await deps.store.updateRun(meta.id, { evalSuite: record });
    view.metaChanged({ evalSuite: record });
  }
  return suite;
}

/**
 * Plays a stored run from its last committed epoch to its planned count: grounds it in the corpus
 * (recording the corpus's identity), settles its held-out suite, marks it running, then commits
 * each epoch to the store. Rejects as runEpochs does (aborted, store full, failed).
 */
export async function playStoredRun(deps: StoredRunDeps, session: RunSession, view: StoredRunView): Promise<void> {
  const clock = deps.now ?? Date.now;
  const runId = session.runId;
  const loaded = await deps.store.loadRun(runId);
  if (!loaded) throw new Error(`The run ${runId} is no longer stored.`);
  const { meta, state } = loaded;
  session.epochsCompleted = state.epoch;
  const model = await deps.model(meta);
  const grounding = meta.config.useCorpus ? await deps.corpus() : null;
  if (grounding) {
    view.notice(state.epoch > 0 ? corpusChangeNotice(meta.corpus, grounding.identity) : null, false);
    if (state.epoch === 0 || !meta.corpus) {
      await deps.store.updateRun(runId, { corpus: grounding.identity });
      view.metaChanged({ corpus: grounding.identity });
    }
  }
  const unconstrained = grammarNote(meta.config, model);
  if (unconstrained) view.notice(unconstrained, true);
  const evalSuite = meta.config.evalEvery > 0 ? await recordedScheduledSuite(deps, meta, view) : null;
  const training = evalSuite ? await storedTrainingCodes(deps.store, meta) : null;
  await deps.store.updateRun(runId, { status: 'running', lastError: null, updatedAt: clock() });
  view.metaChanged({ status: 'running', lastError: null });
  await runEpochs(
    {
      model,
      sandbox: deps.sandbox(),
      ...(evalSuite ? { evalSuite } : {}),
      ...(meta.fixedPool ? { fixedPool: meta.fixedPool.environments } : {}),
      corpus: grounding?.docs ?? [],
      emit: view.emit,
      gate: view.gate,
      signal: session.abort.signal,
      now: clock,
      commit: (result) => deps.store.commitEpoch(runId, result),
      committed: (result) => {
        session.epochsCompleted = result.nextState.epoch;
        if (evalSuite && training) for (const code of trainingCodes({}, result.environments)) training.add(code);
        return view.committed(
          result,
          evalSuite && training && result.evaluations.length > 0 ? () => suiteOverlap(evalSuite, training) : null,
        );
      },
    },
    state,
    meta.config,
    meta.epochsPlanned - state.epoch,
  );
}
