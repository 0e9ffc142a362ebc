// Fakes at the engine seam for the WebLLM unit tests: an engine implementing exactly the
// methods of `WebLlmEngine` the adapters call, streaming the way web-llm's engine does (delta
// chunks, a final chunk with finish_reason, then a usage chunk with empty choices; an interrupt
// ends the stream with finish_reason 'abort' after the current token), and a worker whose
// messages the test controls.
import type {
  AppConfig,
  ChatCompletionChunk,
  ChatCompletionRequestStreaming,
  InitProgressCallback,
  MLCEngineConfig,
} from '@mlc-ai/web-llm';
import type { WebLlmEngine } from '../../../../src/adapters/llm/webllm/webllm-engine.ts';
import type { EnginePort, WorkerLike } from '../../../../src/adapters/llm/webllm/webllm-session.ts';

/** What the fake engine answers to one `create` call. */
export interface FakeReply {
  deltas: string[];
  finish?: 'stop' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number };
  /** `create` rejects with this (web-llm's worker rejects with the error's text). */
  createError?: unknown;
  /** The stream throws this after `failAfter` deltas. */
  streamError?: unknown;
  failAfter?: number;
  /** The stream waits on this before it starts (web-llm waits for its model lock, then clears any earlier interrupt). */
  lockGate?: Promise<void>;
  /** The stream waits on this gate before yielding delta number `holdAt`. */
  holdAt?: number;
  gate?: Promise<void>;
}

/** A promise with its resolve function outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));

function chunk(choices: ChatCompletionChunk['choices'], usage?: ChatCompletionChunk['usage']): ChatCompletionChunk {
  return { id: 'c', object: 'chat.completion.chunk', created: 0, model: 'fake', choices, ...(usage ? { usage } : {}) };
}

/** A fake web-llm engine; records every request, interrupt and reload. */
export class FakeEngine implements WebLlmEngine {
  readonly requests: ChatCompletionRequestStreaming[] = [];
  readonly reloads: string[] = [];
  readonly events: string[] = [];
  interrupts = 0;
  unloads = 0;
  appConfig: AppConfig | null = null;
  progress: InitProgressCallback | null = null;
  reloadResult: () => Promise<void> = async () => undefined;
  private interrupted = false;

  constructor(private readonly replies: FakeReply[] = []) {}

  readonly chat = {
    completions: {
      create: async (request: ChatCompletionRequestStreaming): Promise<AsyncIterable<ChatCompletionChunk>> => {
        this.requests.push(structuredClone(request));
        this.events.push(`create ${this.requests.length}`);
        const reply = this.replies.shift() ?? { deltas: ['ok'] };
        if (reply.createError !== undefined) throw reply.createError;
        return this.stream(reply);
      },
    },
  };

  private async *stream(reply: FakeReply): AsyncGenerator<ChatCompletionChunk> {
    if (reply.lockGate) await reply.lockGate;
    this.interrupted = false;
    let sent = 0;
    let finish: 'stop' | 'length' | 'abort' = reply.finish ?? 'stop';
    for (const delta of reply.deltas) {
      if (reply.holdAt === sent && reply.gate) await reply.gate;
      await tick();
      if (reply.failAfter === sent && reply.streamError !== undefined) throw reply.streamError;
      if (this.interrupted) {
        finish = 'abort';
        break;
      }
      sent++;
      yield chunk([{ index: 0, delta: { content: delta, role: 'assistant' }, finish_reason: null, logprobs: null }]);
    }
    yield chunk([{ index: 0, delta: {}, finish_reason: finish, logprobs: null }]);
    const usage = reply.usage ?? { prompt_tokens: 11, completion_tokens: sent };
    yield chunk([], { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens, extra: {} as never });
    this.events.push(`done ${this.requests.length} ${finish}`);
  }

  interruptGenerate(): void {
    this.interrupts++;
    this.interrupted = true;
  }
  reload(modelId: string): Promise<void> {
    this.reloads.push(modelId);
    return this.reloadResult();
  }
  async unload(): Promise<void> {
    this.unloads++;
  }
  setAppConfig(config: AppConfig): void {
    this.appConfig = config;
  }
  setInitProgressCallback(callback: InitProgressCallback): void {
    this.progress = callback;
  }
  async getMaxStorageBufferBindingSize(): Promise<number> {
    return 2 ** 30;
  }
  async getGPUVendor(): Promise<string> {
    return 'fake';
  }
}

/** A fake worker: the test posts messages as if from the worker and raises errors. */
export class FakeWorker implements WorkerLike {
  readonly sent: unknown[] = [];
  terminated = false;
  private readonly listeners: Record<string, Array<(event: MessageEvent | ErrorEvent) => void>> = {
    message: [],
    error: [],
  };

  postMessage(message: unknown): void {
    this.sent.push(message);
  }
  addEventListener(type: 'message' | 'error', listener: (event: MessageEvent | ErrorEvent) => void): void {
    this.listeners[type]!.push(listener);
  }
  terminate(): void {
    this.terminated = true;
  }
  /** Delivers `data` as a message from the worker. */
  emit(data: unknown): void {
    for (const listener of this.listeners.message!) listener({ data } as MessageEvent);
  }
  /** Raises an error event (an uncaught error in the worker). */
  fail(message: string): void {
    for (const listener of this.listeners.error!) listener({ message } as ErrorEvent);
  }
}

/** Session deps whose workers say `spade:ready` at once and whose engines are `FakeEngine`s made by `makeEngine`. */
export function fakeSessionDeps(
  makeEngine: (index: number) => FakeEngine = () => new FakeEngine(),
  options: { ready?: boolean; startTimeoutMs?: number } = {},
) {
  const workers: FakeWorker[] = [];
  const engines: FakeEngine[] = [];
  const configs: MLCEngineConfig[] = [];
  const ports: EnginePort[] = [];
  return {
    workers,
    engines,
    configs,
    ports,
    deps: {
      createWorker: () => {
        const worker = new FakeWorker();
        workers.push(worker);
        if (options.ready !== false) queueMicrotask(() => worker.emit({ kind: 'spade:ready' }));
        return worker;
      },
      connectEngine: (port: EnginePort, config: MLCEngineConfig) => {
        const engine = makeEngine(engines.length);
        engines.push(engine);
        configs.push(config);
        ports.push(port);
        if (config.appConfig) engine.setAppConfig(config.appConfig);
        if (config.initProgressCallback) engine.setInitProgressCallback(config.initProgressCallback);
        return engine;
      },
      startTimeoutMs: options.startTimeoutMs ?? 1_000,
    },
  };
}
