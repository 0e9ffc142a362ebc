// Fakes of the wllama engine for Node tests. The streaming fake follows wllama's own loop: it
// checks the abort signal before fetching each chunk and then throws an AbortError, and it
// reports timings on the last chunk, as wllama 3.x does.
import type { ChatCompletionChunk, ChatCompletionParams, LoadModelParams, StreamParams } from '@wllama/wllama';
import type { WllamaLike } from '../../../../src/adapters/llm/wllama/wllama-engine.ts';

/** One scripted reply: the pieces, how it ends, or the error it throws after the pieces. */
export interface FakeWllamaReply {
  deltas: string[];
  finish?: 'stop' | 'length';
  error?: Error;
  /** Awaited before each piece (lets a test act mid-stream). */
  beforePiece?: (index: number) => Promise<void> | void;
  /** Prompt tokens reported in a progress chunk before the pieces, when the call asks for progress (llama.cpp's `return_progress`). */
  progressTotal?: number;
  /** Timings that replace the usual ones in the last chunk (e.g. the null llama.cpp writes for a rate it divided by 0 to get). */
  timings?: Record<string, number | null>;
}

/** An error shaped like wllama's `WllamaError`. */
export function wllamaError(message: string, type: string): Error {
  return Object.assign(new Error(message), { type });
}

const chunk = (
  content: string | null,
  finish: 'stop' | 'length' | null,
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk => ({
  id: '',
  object: 'chat.completion.chunk',
  created: 0,
  model: '',
  choices: [{ index: 0, delta: content === null ? {} : { content }, finish_reason: finish, logprobs: null }],
  ...extra,
});

/** A fake loaded wllama engine. */
export class FakeWllama implements WllamaLike {
  readonly requests: Array<Omit<ChatCompletionParams, 'abortSignal'> & { aborted: boolean }> = [];
  loadParams: LoadModelParams | null = null;
  loadedBlobs: Blob[] = [];
  exited = 0;
  active = 0;
  maxActive = 0;
  /** Awaited by `loadModel` (lets a test cancel mid-load). */
  loadGate: Promise<void> = Promise.resolve();
  loadError: Error | null = null;

  constructor(private readonly replies: FakeWllamaReply[] = []) {}

  async loadModel(blobs: Blob[], params: LoadModelParams): Promise<void> {
    this.loadedBlobs = blobs;
    this.loadParams = params;
    await this.loadGate;
    if (this.loadError) throw this.loadError;
  }

  getLoadedContextInfo() {
    return { n_ctx: this.loadParams?.n_ctx ?? 0, n_ctx_train: 4096, metadata: { 'general.name': 'Fake model' } };
  }

  getChatTemplate(): string | null {
    return '{{ messages }}';
  }

  isMultithread(): boolean {
    return (this.loadParams?.n_threads ?? 1) > 1;
  }

  getNumThreads(): number {
    return this.loadParams?.n_threads ?? 1;
  }

  async exit(): Promise<void> {
    this.exited++;
  }

  async createChatCompletion(options: ChatCompletionParams & StreamParams<ChatCompletionChunk>): Promise<void> {
    const { abortSignal, onData, ...rest } = options;
    const record = { ...rest, aborted: false };
    this.requests.push(record);
    const reply = this.replies.shift() ?? { deltas: ['ok'] };
    this.active++;
    this.maxActive = Math.max(this.maxActive, this.active);
    try {
      if (reply.progressTotal !== undefined && options.return_progress) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        onData({
          ...chunk(null, null),
          choices: [],
          prompt_progress: { total: reply.progressTotal, cache: 0, processed: 8, time_ms: 3 },
        });
      }
      for (const [index, delta] of reply.deltas.entries()) {
        await reply.beforePiece?.(index);
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (abortSignal?.aborted) {
          record.aborted = true;
          throw Object.assign(new Error('Operation aborted'), { name: 'AbortError' });
        }
        onData(chunk(delta, null));
      }
      if (reply.error) throw reply.error;
      const timings = {
        cache_n: 2,
        prompt_n: 10,
        prompt_ms: 100,
        prompt_per_token_ms: 10,
        prompt_per_second: 100,
        predicted_n: reply.deltas.length,
        predicted_ms: 50,
        predicted_per_token_ms: 25,
        predicted_per_second: 40,
        ...reply.timings,
      };
      onData(chunk(null, reply.finish ?? 'stop', { timings: timings as ChatCompletionChunk['timings'] }));
    } finally {
      this.active--;
    }
  }
}
