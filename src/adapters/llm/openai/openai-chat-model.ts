import {
  ChatModelError,
  type AbortSignalLike,
  type ChatModel,
  type ChatRequest,
  type ChatResult,
} from '../../../core/ports/chat-port.ts';
import { OpenAIContext, type FetchLike } from './openai-context.ts';
import { StreamAccumulator, type ReportedUsage } from '../stream-accumulator.ts';
import {
  connectionFailure,
  failure as fail,
  httpFailure,
  isObject,
  parseJson,
  replyFailure,
  retryDelayOf,
  snippet,
  type Json,
} from './openai-errors.ts';
import { SseDecoder } from './sse-lines.ts';
import { openAiMessages, ToolCallCollector, withoutListedTools } from './openai-tools.ts';
import { grammarFields, type GrammarServer } from './openai-grammar.ts';

/** Options of {@link OpenAIChatModel}. */
export interface OpenAIChatModelOptions {
  /** Server root with or without a trailing `/v1`, e.g. `http://127.0.0.1:8080` or `http://127.0.0.1:11434/v1`. */
  baseUrl: string;
  /** Sent as `model`. */
  model: string;
  /** Sent as `Authorization: Bearer <apiKey>` when set. */
  apiKey?: string;
  /** Longest silence (no bytes at all, headers included) before failing with `timeout`; default 120000. */
  requestTimeoutMs?: number;
  /** Cap on one whole `complete` call, retries and backoff included; default 5 × requestTimeoutMs. */
  totalTimeoutMs?: number;
  /** Retries after a connection failure, HTTP 429 or 5xx, only while no token has streamed; default 2. */
  maxRetries?: number;
  /** First backoff delay, doubled per retry (a larger `Retry-After`, up to 60 s, wins); default 500. */
  retryDelayMs?: number;
  /** Requests it lets run at once; default unbounded, so the run's `concurrency` setting decides (servers such as vLLM, SGLang, llama.cpp with parallel slots and Ollama serve many). */
  maxConcurrency?: number;
  /** Defaults to `globalThis.fetch`. */
  fetch?: FetchLike;
  /** The server's context window in tokens, as the user knows it; when set it is used as is, else the server is asked (vLLM `/v1/models`, llama.cpp `/props`). */
  contextWindow?: number;
  /** How long each probe of the optional context endpoints may take before it counts as absent; default 5000. */
  probeTimeoutMs?: number;
  /** The server family, which says how it takes a request's grammar; unset: the model does not constrain replies (`grammars` false). */
  grammarServer?: GrammarServer;
}

type Stop = 'abort' | 'silence' | 'total';
interface Progress {
  stream: StreamAccumulator;
  sawChoice: boolean;
  usage: ReportedUsage;
  calls: ToolCallCollector;
}

function sleep(ms: number, signal: AbortSignalLike | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done);
  });
}

/** A `ChatModel` over any OpenAI-compatible `/v1/chat/completions` server (llama.cpp, Ollama, vLLM, SGLang, LM Studio); reports its context window and counts prompts where the server says how (openai-context.ts); streams by SSE, accepts a plain JSON answer too, sends a tool-use request's `tools` and returns the calls it makes as `<tool_call>` text, sends a request's grammar the way its `grammarServer` family takes it (openai-grammar.ts), sends the thinking switch as `chat_template_kwargs.enable_thinking` (vLLM, SGLang and llama.cpp pass it to the chat template; a server or template that ignores it answers as before), estimates missing usage as ⌈characters / 4⌉ (+4 per prompt message); an abort never rejects: it resolves with the text streamed so far and finishReason 'abort'. */
export class OpenAIChatModel implements ChatModel {
  readonly id: string;
  readonly maxConcurrency: number;
  /** True when a server family is named (`grammarServer`): requests then carry their grammar in that family's field. */
  readonly grammars: boolean;
  /** The endpoint every request is posted to. */
  readonly url: string;
  private readonly silenceMs: number;
  private readonly totalMs: number;
  private readonly maxRetries: number;
  private readonly retryDelayMs: number;
  private readonly fetchFn: FetchLike;
  private readonly headers: Record<string, string>;
  private readonly context: OpenAIContext;

  constructor(private readonly options: OpenAIChatModelOptions) {
    const base = options.baseUrl.replace(/\/+$/, '');
    if (!/^https?:\/\/[^/]/i.test(base))
      throw new ChatModelError(
        'unreachable',
        `baseUrl ${JSON.stringify(options.baseUrl)} is not an http(s) URL; use e.g. http://127.0.0.1:8080`,
      );
    this.id = `openai:${base}#${options.model}`;
    this.url = `${base.endsWith('/v1') ? base : `${base}/v1`}/chat/completions`;
    this.maxConcurrency = options.maxConcurrency ?? Number.POSITIVE_INFINITY;
    this.grammars = options.grammarServer !== undefined;
    this.silenceMs = options.requestTimeoutMs ?? 120_000;
    this.totalMs = options.totalTimeoutMs ?? this.silenceMs * 5;
    this.maxRetries = options.maxRetries ?? 2;
    this.retryDelayMs = options.retryDelayMs ?? 500;
    this.fetchFn = options.fetch ?? ((url, init) => globalThis.fetch(url, init));
    this.headers = {
      'Content-Type': 'application/json',
      ...(options.apiKey ? { Authorization: `Bearer ${options.apiKey}` } : {}),
    };
    this.context = new OpenAIContext(
      base.replace(/\/v1$/, ''),
      options.model,
      this.headers,
      this.fetchFn,
      options.probeTimeoutMs,
    );
  }

  /** The window the user set, else the one the server reports (null when it says nothing). */
  contextWindow(signal?: AbortSignalLike): Promise<number | null> {
    return this.options.contextWindow !== undefined
      ? Promise.resolve(this.options.contextWindow)
      : this.context.window(signal);
  }

  /** The prompt tokens the server's own tokenizer counts (vLLM `/tokenize`, llama.cpp `/apply-template` + `/tokenize`); rejects when it offers neither. */
  countPromptTokens(request: Pick<ChatRequest, 'messages' | 'tools'>, signal?: AbortSignalLike): Promise<number> {
    return this.context.count(request, signal);
  }

  async complete(request: ChatRequest): Promise<ChatResult> {
    const deadline = Date.now() + this.totalMs;
    for (let attempt = 0; ; attempt++) {
      const progress: Progress = {
        stream: new StreamAccumulator(request),
        sawChoice: false,
        usage: {},
        calls: new ToolCallCollector(),
      };
      if (request.signal?.aborted) return this.result(progress, 'abort');
      try {
        return await this.attempt(request, progress, deadline);
      } catch (error) {
        if (error instanceof ChatModelError && error.code === 'aborted') return this.result(progress, 'abort');
        const hint = retryDelayOf(error);
        if (hint === undefined || progress.stream.pieces > 0 || attempt >= this.maxRetries) throw error;
        const delay = Math.max(Math.min(hint, 60_000), this.retryDelayMs * 2 ** attempt);
        if (Date.now() + delay >= deadline) throw error;
        await sleep(delay, request.signal);
      }
    }
  }

  private async attempt(request: ChatRequest, progress: Progress, deadline: number): Promise<ChatResult> {
    const controller = new AbortController();
    let stop: Stop | undefined;
    const halt = (why: Stop): void => {
      stop ??= why;
      controller.abort();
    };
    const onAbort = (): void => halt('abort');
    let silence: ReturnType<typeof setTimeout> | undefined;
    const heard = (): void => {
      clearTimeout(silence);
      silence = setTimeout(() => halt('silence'), this.silenceMs);
    };
    const total = setTimeout(() => halt('total'), Math.max(0, deadline - Date.now()));
    const guard = async <T>(pending: Promise<T>, phase: 'connect' | 'read'): Promise<T> => {
      try {
        const value = await pending;
        heard();
        return value;
      } catch (error) {
        throw stop ? this.stopped(stop) : connectionFailure(this.url, error, phase);
      }
    };
    request.signal?.addEventListener('abort', onAbort);
    heard();
    try {
      const body = JSON.stringify(this.body(request));
      const response = await guard(
        Promise.resolve().then(() =>
          this.fetchFn(this.url, { method: 'POST', headers: this.headers, body, signal: controller.signal }),
        ),
        'connect',
      );
      if (!response.ok) throw httpFailure(this.url, this.options.model, response, await guard(response.text(), 'read'));
      await this.read(response, progress, guard);
      const calls = progress.calls.text();
      if (calls !== '') progress.stream.add(progress.stream.text.trim() === '' ? calls : `\n${calls}`);
      return this.result(progress);
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
      clearTimeout(silence);
      clearTimeout(total);
      controller.abort();
    }
  }

  private body(request: ChatRequest): Json {
    const constrained = this.constraint(request);
    return {
      model: this.options.model,
      messages: openAiMessages(
        request.tools && !constrained ? withoutListedTools(request.messages, request.tools) : request.messages,
        request.tools !== undefined,
      ),
      ...(request.tools && !constrained ? { tools: request.tools as unknown as Json[] } : {}),
      ...constrained,
      stream: true,
      stream_options: { include_usage: true },
      temperature: request.temperature,
      top_p: request.topP,
      max_tokens: request.maxTokens,
      seed: request.seed,
      ...(request.thinking !== undefined ? { chat_template_kwargs: { enable_thinking: request.thinking } } : {}),
    };
  }

  /** The grammar's fields for the named server family, or null; a constrained request leaves out `tools` (the prompt lists them; llama.cpp's server refuses a grammar beside tools). */
  private constraint(request: ChatRequest): Json | null {
    const server = this.options.grammarServer;
    return request.grammar && server ? grammarFields(request.grammar, server) : null;
  }

  private async read(
    response: Response,
    progress: Progress,
    guard: <T>(p: Promise<T>, phase: 'connect' | 'read') => Promise<T>,
  ): Promise<void> {
    const decoder = new SseDecoder();
    let done = false;
    const take = (payloads: string[]): void => {
      for (const payload of payloads) if (!done && payload.trim()) done = this.event(payload, progress);
    };
    const reader = response.body?.getReader();
    if (!reader) take(decoder.push(await guard(response.text(), 'read')));
    while (reader && !done) {
      const chunk = await guard(reader.read(), 'read');
      if (chunk.done) break;
      take(decoder.push(chunk.value));
    }
    if (!done) take(decoder.end());
    if (progress.sawChoice) return;
    const whole = decoder.body;
    if (whole === null)
      throw fail(
        'bad_response',
        `the event stream from ${this.url} ended without a choice. Is this an OpenAI-compatible chat server?`,
      );
    const json = parseJson(whole);
    if (!isObject(json))
      throw fail(
        'bad_response',
        `${this.url} answered neither Server-Sent Events nor JSON: ${snippet(whole)}. Check baseUrl: it must point at an OpenAI-compatible server.`,
      );
    this.apply(json, 'message', progress);
    if (!progress.sawChoice)
      throw fail(
        'bad_response',
        `the reply from ${this.url} has no choices: ${snippet(whole)}. Is this an OpenAI-compatible chat server?`,
      );
  }

  private event(payload: string, progress: Progress): boolean {
    if (payload.trim() === '[DONE]') return true;
    const chunk = parseJson(payload);
    if (!isObject(chunk))
      throw fail(
        'bad_response',
        `${this.url} sent a stream event that is not a JSON object: ${snippet(payload)}. Is this an OpenAI-compatible chat server?`,
      );
    this.apply(chunk, 'delta', progress);
    return false;
  }

  private apply(chunk: Json, key: 'delta' | 'message', progress: Progress): void {
    if (chunk.error !== undefined) throw replyFailure(this.url, chunk);
    const usage = chunk.usage;
    if (isObject(usage)) {
      if (typeof usage.prompt_tokens === 'number' && usage.prompt_tokens > 0)
        progress.usage.promptTokens = usage.prompt_tokens;
      if (typeof usage.completion_tokens === 'number' && usage.completion_tokens > 0)
        progress.usage.completionTokens = usage.completion_tokens;
    }
    if (chunk.choices === undefined && usage !== undefined) return;
    if (!Array.isArray(chunk.choices))
      throw fail(
        'bad_response',
        `a reply from ${this.url} lacks "choices": ${snippet(JSON.stringify(chunk))}. Is this an OpenAI-compatible chat server?`,
      );
    const choice: unknown = chunk.choices[0];
    if (!isObject(choice)) return;
    progress.sawChoice = true;
    const part = choice[key];
    const content = isObject(part) ? part.content : undefined;
    if (typeof content === 'string') progress.stream.add(content);
    if (isObject(part)) progress.calls.take(part.tool_calls);
    progress.stream.noteFinish(choice.finish_reason);
  }

  private result(progress: Progress, finishReason = progress.stream.finish): ChatResult {
    return progress.stream.result(progress.usage, finishReason);
  }

  private stopped(stop: Stop): ChatModelError {
    if (stop === 'abort') return fail('aborted', `the call to ${this.url} was aborted`);
    if (stop === 'silence')
      return fail(
        'timeout',
        `no bytes from ${this.url} for ${this.silenceMs} ms (requestTimeoutMs): the server may be stuck or still loading the model. Check its log or raise requestTimeoutMs.`,
      );
    return fail(
      'timeout',
      `the call to ${this.url} took longer than ${this.totalMs} ms (totalTimeoutMs): lower maxTokens or raise totalTimeoutMs.`,
    );
  }
}
