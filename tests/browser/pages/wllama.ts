// Test-only page module (tests/browser/pages/wllama.html): mounts the real CPU model setup screen
// over the real controller and wllama engine, and puts timed helpers on `window.wllamaTest` for
// tests/browser/wllama-*.test.ts: chat calls with streaming, abort and a grammar, and one whole SPADE epoch
// with the loaded engine in both roles, the real browser sandbox and the IndexedDB store, whose
// slots are then shown with the app's own slot view. `?threads=1` loads the engine on one thread.
import { mount } from 'svelte';
import { sandboxAssets } from 'virtual:spade-sandbox';
import {
  createBrowserSandboxRuntime,
  type BrowserSandboxRuntime,
} from '../../../src/adapters/sandbox/browser-sandbox.ts';
import { openIndexedDbRunStore } from '../../../src/adapters/store/idb-run-store.ts';
import { CpuModelController } from '../../../src/app/models/cpu-model.svelte.ts';
import { cpuEnvironment } from '../../../src/adapters/llm/wllama/wllama-engine.ts';
import { EXAMPLE_ENV } from '../../../src/app/sandbox/example-env.ts';
import { applyEvent, createLiveEpoch } from '../../../src/app/run/live-epoch.ts';
import type { ChatMessage, ChatModel, ChatResult, ReplyGrammar } from '../../../src/core/ports/chat-port.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { parseCorpus } from '../../../src/core/loop/corpus.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import type { SpadeEvent } from '../../../src/core/loop/events.ts';
import type { EnvironmentRecord, Episode, EpochMetrics } from '../../../src/core/records.ts';
import CpuModelSetup from '../../../src/ui/models/CpuModelSetup.svelte';
import SlotCard from '../../../src/ui/run/SlotCard.svelte';

/** One chat call as the page saw it. */
export interface TimedChat {
  result: ChatResult | null;
  error: { name: string; code: string | null; message: string } | null;
  /** Streamed pieces in order. */
  pieces: string[];
  /** Milliseconds from the call to its first piece, or null. */
  firstPieceMs: number | null;
  totalMs: number;
  /** Milliseconds from the abort to the call settling, or null when not aborted. */
  abortToSettleMs: number | null;
}

/** What one epoch produced, read back from the store after the commit. */
export interface EpochSummary {
  ms: number;
  modelId: string;
  metrics: EpochMetrics;
  stored: EnvironmentRecord[];
  /** Episodes of every stored environment, read back from the store. */
  episodes: Episode[];
  epochsCompleted: number;
  eventTypes: string[];
  /** Designer prompt sizes in characters. */
  promptChars: number[];
}

/** Threads the engine loads with: the page's own (cpuEnvironment) unless the URL asks for one (`?threads=1`). */
const threadsParam = new URLSearchParams(location.search).get('threads');
const controller = new CpuModelController(
  threadsParam === '1' ? { environment: { ...cpuEnvironment(), threads: 1 } } : {},
);
mount(CpuModelSetup, { target: document.getElementById('setup')!, props: { controller } });

function loaded(): ChatModel {
  const model = controller.chatModel();
  if (!model) throw new Error('load a model first');
  return model;
}

const DEFAULT_MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are terse.' },
  { role: 'user', content: 'Say something.' },
];

/** The loaded model's prompt token count of `messages` (the default chat when absent), or its error. */
async function count(
  messages: ChatMessage[] = DEFAULT_MESSAGES,
): Promise<{ tokens: number | null; error: string | null; ms: number }> {
  const started = performance.now();
  try {
    const tokens = await loaded().countPromptTokens!({ messages });
    return { tokens, error: null, ms: Math.round(performance.now() - started) };
  } catch (error) {
    return { tokens: null, error: String(error), ms: Math.round(performance.now() - started) };
  }
}

async function chat(options: {
  messages?: ChatMessage[];
  maxTokens?: number;
  seed?: number;
  temperature?: number;
  abortAfterPieces?: number;
  abortBeforeStart?: boolean;
  grammar?: ReplyGrammar;
}): Promise<TimedChat> {
  const abort = new AbortController();
  const pieces: string[] = [];
  const started = performance.now();
  let firstPieceMs: number | null = null;
  let abortedAt: number | null = null;
  const stop = () => {
    abortedAt = performance.now();
    abort.abort();
  };
  if (options.abortBeforeStart) stop();
  const settle = (result: ChatResult | null, error: TimedChat['error']): TimedChat => {
    const now = performance.now();
    return {
      result,
      error,
      pieces,
      firstPieceMs,
      totalMs: Math.round(now - started),
      abortToSettleMs: abortedAt === null ? null : Math.round(now - abortedAt),
    };
  };
  try {
    const result = await loaded().complete({
      messages: options.messages ?? DEFAULT_MESSAGES,
      temperature: options.temperature ?? 0.6,
      topP: 0.95,
      maxTokens: options.maxTokens ?? 24,
      seed: options.seed ?? 1,
      purpose: 'agent',
      signal: abort.signal,
      ...(options.grammar ? { grammar: options.grammar } : {}),
      onToken: (piece) => {
        firstPieceMs ??= Math.round(performance.now() - started);
        pieces.push(piece);
        if (
          options.abortAfterPieces !== undefined &&
          pieces.length >= options.abortAfterPieces &&
          !abort.signal.aborted
        )
          stop();
      },
    });
    return settle(result, null);
  } catch (error) {
    const e = error as Error & { code?: string };
    return settle(null, { name: e.name, code: e.code ?? null, message: e.message });
  }
}

let sandbox: BrowserSandboxRuntime | null = null;

/** The page's one browser sandbox runtime, as the app keeps one per tab: the interpreters an epoch booted serve the next. */
function pageSandbox(): BrowserSandboxRuntime {
  sandbox ??= createBrowserSandboxRuntime(sandboxAssets);
  return sandbox;
}

async function corpus() {
  const response = await fetch('/corpus/concepts.jsonl');
  return parseCorpus(await response.text()).docs;
}

/** Runs one epoch; with `designer: 'example'` a fixed reply (the app's example environment) designs and the engine does the rest. */
async function epoch(overrides: Partial<Config>, designer: 'engine' | 'example' = 'engine'): Promise<EpochSummary> {
  const model = loaded();
  const config: Config = { ...DEFAULT_CONFIG, ...overrides };
  const store = await openIndexedDbRunStore({ name: `spade-wllama-test-${Date.now()}` });
  const runId = 'cpu-epoch';
  const now = Date.now();
  await store.createRun({
    id: runId,
    name: 'CPU model epoch',
    createdAt: now,
    updatedAt: now,
    config,
    modelId: model.id,
    status: 'running',
    epochsCompleted: 0,
    epochsPlanned: 1,
    lastError: null,
  });
  const events: SpadeEvent[] = [];
  const promptChars: number[] = [];
  const measuring: ChatModel = {
    id: model.id,
    complete: async (request) => {
      if (request.purpose === 'designer') promptChars.push(request.messages.reduce((n, m) => n + m.content.length, 0));
      if (designer === 'engine' || (request.purpose !== 'designer' && request.purpose !== 'repair'))
        return model.complete(request);
      const text = '```python\n' + EXAMPLE_ENV + '```';
      return { text, usage: { promptTokens: 0, completionTokens: 0 }, finishReason: 'stop' };
    },
  };
  const started = performance.now();
  const result = await runEpoch(
    { model: measuring, sandbox: pageSandbox(), corpus: await corpus(), emit: (event) => events.push(event) },
    INITIAL_RUN_STATE,
    config,
  );
  await store.commitEpoch(runId, result);
  showEpoch(events);
  const run = await store.loadRun(runId);
  const stored = await store.queryEnvironments(runId);
  return {
    ms: Math.round(performance.now() - started),
    modelId: model.id,
    metrics: result.metrics,
    stored,
    episodes: (await Promise.all(stored.map((env) => store.episodesOf(runId, env.id)))).flat(),
    epochsCompleted: run?.meta.epochsCompleted ?? -1,
    eventTypes: [...new Set(events.map((e) => e.type))],
    promptChars,
  };
}

/** Shows the epoch with the app's slot view, built from the core's events exactly as the run view builds it. */
function showEpoch(events: SpadeEvent[]): void {
  const started = events.find((e) => e.type === 'epoch_started');
  if (!started || started.type !== 'epoch_started') return;
  const live = createLiveEpoch(started.epoch, started.slots);
  for (const event of events) applyEvent(live, event);
  const target = document.getElementById('epoch')!;
  target.replaceChildren();
  for (const slot of live.slots)
    mount(SlotCard, { target, props: { slot, variant: DEFAULT_CONFIG.reward, dark: false } });
}

const api = {
  state: () => structuredClone(controller.state),
  loadUrl: (url: string) => controller.loadUrl(url),
  unload: () => controller.unload(),
  chat,
  count,
  contextWindow: () => loaded().contextWindow!(),
  /** Starts booting Python without waiting, as the app does when a new run's form opens (a failed boot is reported to the epoch that needs it). */
  warmSandbox: () =>
    void pageSandbox()
      .warm()
      .catch(() => undefined),
  epoch,
};

export type WllamaTestApi = typeof api;

declare global {
  interface Window {
    wllamaTest: WllamaTestApi;
  }
}

window.wllamaTest = api;
