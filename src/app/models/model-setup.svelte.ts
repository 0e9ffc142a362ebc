import { detectGpuCapabilities } from '../../adapters/gpu/gpu-capabilities.ts';
import {
  customModel,
  listWindowOf,
  prebuiltModels,
  withContextWindow,
  type CatalogModel,
  type CustomModelInput,
} from '../../adapters/llm/webllm/model-catalog.ts';
import * as cacheOps from '../../adapters/llm/webllm/webllm-cache.ts';
import type { RememberedModel } from '../../adapters/llm/webllm/webllm-cache.ts';
import { WebLlmChatModel, type WebLlmChatModelOptions } from '../../adapters/llm/webllm/webllm-chat-model.ts';
import { failureOf, ModelLoadError } from '../../adapters/llm/webllm/webllm-errors.ts';
import { WebLlmSession, type SessionEvent } from '../../adapters/llm/webllm/webllm-session.ts';
import type { ChatModel } from '../../core/ports/chat-port.ts';
import {
  blockingProblem,
  judgeGpu,
  recommendModel,
  type GpuCapabilities,
} from '../../adapters/llm/webllm/model-choice.ts';
import { errorMessage } from '../../core/error-message.ts';
import { loadContextOf, optionsOf, validWindow, windowOf } from './model-options.ts';
import type { ModelEvent, ModelSetupState } from './model-setup-state.ts';

/** What the controller is built on; tests replace any part. */
export interface ModelSetupDeps {
  detect(): Promise<GpuCapabilities>;
  catalog(): Promise<CatalogModel[]>;
  session: WebLlmSession;
  cache: Pick<
    typeof cacheOps,
    | 'listCachedModels'
    | 'deleteCachedModel'
    | 'storageFacts'
    | 'requestPersistentStorage'
    | 'rememberModel'
    | 'rememberedModel'
  >;
  /** Resolves relative custom URLs (defaults to the page's address). */
  baseUrl(): string;
  chatOptions: WebLlmChatModelOptions;
}

/** The model setup of the app: detect the GPU, recommend and pick a model, load it with progress and cancel, manage the cache, recover from a lost device. */
export class ModelSetupController {
  /** Everything the screen shows: read it (reactively); only the controller replaces it. */
  state: ModelSetupState = $state.raw({
    phase: 'detecting',
    capabilities: null,
    recommendation: null,
    options: [],
    selectedId: null,
    loadedId: null,
    loadedWindow: null,
    windowOverride: null,
    progress: null,
    error: null,
    customError: null,
    worker: null,
    storage: null,
    cached: [],
    resumableId: null,
    notice: null,
  });

  private readonly deps: ModelSetupDeps;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners, not state the UI reads
  private readonly modelListeners = new Set<(event: ModelEvent) => void>();
  private models: CatalogModel[] = [];
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- a lookup for loading, not state the UI reads
  private custom = new Map<string, CustomModelInput>();
  private model: WebLlmChatModel | null = null;
  private starting: Promise<void> | null = null;

  constructor(deps: Partial<ModelSetupDeps> = {}) {
    const session = deps.session ?? new WebLlmSession();
    this.deps = {
      detect: () => detectGpuCapabilities(),
      catalog: () => prebuiltModels(),
      cache: cacheOps,
      baseUrl: () => globalThis.location?.href ?? 'http://localhost/',
      chatOptions: {},
      ...deps,
      session,
    };
    session.on((event) => this.onSessionEvent(event));
  }

  /** Subscribes to model events (for the run controller); returns the unsubscribe function. */
  onModelEvent(listener: (event: ModelEvent) => void): () => void {
    this.modelListeners.add(listener);
    return () => this.modelListeners.delete(listener);
  }

  /** The loaded model as a `ChatModel` (one model for every purpose), or null when none is loaded. */
  chatModel(): ChatModel | null {
    return this.state.phase === 'ready' || this.state.phase === 'recovering' ? this.model : null;
  }

  /** Detects the GPU, recommends a model, reads the cache, preselects the remembered or recommended model, and starts the worker engine (once; later calls return the same promise). */
  start(): Promise<void> {
    this.starting ??= this.detectAndRecommend();
    return this.starting;
  }

  private async detectAndRecommend(): Promise<void> {
    const capabilities = await this.deps.detect();
    this.models = await this.deps.catalog();
    const remembered = this.deps.cache.rememberedModel();
    if (remembered?.custom) this.addCustomModel(remembered.custom);
    const recommendation = recommendModel(
      capabilities,
      this.models.map((m) => m.spec),
    );
    const ok = recommendation.verdict === 'ok';
    this.update({
      capabilities,
      recommendation,
      phase: ok ? 'choosing' : 'unsupported',
      selectedId: this.find(remembered?.id)?.spec.id ?? recommendation.recommendedId,
      windowOverride: validWindow(remembered?.windowTokens) ? remembered!.windowTokens! : null,
      worker: ok ? { status: 'starting', probe: null, error: null } : null,
    });
    await this.refreshStorage();
    if (ok) void this.probeWorker();
  }

  /** Selects a model to load. */
  select(id: string): void {
    if (this.find(id)) this.update({ selectedId: id, error: null });
  }

  /** Sets the context window the next load uses, in tokens; null returns to the automatic choice. */
  setWindow(tokens: number | null): void {
    if (tokens === null || validWindow(tokens)) this.update({ windowOverride: tokens });
  }

  /** Adds and selects a self-hosted model; returns its id, or null (with `customError` set) when the input is unusable. */
  addCustom(input: CustomModelInput): string | null {
    try {
      const id = this.addCustomModel(input);
      this.update({ selectedId: id, customError: null, error: null });
      return id;
    } catch (error) {
      this.update({ customError: errorMessage(error) });
      return null;
    }
  }

  /** Loads the selected (or given) model; resolves true when it is ready. Failures land in `state.error`. */
  async load(id = this.state.selectedId): Promise<boolean> {
    const model = this.find(id);
    const caps = this.state.capabilities;
    if (!model || !caps) return false;
    const blocked = blockingProblem(
      caps,
      model.spec,
      this.models.map((m) => m.spec),
    );
    if (blocked) {
      this.update({ error: blocked, phase: this.state.phase === 'unsupported' ? 'unsupported' : 'failed' });
      return false;
    }
    this.model = null;
    const worker = this.state.worker?.status === 'starting' ? null : this.state.worker;
    this.update({
      phase: 'loading',
      selectedId: model.spec.id,
      loadedId: null,
      error: null,
      notice: null,
      progress: null,
      worker,
    });
    try {
      const window = windowOf(model, this.state).tokens;
      const listed = listWindowOf(model);
      const enlargedWindow = window !== null && (listed === null || window > listed) ? window : null;
      await this.deps.session.load(window === null ? model : withContextWindow(model, window), {
        ...loadContextOf(model, this.models, this.state.capabilities),
        enlargedWindow,
      });
      this.model = new WebLlmChatModel(this.deps.session, this.deps.chatOptions);
      const override = this.state.windowOverride;
      const remembered: RememberedModel = {
        id: model.spec.id,
        ...(this.custom.has(model.spec.id) ? { custom: this.custom.get(model.spec.id)! } : {}),
        ...(override !== null ? { windowTokens: override } : {}),
      };
      this.deps.cache.rememberModel(remembered);
      this.update({ phase: 'ready', loadedId: model.spec.id, loadedWindow: this.deps.session.contextWindowSize });
      this.emit({ type: 'loaded', modelId: model.spec.id });
      return true;
    } catch (error) {
      const failure =
        error instanceof ModelLoadError
          ? error
          : new ModelLoadError('unknown', String(error), 'Reload the page and try again.');
      if (failure.code === 'cancelled')
        this.update({ phase: 'choosing', progress: null, notice: `${failure.message} ${failure.nextStep}` });
      else this.update({ phase: 'failed', error: failureOf(failure) });
      return false;
    } finally {
      void this.refreshStorage();
    }
  }

  /** Loads the remembered model when it is completely cached; resolves false otherwise. */
  resume(): Promise<boolean> {
    return this.state.resumableId ? this.load(this.state.resumableId) : Promise.resolve(false);
  }

  /** Cancels a running load at once. */
  cancel(): void {
    this.deps.session.cancel();
  }

  /** Unloads the model and stops its worker. */
  async unload(): Promise<void> {
    await this.deps.session.unload();
    this.model = null;
    this.update({
      phase: this.state.capabilities && judgeGpu(this.state.capabilities).verdict === 'ok' ? 'choosing' : 'unsupported',
      loadedId: null,
      loadedWindow: null,
      progress: null,
    });
    this.emit({ type: 'unloaded' });
  }

  /** Re-reads storage use, quota, persistence and the cached models. */
  async refreshStorage(): Promise<void> {
    const [storage, cached] = await Promise.all([
      this.deps.cache.storageFacts(),
      this.deps.cache.listCachedModels(this.models),
    ]);
    const remembered = this.deps.cache.rememberedModel();
    const resumableId = cached.find((c) => c.id === remembered?.id && c.complete)?.id ?? null;
    this.update({ storage, cached, resumableId });
  }

  /** Deletes a model's cached files (not the loaded one's). */
  async deleteCached(id: string): Promise<void> {
    const model = this.find(id);
    if (!model || id === this.state.loadedId) return;
    await this.deps.cache.deleteCachedModel(model);
    await this.refreshStorage();
  }

  /** Asks the browser to keep the cached models under storage pressure; resolves with its answer. */
  async persistStorage(): Promise<boolean> {
    const granted = await this.deps.cache.requestPersistentStorage();
    await this.refreshStorage();
    return granted;
  }

  private async probeWorker(): Promise<void> {
    try {
      const probe = await this.deps.session.probe();
      if (this.state.worker?.status === 'starting') this.update({ worker: { status: 'ready', probe, error: null } });
    } catch (error) {
      if (this.state.worker?.status === 'starting')
        this.update({ worker: { status: 'failed', probe: null, error: errorMessage(error) } });
    }
  }

  private addCustomModel(input: CustomModelInput): string {
    const model = customModel(input, this.deps.baseUrl());
    this.models = [...this.models.filter((m) => m.spec.id !== model.spec.id), model];
    this.custom.set(model.spec.id, input);
    if (this.state.capabilities)
      this.update({
        recommendation: recommendModel(
          this.state.capabilities,
          this.models.map((m) => m.spec),
        ),
      });
    return model.spec.id;
  }

  private onSessionEvent(event: SessionEvent): void {
    const lost = `The GPU device was lost (${event.type === 'device-lost' ? event.message : ''}); `;
    if (event.type === 'progress' && this.state.phase === 'loading') this.update({ progress: event.progress });
    else if (event.type === 'device-lost' && this.state.loadedId)
      this.update({ phase: 'recovering', notice: `${lost}reloading ${this.state.loadedId} from the cache…` });
    else if (event.type === 'device-lost' && this.state.worker) {
      this.update({
        worker: { status: 'starting', probe: null, error: null },
        notice: `${lost}restarting the worker engine…`,
      });
      void this.probeWorker();
    } else if (event.type === 'recovered')
      this.update({
        phase: 'ready',
        notice: `Recovered: ${event.modelId} reloaded in ${(event.ms / 1000).toFixed(1)} s.`,
      });
    else if (event.type === 'recovery-failed') {
      this.model = null;
      this.update({ phase: 'failed', loadedId: null, loadedWindow: null, error: failureOf(event.error), notice: null });
    }
    if (event.type === 'recovered' || (event.type === 'device-lost' && this.state.phase === 'recovering'))
      this.emit(event);
    if (event.type === 'recovery-failed') this.emit({ type: 'recovery-failed', error: failureOf(event.error) });
  }

  private find(id: string | null | undefined): CatalogModel | undefined {
    return id ? this.models.find((m) => m.spec.id === id) : undefined;
  }

  private emit(event: ModelEvent): void {
    for (const listener of this.modelListeners) listener(event);
  }

  private update(patch: Partial<ModelSetupState>): void {
    const next = { ...this.state, ...patch };
    this.state =
      'recommendation' in patch || 'cached' in patch || 'windowOverride' in patch
        ? { ...next, options: optionsOf(this.models, next) }
        : next;
  }
}
