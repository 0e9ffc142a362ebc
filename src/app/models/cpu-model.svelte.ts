import {
  loadCompatWorkerCode,
  WLLAMA_COMPAT_WASM_URL,
  WLLAMA_WASM_URL,
} from '../../adapters/llm/wllama/wllama-assets.ts';
import { fileNameOf, wllamaCache, type CachedGguf, type GgufCache } from '../../adapters/llm/wllama/wllama-cache.ts';
import {
  estimateCpuSpeed,
  formatBytes,
  formatRate,
  formatSpeed,
  RECOMMENDED_GGUF_MODELS,
  type GgufModelOption,
  type SpeedEstimate,
} from '../../adapters/llm/wllama/wllama-catalog.ts';
import {
  WllamaChatModel,
  type GenerationSpeed,
  type WllamaChatModelOptions,
} from '../../adapters/llm/wllama/wllama-chat-model.ts';
import {
  cpuEnvironment,
  createWllama,
  loadGguf,
  readGgufFile,
  type CpuEnvironment,
  type LoadedGguf,
  type WllamaLike,
} from '../../adapters/llm/wllama/wllama-engine.ts';
import { wllamaModelId } from '../../adapters/llm/model-id.ts';
import type { ChatModel } from '../../core/ports/chat-port.ts';
import { GgufFormatError, type GgufSummary } from '../../adapters/llm/wllama/gguf-header.ts';
import { errorMessage } from '../../core/error-message.ts';

export type { CachedGguf, CpuEnvironment, GenerationSpeed, GgufModelOption, GgufSummary, LoadedGguf, SpeedEstimate };
export { formatBytes, formatRate, formatSpeed };

/** Context windows offered, in tokens (the KV cache of Qwen3 0.6B/1.7B takes about 115 kB per token). */
export const CONTEXT_CHOICES = [4096, 8192, 16384] as const;
const DOWNLOAD_NEXT_STEP =
  'Check the address and the connection; the server must allow cross-origin downloads (Hugging Face does).';
const LOAD_NEXT_STEP =
  'Check that the file is a GGUF chat model of an architecture llama.cpp supports; if memory ran out, choose a smaller context or model.';

/** Where the CPU model setup is. */
export type CpuModelPhase = 'choosing' | 'confirming' | 'downloading' | 'loading' | 'ready' | 'failed';

/** Stable codes of CPU model setup failures. */
export type CpuModelErrorCode = 'bad_url' | 'not_gguf' | 'download_failed' | 'load_failed';

/** What the run controller hears about the loaded model. */
export type CpuModelEvent = { type: 'loaded'; modelId: string } | { type: 'unloaded' };

/** One recommended model, as the picker shows it. */
export interface CpuModelChoice {
  model: GgufModelOption;
  /** Its cache entry, or null when nothing is cached. */
  cached: CachedGguf | null;
  estimate: SpeedEstimate;
}

/** The loaded model. */
export interface LoadedCpuModel {
  /** The `ChatModel.id`, `wllama:<file name>`. */
  id: string;
  fileName: string;
  /** The URL it came from, or null for a file picked from disk. */
  url: string | null;
  bytes: number;
  info: LoadedGguf;
  /** Null for files under 50 MB, where fixed costs dominate and the estimate means nothing. */
  estimate: SpeedEstimate | null;
}

/** Everything the CPU model screen shows (replaced, never mutated, on every change). */
export interface CpuModelState {
  phase: CpuModelPhase;
  environment: CpuEnvironment;
  choices: CpuModelChoice[];
  /** A URL waiting for the user's confirmation, with what is known about it. */
  pending: { url: string; fileName: string; choice: GgufModelOption | null } | null;
  contextTokens: number;
  /** Bytes downloaded (`download`) or the engine reading the model (`load`, no byte counts). */
  progress: { stage: 'download' | 'load'; loaded: number; total: number } | null;
  loaded: LoadedCpuModel | null;
  error: { code: CpuModelErrorCode; message: string; nextStep: string } | null;
  cached: CachedGguf[];
  /** Speed of the last finished call, measured by the engine. */
  measured: GenerationSpeed | null;
  /** A short status line (cancelled, deleted), or null. */
  notice: string | null;
}

/** What the controller is built on (`chatOptions`: extra options of every chat model, e.g. `enableThinking`); tests replace any part. */
export interface CpuModelDeps {
  environment: CpuEnvironment;
  createEngine(): Promise<WllamaLike>;
  cache: GgufCache;
  catalog: readonly GgufModelOption[];
  chatOptions: Omit<WllamaChatModelOptions, 'modelName' | 'contextTokens' | 'onSpeed'>;
}

class Cancelled extends Error {}

const failure = (code: CpuModelErrorCode, message: string, nextStep: string) => ({ code, message, nextStep });
const isFailure = (error: unknown): error is NonNullable<CpuModelState['error']> =>
  typeof error === 'object' && error !== null && 'code' in error && 'nextStep' in error;

/** The CPU model setup: choose a recommended GGUF model or a URL (confirmed before download) or a local file, load it with progress and cancel, manage wllama's cache. */
export class CpuModelController {
  /** Everything the screen shows: read it (reactively); only the controller replaces it. */
  state: CpuModelState;

  private readonly deps: CpuModelDeps;
  // eslint-disable-next-line svelte/prefer-svelte-reactivity -- listeners, not state the UI reads
  private readonly modelListeners = new Set<(event: CpuModelEvent) => void>();
  private engine: WllamaLike | null = null;
  private model: WllamaChatModel | null = null;
  private cancelLoad: (() => void) | null = null;

  constructor(deps: Partial<CpuModelDeps> = {}) {
    const {
      environment = cpuEnvironment(),
      createEngine = () =>
        createWllama({ wasmUrl: WLLAMA_WASM_URL, compatWasmUrl: WLLAMA_COMPAT_WASM_URL, loadCompatWorkerCode }),
      cache = wllamaCache(),
      catalog = RECOMMENDED_GGUF_MODELS,
      chatOptions = {},
    } = deps;
    this.deps = { environment, createEngine, cache, catalog, chatOptions };
    this.state = $state.raw(
      this.withChoices({
        phase: 'choosing',
        environment,
        choices: [],
        pending: null,
        contextTokens: 8192,
        progress: null,
        loaded: null,
        error: null,
        cached: [],
        measured: null,
        notice: null,
      }),
    );
  }

  /** Subscribes to `loaded` and `unloaded` (for the run controller); returns the unsubscribe function. */
  onModelEvent(listener: (event: CpuModelEvent) => void): () => void {
    this.modelListeners.add(listener);
    return () => this.modelListeners.delete(listener);
  }

  /** The loaded model as a `ChatModel` (one model for every purpose), or null. */
  chatModel(): ChatModel | null {
    return this.state.phase === 'ready' ? this.model : null;
  }

  /** Sets the context window for the next load, in tokens. */
  setContextTokens(tokens: number): void {
    if (Number.isInteger(tokens) && tokens >= 256) this.update({ contextTokens: tokens });
  }

  /** Asks to load a model from `url` (a recommended one's or any `.gguf` URL); nothing is fetched until `confirm`. */
  propose(url: string): boolean {
    const trimmed = url.trim();
    if (!/^https?:\/\/[^/]+\/.+\.gguf(\?.*)?$/i.test(trimmed)) {
      this.update({
        error: failure(
          'bad_url',
          `${JSON.stringify(trimmed)} is not an http(s) URL of a .gguf file.`,
          'Paste the download URL of a GGUF file, e.g. https://huggingface.co/<repo>/resolve/main/<model>.gguf.',
        ),
      });
      return false;
    }
    this.update({
      phase: this.state.loaded ? this.state.phase : 'confirming',
      pending: {
        url: trimmed,
        fileName: fileNameOf(trimmed),
        choice: this.deps.catalog.find((m) => m.url === trimmed) ?? null,
      },
      error: null,
      notice: null,
    });
    return true;
  }

  /** Downloads (unless cached) and loads the proposed URL; resolves true when it is ready. */
  confirm(): Promise<boolean> {
    const pending = this.state.pending;
    if (!pending) return Promise.resolve(false);
    const onProgress = ({ loaded, total }: { loaded: number; total: number }) =>
      this.update({ progress: { stage: 'download', loaded, total } });
    return this.load(pending.fileName, pending.url, async (signal) => {
      const failed = (error: unknown) =>
        Promise.reject(
          signal.aborted
            ? new Cancelled()
            : failure(
                'download_failed',
                `Could not download ${pending.url} (${errorMessage(error)}).`,
                DOWNLOAD_NEXT_STEP,
              ),
        );
      return {
        blobs: await this.deps.cache.fetch(pending.url, { signal, onProgress }).catch(failed),
        paramsB: pending.choice?.paramsB,
      };
    });
  }

  /** `propose` then `confirm`, for callers that already have the user's consent. */
  loadUrl = async (url: string): Promise<boolean> => this.propose(url) && this.confirm();

  /** Loads a `.gguf` file picked from disk (no network, no cache); resolves true when it is ready. */
  loadFile(file: Blob & { name?: string }): Promise<boolean> {
    const fileName = file.name ?? 'model.gguf';
    return this.load(fileName, null, async () => {
      const notGguf = (error: unknown) =>
        Promise.reject(
          error instanceof GgufFormatError
            ? failure('not_gguf', `${fileName}: ${error.message}`, 'Choose a .gguf model file.')
            : error,
        );
      const summary = await readGgufFile(file).catch(notGguf);
      return { blobs: [file], paramsB: summary.parameters === null ? undefined : summary.parameters / 1e9 };
    });
  }

  /** Cancels a running download or load at once (a partial download is deleted). */
  cancel(): void {
    this.cancelLoad?.();
  }

  /** Unloads the model and stops its engine. */
  async unload(): Promise<void> {
    this.cancelLoad?.();
    await this.release();
    this.update({ phase: 'choosing', progress: null });
  }

  /** Reads the cache (call when the screen opens). */
  async refreshCache(): Promise<void> {
    this.update({ cached: await this.deps.cache.list().catch(() => []) });
  }

  /** Deletes a cached model or partial download (not the loaded model's file). */
  async deleteCached(key: string): Promise<void> {
    if (this.state.loaded?.url === key) return;
    await this.deps.cache.remove(key);
    await this.refreshCache();
    this.update({ notice: `Deleted ${fileNameOf(key)} from this browser's storage.` });
  }

  private async load(
    fileName: string,
    url: string | null,
    blobsOf: (signal: AbortSignal) => Promise<{ blobs: Blob[]; paramsB?: number | undefined }>,
  ): Promise<boolean> {
    if (this.cancelLoad) return false;
    await this.release();
    const controller = new AbortController();
    const cancelled = new Promise<never>((_, reject) =>
      controller.signal.addEventListener('abort', () => reject(new Cancelled())),
    );
    cancelled.catch(() => undefined);
    this.cancelLoad = () => controller.abort();
    const { contextTokens, environment } = this.state;
    this.update({ phase: url ? 'downloading' : 'loading', progress: null, error: null, notice: null });
    let engine: WllamaLike | null = null;
    let fetching: Promise<unknown> = Promise.resolve();
    let loading: Promise<unknown> = Promise.resolve();
    try {
      fetching = blobsOf(controller.signal);
      const { blobs, paramsB } = await Promise.race([fetching as ReturnType<typeof blobsOf>, cancelled]);
      const bytes = blobs.reduce((sum, blob) => sum + blob.size, 0);
      this.update({ phase: 'loading', progress: { stage: 'load', loaded: 0, total: bytes } });
      engine = await Promise.race([this.deps.createEngine(), cancelled]);
      const loaded = loadGguf(engine, blobs, { contextTokens, threads: environment.threads });
      loading = loaded;
      const info = await Promise.race([
        loaded.catch((error: unknown) =>
          Promise.reject(
            failure(
              'load_failed',
              `The CPU engine could not load ${fileName} (${errorMessage(error)}).`,
              LOAD_NEXT_STEP,
            ),
          ),
        ),
        cancelled,
      ]);
      const id = wllamaModelId(fileName);
      this.engine = engine;
      this.model = new WllamaChatModel(engine, {
        ...this.deps.chatOptions,
        modelName: fileName,
        contextTokens: info.contextTokens,
        onSpeed: (measured) => this.update({ measured }),
      });
      const estimate = bytes >= 50e6 ? estimateCpuSpeed(bytes, info.threads, paramsB) : null;
      if (url) await this.refreshCache();
      this.update({
        phase: 'ready',
        loaded: { id, fileName, url, bytes, info, estimate },
        progress: null,
        pending: null,
      });
      this.emit({ type: 'loaded', modelId: id });
      return true;
    } catch (error) {
      const stray = engine;
      if (stray)
        void loading
          .catch(() => undefined)
          .then(() => stray.exit())
          .catch(() => undefined);
      if (url) void fetching.catch(() => undefined).then(() => this.refreshCache());
      if (error instanceof Cancelled)
        this.update({ phase: 'choosing', progress: null, notice: `Cancelled loading ${fileName}.` });
      else
        this.update({
          phase: 'failed',
          progress: null,
          error: isFailure(error)
            ? error
            : failure('load_failed', errorMessage(error), 'Reload the page and try again.'),
        });
      return false;
    } finally {
      this.cancelLoad = null;
    }
  }

  private async release(): Promise<void> {
    const [engine, had] = [this.engine, this.state.loaded !== null];
    [this.engine, this.model] = [null, null];
    this.update({ loaded: null, measured: null });
    await engine?.exit().catch(() => undefined);
    if (had) this.emit({ type: 'unloaded' });
  }

  private emit(event: CpuModelEvent): void {
    for (const listener of this.modelListeners) listener(event);
  }

  private update(patch: Partial<CpuModelState>): void {
    const next = { ...this.state, ...patch };
    this.state = 'cached' in patch ? this.withChoices(next) : next;
  }

  private withChoices(state: CpuModelState): CpuModelState {
    const choices = this.deps.catalog.map((model) => ({
      model,
      cached: state.cached.find((c) => c.url === model.url) ?? null,
      estimate: estimateCpuSpeed(model.approxBytes, state.environment.threads, model.paramsB),
    }));
    return { ...state, choices };
  }
}
