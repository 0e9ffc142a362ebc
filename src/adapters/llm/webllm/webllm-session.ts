import type { AppConfig, MLCEngineConfig } from '@mlc-ai/web-llm';
import { appConfigFor, filesBaseUrl, listWindowOf, type CatalogModel } from './model-catalog.ts';
import type { EngineLease, WebLlmEngine, WebLlmEngineSource } from './webllm-engine.ts';
import { classifyLoadError, ModelLoadError, type LoadContext } from './webllm-errors.ts';
import { ProgressTracker, type LoadProgress } from './webllm-progress.ts';
import { loadWebLlm } from './webllm-module.ts';
import { isWorkerNotice } from './webllm-protocol.ts';

/** The part of a `Worker` the session uses. */
export interface WorkerLike {
  postMessage(message: unknown): void;
  addEventListener(type: 'message' | 'error', listener: (event: MessageEvent | ErrorEvent) => void): void;
  terminate(): void;
}

/** web-llm's `ChatWorker`: what `WebWorkerMLCEngine` talks through. */
export interface EnginePort {
  onmessage: ((event: unknown) => void) | null;
  postMessage(message: unknown): void;
}

/** Wraps a worker's port in an engine. */
export type ConnectEngine = (port: EnginePort, config: MLCEngineConfig) => WebLlmEngine;

/** What the session builds on (defaults: the real worker and web-llm's `WebWorkerMLCEngine`, imported on first use). */
export interface SessionDeps {
  createWorker(): WorkerLike;
  connectEngine?: ConnectEngine;
  /** How long a new worker may take to report `spade:ready`. */
  startTimeoutMs: number;
}

/** The session's state. */
export type SessionStatus = 'idle' | 'loading' | 'ready' | 'recovering' | 'failed';

/** What the session tells its listeners. */
export type SessionEvent =
  | { type: 'status'; status: SessionStatus }
  | { type: 'progress'; progress: LoadProgress }
  /** The GPU device or the worker was lost; a run should pause (the session recovers by itself when a model was loaded). */
  | { type: 'device-lost'; message: string }
  /** The model is loaded again after a loss; a paused run may continue. */
  | { type: 'recovered'; modelId: string; ms: number }
  | { type: 'recovery-failed'; error: ModelLoadError };

/** What the worker's engine reported about its GPU. */
export interface WorkerProbe {
  maxStorageBufferBindingSize: number;
  vendor: string;
  /** Milliseconds from creating the worker (or asking an existing one) to the answer. */
  ms: number;
}

interface Generation extends EngineLease {
  readonly worker: WorkerLike;
  readonly ready: Promise<void>;
  markLost(reason: Error): void;
}

const defaultDeps: SessionDeps = {
  createWorker: () =>
    new Worker(new URL('../../../../workers/llm-worker.ts', import.meta.url), { type: 'module', name: 'spade-llm' }),
  startTimeoutMs: 30_000,
};

/** The load context of a model with no alternatives to suggest. */
export function defaultContext(model: CatalogModel): LoadContext {
  return {
    modelId: model.spec.id,
    filesUrl: filesBaseUrl(model.record.model),
    modelLibUrl: model.record.model_lib,
    f32Alternative: null,
    smallerAlternative: null,
  };
}

function race<T>(pending: Promise<T>, ...stops: Array<Promise<never>>): Promise<T> {
  return Promise.race([pending, ...stops]);
}

/** The one owner of the LLM worker on the page: loads a model with progress, cancels, unloads, and recovers from a lost device. */
export class WebLlmSession implements WebLlmEngineSource {
  private readonly deps: SessionDeps;
  private readonly listeners = new Set<(event: SessionEvent) => void>();
  private current: Generation | null = null;
  private loaded: CatalogModel | null = null;
  private state: SessionStatus = 'idle';
  private recovery: Promise<void> | null = null;
  private failure: ModelLoadError | null = null;
  private cancelLoad: ((error: ModelLoadError) => void) | null = null;
  private context: LoadContext | null = null;

  constructor(deps: Partial<SessionDeps> = {}) {
    this.deps = { ...defaultDeps, ...deps };
  }

  /** Where the session is. */
  get status(): SessionStatus {
    return this.state;
  }

  /** The loaded model's id (also while recovering it), or null. */
  get modelId(): string | null {
    return this.loaded?.spec.id ?? null;
  }

  /** The window the loaded model was loaded with (its record's `context_window_size`), or null. */
  get contextWindowSize(): number | null {
    return this.loaded ? listWindowOf(this.loaded) : null;
  }

  /** Subscribes to session events; returns the unsubscribe function. */
  on(listener: (event: SessionEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Starts the worker engine if none runs and asks it about its GPU: proves the worker, web-llm and WebGPU work together. */
  async probe(): Promise<WorkerProbe> {
    const started = performance.now();
    const connect = await this.connector();
    const generation = this.current ?? (this.current = this.spawn(appConfigFor([]), connect));
    const stop = generation.lost.then((reason) => Promise.reject(reason));
    await race(generation.ready, stop);
    const maxStorageBufferBindingSize = await race(generation.engine.getMaxStorageBufferBindingSize(), stop);
    const vendor = await race(generation.engine.getGPUVendor(), stop);
    return { maxStorageBufferBindingSize, vendor, ms: Math.round(performance.now() - started) };
  }

  /** Loads `model` in a fresh worker (the previous one, and its model, are dropped); rejects with a `ModelLoadError` whose message uses `context` (alternatives to suggest). */
  async load(model: CatalogModel, context: LoadContext = defaultContext(model)): Promise<void> {
    this.cancel();
    this.context = context;
    this.drop();
    this.loaded = null;
    this.failure = null;
    this.setStatus('loading');
    const cancelled = new Promise<never>((_, reject) => (this.cancelLoad = reject));
    try {
      await this.start(model, cancelled);
      this.loaded = model;
      this.setStatus('ready');
    } catch (error) {
      this.drop();
      const failure = classifyLoadError(error, context);
      this.failure = failure;
      this.setStatus(failure.code === 'cancelled' ? 'idle' : 'failed');
      throw failure;
    } finally {
      this.cancelLoad = null;
    }
  }

  /** Cancels a running load or recovery at once (the worker is terminated; shards already downloaded stay cached). */
  cancel(): void {
    this.cancelLoad?.(
      new ModelLoadError(
        'cancelled',
        'Loading was cancelled.',
        'Load again when you are ready: shards already downloaded stay cached.',
      ),
    );
  }

  /** Unloads the model and stops the worker. */
  async unload(): Promise<void> {
    this.cancel();
    this.drop();
    this.loaded = null;
    this.failure = null;
    this.setStatus('idle');
  }

  async lease(): Promise<EngineLease> {
    if (this.recovery) await this.recovery;
    if (this.state === 'ready' && this.current) return this.current;
    throw this.failure ?? new ModelLoadError('unknown', 'No model is loaded.', 'Load a model in "Model setup" first.');
  }

  reportLost(lease: EngineLease, reason: Error): void {
    if (lease === this.current) this.current.markLost(reason);
  }

  private async start(model: CatalogModel, cancelled: Promise<never>): Promise<void> {
    this.emit({ type: 'progress', progress: ProgressTracker.preparing() });
    const connect = await race(this.connector(), cancelled);
    const generation = (this.current = this.spawn(appConfigFor([model.record]), connect));
    const stop = generation.lost.then((reason) => Promise.reject(reason));
    await race(generation.ready, stop, cancelled);
    await race(generation.engine.reload(model.record.model_id), stop, cancelled);
  }

  private async connector(): Promise<ConnectEngine> {
    if (this.deps.connectEngine) return this.deps.connectEngine;
    const { WebWorkerMLCEngine } = await loadWebLlm();
    return (port, config) => new WebWorkerMLCEngine(port, config);
  }

  private spawn(appConfig: AppConfig, connect: ConnectEngine): Generation {
    const worker = this.deps.createWorker();
    const port: EnginePort = { onmessage: null, postMessage: (message) => worker.postMessage(message) };
    let resolveLost!: (reason: Error) => void;
    let markReady!: () => void;
    let isLost = false;
    const lost = new Promise<Error>((resolve) => (resolveLost = resolve));
    const markLost = (reason: Error): void => {
      if (isLost) return;
      isLost = true;
      resolveLost(reason);
      this.onLost(generation, reason);
    };
    const ready = new Promise<void>((resolve) => (markReady = resolve));
    const timer = setTimeout(
      () =>
        markLost(
          new ModelLoadError(
            'worker_failed',
            `The model worker did not start within ${this.deps.startTimeoutMs} ms.`,
            'Reload the page; if it persists, the browser may block module workers.',
          ),
        ),
      this.deps.startTimeoutMs,
    );
    void ready.then(() => clearTimeout(timer));
    void lost.then(() => clearTimeout(timer));
    worker.addEventListener('message', (event) => {
      const data = (event as MessageEvent).data;
      if (!isWorkerNotice(data)) return port.onmessage?.(event);
      if (data.kind === 'spade:ready') markReady();
      else
        markLost(
          new Error(
            `DeviceLostError: the GPU device was lost (${data.reason}${data.message ? `: ${data.message}` : ''})`,
          ),
        );
    });
    worker.addEventListener('error', (event) => {
      const message = (event as ErrorEvent).message || 'the worker script failed';
      markLost(
        new ModelLoadError(
          'worker_failed',
          `The model worker stopped: ${message}.`,
          'Reload the page and load the model again.',
        ),
      );
    });
    const tracker = new ProgressTracker();
    const engine = connect(port, {
      appConfig,
      initProgressCallback: (report) => this.emit({ type: 'progress', progress: tracker.take(report) }),
    });
    const generation: Generation = { worker, engine, lost, ready, markLost };
    return generation;
  }

  private onLost(generation: Generation, reason: Error): void {
    if (generation !== this.current || this.state === 'loading' || this.state === 'recovering') return;
    this.emit({ type: 'device-lost', message: reason.message });
    const model = this.loaded;
    this.drop();
    if (!model || this.state !== 'ready') return;
    this.recovery = this.recover(model).finally(() => (this.recovery = null));
  }

  private async recover(model: CatalogModel): Promise<void> {
    const started = performance.now();
    this.setStatus('recovering');
    const cancelled = new Promise<never>((_, reject) => (this.cancelLoad = reject));
    try {
      await this.start(model, cancelled);
      this.setStatus('ready');
      this.emit({ type: 'recovered', modelId: model.spec.id, ms: Math.round(performance.now() - started) });
    } catch (error) {
      const failure = classifyLoadError(error, this.context ?? defaultContext(model));
      if (failure.code === 'cancelled') return;
      this.drop();
      this.failure = failure;
      this.setStatus('failed');
      this.emit({ type: 'recovery-failed', error: failure });
    } finally {
      this.cancelLoad = null;
    }
  }

  private drop(): void {
    const generation = this.current;
    this.current = null;
    if (!generation) return;
    generation.worker.terminate();
    generation.markLost(new Error('the model worker was stopped'));
  }

  private setStatus(status: SessionStatus): void {
    this.state = status;
    this.emit({ type: 'status', status });
  }

  private emit(event: SessionEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
