import {
  Wllama,
  type ChatCompletionChunk,
  type ChatCompletionParams,
  type LoadModelParams,
  type StreamParams,
  type WllamaLogger,
} from '@wllama/wllama';
import { readGgufHeader, type GgufSummary } from './gguf-header.ts';

/** The one wllama call the chat model makes; a loaded `Wllama` fits, tests pass a fake. */
export interface WllamaChatEngine {
  createChatCompletion(options: ChatCompletionParams & StreamParams<ChatCompletionChunk>): Promise<void>;
}

/** How the engine runs on this page. */
export interface CpuEnvironment {
  /** The page is cross-origin isolated, so SharedArrayBuffer and wasm threads work. */
  crossOriginIsolated: boolean;
  /** `navigator.hardwareConcurrency` (logical processors), at least 1. */
  hardwareConcurrency: number;
  /** Threads the engine will use: several only when cross-origin isolated. */
  threads: number;
}

/** Load settings. */
export interface CpuLoadOptions {
  /** Context window to allocate, in tokens (prompt and reply together). */
  contextTokens: number;
  /** Threads to use (1 = single-threaded). */
  threads: number;
  /** Prompt tokens per engine step; smaller steps let an abort land sooner during a long prompt. Default 256. */
  batchTokens?: number;
}

/** What a loaded model reports. */
export interface LoadedGguf {
  /** `general.name` from the file, or null. */
  name: string | null;
  /** Context the engine allocated, in tokens. */
  contextTokens: number;
  /** Context the model was trained for, in tokens. */
  trainedContextTokens: number;
  /** Threads in use. */
  threads: number;
  multithread: boolean;
  /** The model ships a chat template (tokenizer.chat_template). */
  hasChatTemplate: boolean;
}

/** Download progress in bytes. */
export type DownloadProgress = (progress: { loaded: number; total: number }) => void;

/** The wllama calls the engine wrapper makes; `Wllama` fits, tests pass a fake. */
export interface WllamaLike extends WllamaChatEngine {
  loadModel(blobs: Blob[], params: LoadModelParams): Promise<void>;
  getLoadedContextInfo(): { n_ctx: number; n_ctx_train: number; metadata: Record<string, string> };
  getChatTemplate(): string | null;
  isMultithread(): boolean;
  getNumThreads(): number;
  exit(): Promise<void>;
}

const quietLogger: WllamaLogger = {
  debug: () => undefined,
  log: () => undefined,
  warn: (...args: unknown[]) => console.warn('[wllama]', ...args),
  error: (...args: unknown[]) => console.warn('[wllama]', ...args),
};

/** The engine's environment on this page: threads only when cross-origin isolated, then half the logical processors (at least 2, at most 8). */
export function cpuEnvironment(
  scope: { crossOriginIsolated?: boolean; navigator?: { hardwareConcurrency?: number } } = globalThis,
): CpuEnvironment {
  const isolated = scope.crossOriginIsolated === true;
  const hardwareConcurrency = Math.max(1, scope.navigator?.hardwareConcurrency ?? 1);
  const threads =
    isolated && hardwareConcurrency > 1 ? Math.min(8, Math.max(2, Math.floor(hardwareConcurrency / 2))) : 1;
  return { crossOriginIsolated: isolated, hardwareConcurrency, threads };
}

/** Where the engine's files come from: the app, never a CDN. */
export interface WllamaAssets {
  wasmUrl: string;
  compatWasmUrl: string;
  loadCompatWorkerCode(): Promise<string>;
}

/** True where wllama needs its compatibility build: no JSPI or no Memory64, except in Firefox (which runs the default build without JSPI). */
export function needsCompatBuild(
  scope: { WebAssembly: typeof WebAssembly; navigator?: { userAgent?: string } } = globalThis,
): boolean {
  if (/Firefox\//.test(scope.navigator?.userAgent ?? '')) return false;
  let memory64 = true;
  try {
    new scope.WebAssembly.Memory({ address: 'i64', initial: 1n } as unknown as WebAssembly.MemoryDescriptor);
  } catch {
    memory64 = false;
  }
  return !('Suspending' in scope.WebAssembly) || !memory64;
}

/** A new wllama instance over the app-served files: the default build, or the compatibility build where the browser needs it (wllama's own fallback would load it from a CDN). */
export async function createWllama(assets: WllamaAssets): Promise<WllamaLike> {
  const engine = new Wllama({ default: assets.wasmUrl }, { suppressNativeLog: true, logger: quietLogger });
  engine.setCompat(
    needsCompatBuild() ? { wasm: assets.compatWasmUrl, worker: { code: await assets.loadCompatWorkerCode() } } : null,
  );
  return engine;
}

/** Loads GGUF blobs (one file, or the shards of a split model in order) into `engine` on the CPU, and reports what loaded. */
export async function loadGguf(engine: WllamaLike, blobs: Blob[], options: CpuLoadOptions): Promise<LoadedGguf> {
  const batch = options.batchTokens ?? 256;
  await engine.loadModel(blobs, {
    n_ctx: options.contextTokens,
    n_threads: options.threads,
    n_gpu_layers: 0,
    n_batch: batch,
    n_ubatch: batch,
    reasoning_format: 'none',
  });
  const info = engine.getLoadedContextInfo();
  return {
    name: info.metadata['general.name'] ?? null,
    contextTokens: info.n_ctx,
    trainedContextTokens: info.n_ctx_train,
    threads: engine.getNumThreads(),
    multithread: engine.isMultithread(),
    hasChatTemplate: Boolean(engine.getChatTemplate()),
  };
}

/** Bytes of a file read to check it (enough for the metadata and tensor infos of Qwen3 models). */
export const GGUF_HEADER_BYTES = 24 * 2 ** 20;

/** Checks that `file` is GGUF and summarises it from its first bytes; throws `GgufFormatError` otherwise. */
export async function readGgufFile(file: Blob): Promise<GgufSummary> {
  return readGgufHeader(new Uint8Array(await file.slice(0, GGUF_HEADER_BYTES).arrayBuffer()));
}
