import type { ChatModel } from '../core/ports/chat-port.ts';
import type { Config } from '../core/config.ts';
import { corpusChangeNotice, type GroundingCorpus } from '../core/loop/corpus.ts';
import { EpochAbortedError } from '../core/loop/epoch.ts';
import { runEpochs } from '../core/loop/run-epochs.ts';
import type { EpochStage, SpadeEvent } from '../core/loop/events.ts';
import type { Gate } from '../core/loop/scheduler.ts';
import type { EpochMetrics } from '../core/records.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { StoreQuotaError } from '../core/ports/store-errors.ts';
import type { RunMeta, RunStore } from '../core/ports/store-port.ts';
import type { Suite } from '../core/eval/suite.ts';
import { applyEvent, createLiveEpoch, type LiveEpoch } from './live-epoch.ts';
import { applyEvalEvent, countPlay, finishedEvaluation, isEvalEvent, startedEvaluation, type EvalProgress } from './eval-progress.ts';
import { evaluateOnDemand, EvaluationCancelled } from './evaluate-now.ts';
import { BUILTIN_CHOICE, loadChosenSuite, recordedSuite, scheduledSuite, storedTrainingCodes, suiteOverlap, trainingCodes, type SuiteChoice } from './suite-choice.ts';

/** What the controller is doing; `stopped`: storage filled up, the run is paused at its last committed epoch and continues once space is freed. */
export type ControllerStatus = 'idle' | 'running' | 'paused' | 'stopping' | 'completed' | 'failed' | 'aborted' | 'stopped';

/** Holds a run exclusively; returns a release function, or null when another tab holds it. */
export type RunLock = (runId: string) => Promise<(() => void) | null>;

/** What the controller needs from the composition root. */
export interface RunControllerDeps {
  store: RunStore;
  sandbox: () => SandboxRuntime;
  /** The corpus new epochs are grounded in, with its identity (recorded by the first epoch, compared on resume). */
  corpus: () => Promise<GroundingCorpus>;
  /** The model a run uses (by its meta's modelId). */
  model: (meta: RunMeta) => Promise<ChatModel>;
  /** The built-in held-out suite (other suites are read from the store or chosen whole). */
  suite: () => Promise<Suite>;
  lock?: RunLock;
  /** Schedules a UI flush (requestAnimationFrame in the browser). */
  schedule?: (flush: () => void) => void;
  now?: () => number;
}

/** Settings of a new run. */
export interface NewRun {
  name: string;
  config: Config;
  modelId: string;
  epochsPlanned: number;
  /** The environments a fixed-pool run plays instead of designing (SPADE's `fixed_env` baseline); absent: the designer. */
  fixedPool?: Suite;
  /** The held-out suite of its scheduled evaluations (absent: the built-in suite). */
  evalSuite?: SuiteChoice;
}

/** Runs SPADE epochs for one run at a time: start, pause, step one unit, resume, abort; persists each epoch. */
export class RunController {
  status: ControllerStatus = $state('idle');
  meta: RunMeta | null = $state(null);
  live: LiveEpoch | null = $state(null);
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

  private paused = false;
  /** A step asked for whose unit has not passed the gate yet (at most one). */
  private stepPending = false;
  private wake: (() => void) | null = null;
  private abortController: AbortController | null = null;
  private buffered: SpadeEvent[] = [];
  private flushScheduled = false;
  private releaseLock: (() => void) | null = null;
  private evalAbort: AbortController | null = null;

  constructor(private readonly deps: RunControllerDeps) {}

  /** The model a run uses, as its epochs get it (for re-scoring an environment outside an epoch). */
  modelFor(meta: RunMeta): Promise<ChatModel> {
    return this.deps.model(meta);
  }

  /** True while an on-demand evaluation of the open run is under way. */
  get evaluating(): boolean {
    return this.evaluation?.trigger === 'demand' && this.evaluation.phase === 'running';
  }

  /** Creates and selects a run (not started); a run that schedules evaluations records its held-out suite (and where it came from), a fixed-pool run its whole pool. */
  async create(input: NewRun): Promise<RunMeta> {
    const choice = input.evalSuite ?? BUILTIN_CHOICE;
    const suite = input.config.evalEvery > 0 ? await loadChosenSuite(choice, this.sources) : null;
    const now = (this.deps.now ?? Date.now)();
    const meta: RunMeta = {
      id: `run-${now.toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`,
      name: input.name,
      createdAt: now,
      updatedAt: now,
      config: JSON.parse(JSON.stringify(input.config)) as Config,
      modelId: input.modelId,
      status: 'new',
      epochsCompleted: 0,
      epochsPlanned: input.epochsPlanned,
      lastError: null,
      ...(suite ? { evalSuite: recordedSuite(suite, choice) } : {}),
      ...(input.fixedPool ? { fixedPool: { name: input.fixedPool.name, sha256: input.fixedPool.sha256, environments: input.fixedPool.environments } } : {}),
    };
    await this.deps.store.createRun(meta);
    await this.open(meta.id);
    return meta;
  }

  /** Selects a stored run and shows its committed history. */
  async open(runId: string): Promise<void> {
    if (this.status === 'running' || this.status === 'paused') throw new Error('Stop the current run before opening another.');
    if (this.evaluating) throw new Error('Cancel the held-out evaluation under way before opening another run.');
    const loaded = await this.deps.store.loadRun(runId);
    if (!loaded) throw new Error(`No run with id ${runId}.`);
    this.meta = loaded.meta;
    this.history = await this.deps.store.metricsOf(runId);
    this.live = null;
    this.evaluation = null;
    this.error = loaded.meta.lastError;
    this.notice =
      loaded.meta.status === 'running'
        ? `This run was interrupted during epoch ${loaded.meta.epochsCompleted + 1} (the tab closed or crashed). Epochs 1 to ${loaded.meta.epochsCompleted} are saved; the unfinished epoch was discarded. Continue runs it again with the same seeds.`
        : null;
    this.status = loaded.meta.epochsCompleted >= loaded.meta.epochsPlanned ? 'completed' : 'idle';
  }

  /** Starts (or continues) the selected run from its last committed epoch. */
  async start(options: { paused?: boolean } = {}): Promise<void> {
    const meta = this.meta;
    if (!meta || this.status === 'running' || this.status === 'paused' || this.evaluating) return;
    const releaseLock = this.deps.lock ? await this.deps.lock(meta.id) : () => undefined;
    if (!releaseLock) {
      this.error = 'Another tab is running this run. Close it there, or open the run read-only here.';
      return;
    }
    this.releaseLock = releaseLock;
    this.notice = null;
    this.paused = options.paused === true;
    this.stepPending = false;
    this.stepping = false;
    this.error = null;
    this.abortController = new AbortController();
    this.status = this.paused ? 'paused' : 'running';
    void this.loop(meta).finally(() => {
      this.releaseLock?.();
      this.releaseLock = null;
    });
  }

  /** Pauses before the next unit of work (a slot's design, a hint, an episode or the scoring). */
  pause(): void {
    if (this.status !== 'running') return;
    this.paused = true;
    this.status = 'paused';
  }

  /**
   * While paused, runs exactly one more unit of work; false (and nothing happens) when the run is
   * not paused or a step's unit is still running: steps are refused, never queued.
   */
  step(): boolean {
    if (this.status !== 'paused' || this.stepping) return false;
    this.stepping = true;
    this.stepPending = true;
    this.wake?.();
    return true;
  }

  /** Continues after a pause. */
  resume(): void {
    if (this.status !== 'paused') return;
    this.paused = false;
    this.status = 'running';
    this.wake?.();
  }

  /** Stops at once; the epoch in progress is discarded, committed epochs stay. */
  abort(): void {
    if (this.status !== 'running' && this.status !== 'paused') return;
    this.status = 'stopping';
    this.abortController?.abort();
    this.wake?.();
  }

  /**
   * Evaluates the open run's agent on a held-out suite now (the built-in one unless chosen; its
   * model and current playbook), when it is not running: `afterEpochs` = its committed epochs,
   * stored with `addEvaluation`. Progress is in `evaluation`, with the suite environments the run
   * also trains on; `cancelEvaluation` stops it and stores nothing.
   */
  async evaluateNow(choice: SuiteChoice = BUILTIN_CHOICE): Promise<void> {
    const meta = this.meta;
    if (!meta || this.evaluating || this.status === 'running' || this.status === 'paused' || this.status === 'stopping') return;
    const abort = new AbortController();
    this.evalAbort = abort;
    this.evaluation = startedEvaluation('demand', meta.epochsCompleted, 0);
    const release = this.deps.lock ? await this.deps.lock(meta.id) : () => undefined;
    try {
      if (!release) throw new Error('Another tab is running this run; evaluate it there, or when it stops.');
      const [suite, model, training] = await Promise.all([loadChosenSuite(choice, this.sources), this.deps.model(meta), storedTrainingCodes(this.deps.store, meta)]);
      this.evaluation = startedEvaluation('demand', meta.epochsCompleted, suite.environments.length * meta.config.evalSeeds);
      const record = await evaluateOnDemand(
        { store: this.deps.store, model, sandbox: this.deps.sandbox(), suite, signal: abort.signal, onPlay: (play, done, total) => (this.evaluation = countPlay(this.evaluation!, play, done, total)) },
        meta.id,
      );
      this.evaluation = { ...finishedEvaluation(this.evaluation, record), overlap: suiteOverlap(suite, training) };
      this.evaluationsStored += 1;
    } catch (error) {
      const cancelled = error instanceof EvaluationCancelled;
      this.evaluation = { ...this.evaluation!, phase: cancelled ? 'cancelled' : 'failed', error: cancelled ? null : error instanceof Error ? error.message : String(error) };
    } finally {
      release?.();
      if (this.evalAbort === abort) this.evalAbort = null;
    }
  }

  /** Cancels the on-demand evaluation under way (before its next play or model call); nothing is stored. */
  cancelEvaluation(): void {
    this.evalAbort?.abort();
  }

  /** Where chosen suites are read: the built-in suite and the stored runs. */
  private get sources() {
    return { builtin: this.deps.suite, store: this.deps.store };
  }

  /** The held-out suite of a run's scheduled evaluations, recorded in its meta when it has none or recorded another (then with a notice). */
  private async scheduledSuite(meta: RunMeta): Promise<Suite> {
    const { suite, record, notice } = await scheduledSuite(meta, this.sources);
    if (notice) this.notice = [this.notice, notice].filter(Boolean).join(' ');
    if (record) {
      await this.deps.store.updateRun(meta.id, { evalSuite: record });
      this.meta = { ...this.meta!, evalSuite: record };
    }
    return suite;
  }

  private gate: Gate = async (stage) => {
    this.stage = stage;
    while (this.paused && !this.stepPending && !this.abortController?.signal.aborted) {
      await new Promise<void>((resolve) => (this.wake = resolve));
      this.wake = null;
    }
    if (!this.stepPending) return;
    this.stepPending = false;
    return () => (this.stepping = false);
  };

  private onEvent = (event: SpadeEvent): void => {
    if (isEvalEvent(event)) {
      this.evaluation = applyEvalEvent(this.evaluation, event);
      return;
    }
    if (event.type === 'epoch_started') {
      this.flush();
      this.live = createLiveEpoch(event.epoch, event.slots);
      return;
    }
    this.buffered.push(event);
    if (event.type !== 'token') return this.flush();
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    (this.deps.schedule ?? ((f) => setTimeout(f, 16)))(() => this.flush());
  };

  private flush(): void {
    this.flushScheduled = false;
    const events = this.buffered;
    this.buffered = [];
    if (!this.live) return;
    for (const event of events) applyEvent(this.live, event);
  }

  private async loop(meta: RunMeta): Promise<void> {
    const clock = this.deps.now ?? Date.now;
    try {
      const loaded = await this.deps.store.loadRun(meta.id);
      if (!loaded) throw new Error(`The run ${meta.id} is no longer stored.`);
      const state = loaded.state;
      const model = await this.deps.model(loaded.meta);
      const grounding = loaded.meta.config.useCorpus ? await this.deps.corpus() : null;
      const corpus = grounding?.docs ?? [];
      if (grounding) {
        this.notice = state.epoch > 0 ? corpusChangeNotice(loaded.meta.corpus, grounding.identity) : null;
        if (state.epoch === 0 || !loaded.meta.corpus) {
          await this.deps.store.updateRun(meta.id, { corpus: grounding.identity });
          this.meta = { ...this.meta!, corpus: grounding.identity };
        }
      }
      const evalSuite = loaded.meta.config.evalEvery > 0 ? await this.scheduledSuite(loaded.meta) : null;
      const training = evalSuite ? await storedTrainingCodes(this.deps.store, loaded.meta) : null;
      await this.deps.store.updateRun(meta.id, { status: 'running', lastError: null, updatedAt: clock() });
      await runEpochs(
        {
          model,
          sandbox: this.deps.sandbox(),
          ...(evalSuite ? { evalSuite } : {}),
          ...(loaded.meta.fixedPool ? { fixedPool: loaded.meta.fixedPool.environments } : {}),
          corpus,
          emit: this.onEvent,
          gate: this.gate,
          signal: this.abortController!.signal,
          now: clock,
          commit: (result) => this.deps.store.commitEpoch(meta.id, result),
          committed: (result) => {
            this.history = [...this.history, result.metrics];
            this.piecesPerSecond = this.live ? (1000 * this.live.pieces) / Math.max(1, result.timings.totalMs) : 0;
            this.meta = { ...this.meta!, epochsCompleted: result.nextState.epoch, updatedAt: clock() };
            if (!evalSuite || !training) return;
            for (const code of trainingCodes({}, result.environments)) training.add(code);
            if (result.evaluations.length > 0 && this.evaluation?.phase === 'done') this.evaluation = { ...this.evaluation, overlap: suiteOverlap(evalSuite, training) };
          },
        },
        state,
        loaded.meta.config,
        loaded.meta.epochsPlanned - state.epoch,
      );
      await this.finish('completed', null);
    } catch (error) {
      this.flush();
      if (error instanceof EpochAbortedError) await this.finish('aborted', null);
      else if (error instanceof StoreQuotaError) await this.finish('stopped', error.message);
      else await this.finish('failed', error instanceof Error ? error.message : String(error));
    }
  }

  private async finish(status: 'completed' | 'aborted' | 'failed' | 'stopped', message: string | null): Promise<void> {
    this.status = status;
    this.error = message;
    this.stage = null;
    this.stepPending = false;
    this.stepping = false;
    if (this.evaluation?.phase === 'running') this.evaluation = { ...this.evaluation, phase: 'cancelled' };
    const stored = status === 'completed' ? 'completed' : status === 'failed' ? 'failed' : 'paused';
    if (this.meta) {
      this.meta = { ...this.meta, status: stored, lastError: message };
      await this.deps.store.updateRun(this.meta.id, { status: stored, lastError: message, updatedAt: (this.deps.now ?? Date.now)() }).catch(() => undefined);
    }
  }
}
