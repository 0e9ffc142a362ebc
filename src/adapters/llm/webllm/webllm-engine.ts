import type {
  AppConfig,
  ChatCompletionChunk,
  ChatCompletionRequestStreaming,
  InitProgressCallback,
} from '@mlc-ai/web-llm';

/**
 * The part of web-llm's engine interface (`MLCEngineInterface`) this app calls. web-llm's
 * `WebWorkerMLCEngine` fits it; unit tests pass fakes of exactly these methods.
 */
export interface WebLlmEngine {
  chat: {
    completions: { create(request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> };
  };
  /** Stops the running generation after the current token; the engine stays usable. */
  interruptGenerate(): void;
  /** Loads a model listed in the engine's app config. */
  reload(modelId: string): Promise<void>;
  /** Frees the loaded model and its GPU device. */
  unload(): Promise<void>;
  setAppConfig(config: AppConfig): void;
  setInitProgressCallback(callback: InitProgressCallback): void;
  /** Asks the worker's GPU device for its `maxStorageBufferBindingSize` (creates a device there). */
  getMaxStorageBufferBindingSize(): Promise<number>;
  /** The worker's GPU vendor (empty when unknown). */
  getGPUVendor(): Promise<string>;
}

/** One loaded engine, and a promise that resolves with the reason once it is lost (device lost, worker gone). */
export interface EngineLease {
  readonly engine: WebLlmEngine;
  readonly lost: Promise<Error>;
}

/** Where a chat model gets its engine from; `WebLlmSession` is one. */
export interface WebLlmEngineSource {
  /** The loaded model's id, or null when none is loaded. */
  readonly modelId: string | null;
  /** The context window the loaded model was loaded with, in tokens; null when none is loaded or only its own config knows. */
  readonly contextWindowSize?: number | null;
  /** The loaded engine; waits while the engine is being recovered; rejects (with a `ModelLoadError`) when no model is loaded. */
  lease(): Promise<EngineLease>;
  /** Tells the source that a call on `lease` failed because the engine is gone; it recovers if that lease is still current. */
  reportLost(lease: EngineLease, reason: Error): void;
}

/** True for a failure text that means the engine lost its GPU device or its model (so reloading helps). */
export function isEngineLoss(text: string): boolean {
  return /DeviceLostError|device (was |is )?lost|ModelNotLoadedError|Model not loaded|WorkerEngineModelNotLoadedError|is not loaded with a model|EngineNotLoadedError|GPUDevice.*destroyed/i.test(
    text,
  );
}
