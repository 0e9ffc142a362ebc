// Test-only page module (tests/browser/pages/webllm.html): mounts the real model setup screen
// over the real controller, session, worker and web-llm, and puts handles and timed helpers on
// `window.webllmTest` for tests/browser/webllm-*.test.ts.
import { WebWorkerMLCEngine } from '@mlc-ai/web-llm';
import { mount } from 'svelte';
import { toStore } from 'svelte/store';
import { detectGpuCapabilities } from '../../../src/adapters/gpu/gpu-capabilities.ts';
import {
  customModel,
  prebuiltModels,
  type CatalogModel,
  type CustomModelInput,
} from '../../../src/adapters/llm/webllm/model-catalog.ts';
import { WebLlmChatModel } from '../../../src/adapters/llm/webllm/webllm-chat-model.ts';
import type { EngineLease } from '../../../src/adapters/llm/webllm/webllm-engine.ts';
import type { ModelLoadError } from '../../../src/adapters/llm/webllm/webllm-errors.ts';
import type { LoadProgress } from '../../../src/adapters/llm/webllm/webllm-progress.ts';
import { WebLlmSession, type SessionEvent } from '../../../src/adapters/llm/webllm/webllm-session.ts';
import { ModelSetupController } from '../../../src/app/models/model-setup.svelte.ts';
import type { ChatResult } from '../../../src/core/ports/chat-port.ts';
import { recommendModel } from '../../../src/adapters/llm/webllm/model-choice.ts';
import ModelSetup from '../../../src/ui/models/ModelSetup.svelte';

/** A finished load, timed. */
export interface TimedLoad {
  ok: boolean;
  ms: number;
  error: { code: string; message: string; nextStep: string } | null;
  progress: LoadProgress[];
  /** Longest main-thread stall during the load, in ms (a 20 ms ticker's lateness). */
  maxStallMs: number;
  /** Milliseconds from `cancelPending()` to the load settling, or null when it was not cancelled. */
  cancelToSettleMs: number | null;
}

let pending: WebLlmSession | null = null;
let cancelledAt: number | null = null;
let chatAbort: AbortController | null = null;
let abortedAt: number | null = null;

const session = new WebLlmSession();
const controller = new ModelSetupController({ session });
const sessionEvents: SessionEvent[] = [];
session.on((event) => sessionEvents.push(event));
const phases: string[] = [];
toStore(() => controller.state.phase).subscribe((phase) => phases.at(-1) !== phase && phases.push(phase));
mount(ModelSetup, { target: document.getElementById('setup')!, props: { controller } });

async function timed(run: () => Promise<void>, progress: LoadProgress[]): Promise<TimedLoad> {
  let maxStallMs = 0;
  let last = performance.now();
  const ticker = setInterval(() => {
    const now = performance.now();
    maxStallMs = Math.max(maxStallMs, now - last - 20);
    last = now;
  }, 20);
  const started = performance.now();
  cancelledAt = null;
  const settle = () => ({
    ms: Math.round(performance.now() - started),
    progress,
    maxStallMs: Math.round(maxStallMs),
    cancelToSettleMs: cancelledAt === null ? null : Math.round(performance.now() - cancelledAt),
  });
  try {
    await run();
    return { ok: true, error: null, ...settle() };
  } catch (error) {
    const e = error as ModelLoadError;
    return { ok: false, error: { code: e.code, message: e.message, nextStep: e.nextStep }, ...settle() };
  } finally {
    clearInterval(ticker);
  }
}

/** Loads a model in a separate session (not the controller's), timing it. */
async function loadTimed(model: CatalogModel, cancelAfterMs?: number): Promise<TimedLoad> {
  const own = (pending = new WebLlmSession());
  const progress: LoadProgress[] = [];
  own.on((event) => event.type === 'progress' && progress.push(event.progress));
  if (cancelAfterMs !== undefined) setTimeout(() => api.cancelPending(), cancelAfterMs);
  const result = await timed(() => own.load(model), progress);
  pending = null;
  await own.unload();
  return result;
}

const prebuilt = async (id: string): Promise<CatalogModel> => {
  const model = (await prebuiltModels()).find((m) => m.spec.id === id);
  if (!model) throw new Error(`no prebuilt model ${id}`);
  return model;
};

const api = {
  controller,
  session,
  sessionEvents,
  /** Every phase the controller went through, in order (repeats collapsed). */
  phases,
  detect: () => detectGpuCapabilities(),
  recommend: async () =>
    recommendModel(
      await detectGpuCapabilities(),
      (await prebuiltModels()).map((m) => m.spec),
    ),
  /** Starts a fresh worker engine and asks it about its GPU. */
  probe: async () => {
    const own = new WebLlmSession();
    try {
      return await own.probe();
    } finally {
      await own.unload();
    }
  },
  /** Cancels the load `loadPrebuilt` / `loadCustom` is running. */
  cancelPending: () => {
    cancelledAt = performance.now();
    pending?.cancel();
  },
  loadPrebuilt: async (id: string, cancelAfterMs?: number) => loadTimed(await prebuilt(id), cancelAfterMs),
  loadCustom: (input: CustomModelInput, cancelAfterMs?: number) =>
    loadTimed(customModel(input, location.href), cancelAfterMs),
  /**
   * A chat call through the real worker engine whose model is not loaded in the worker: web-llm's
   * handler then reloads `input`'s model inside the call (its service-worker recovery path);
   * `abortChat()` aborts the call meanwhile. Returns the result or the error text, timed.
   */
  chatThroughWorker: async (input: CustomModelInput) => {
    const model = customModel(input, location.href);
    const worker = new Worker(new URL('../../../workers/llm-worker.ts', import.meta.url), { type: 'module' });
    const engine = new WebWorkerMLCEngine(worker, { appConfig: { model_list: [model.record], cacheBackend: 'cache' } });
    engine.modelId = [model.record.model_id];
    const lease: EngineLease = { engine, lost: new Promise(() => {}) };
    const chat = new WebLlmChatModel({ modelId: model.spec.id, lease: async () => lease, reportLost: () => {} });
    const signal = (chatAbort = new AbortController()).signal;
    abortedAt = null;
    const started = performance.now();
    const timing = () => ({
      ms: Math.round(performance.now() - started),
      abortToSettleMs: abortedAt === null ? null : Math.round(performance.now() - abortedAt),
    });
    try {
      const result: ChatResult = await chat.complete({
        messages: [{ role: 'user', content: 'hi' }],
        temperature: 0,
        topP: 1,
        maxTokens: 8,
        seed: 1,
        purpose: 'agent',
        signal,
      });
      return { result, error: null, ...timing() };
    } catch (error) {
      return {
        result: null,
        error: error instanceof Error ? `${(error as { code?: string }).code}: ${error.message}` : String(error),
        ...timing(),
      };
    } finally {
      worker.terminate();
    }
  },
  /** Aborts the call `chatThroughWorker` is making. */
  abortChat: () => {
    abortedAt = performance.now();
    chatAbort?.abort();
  },
  /** Puts files into web-llm's Cache Storage as if a model had been downloaded (for the cache tests). */
  seedCache: async (cacheName: string, files: Record<string, string>) => {
    const cache = await caches.open(cacheName);
    for (const [url, body] of Object.entries(files))
      await cache.put(url, new Response(body, { headers: { 'content-length': String(new Blob([body]).size) } }));
  },
};

declare global {
  interface Window {
    webllmTest: typeof api;
  }
}

window.webllmTest = api;
