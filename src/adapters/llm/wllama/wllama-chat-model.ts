import type { ChatCompletionChunk, ChatCompletionMessage } from '@wllama/wllama';
import {
  ChatModelError,
  type AbortSignalLike,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ChatResult,
  type FinishReason,
} from '../../../core/ports/chat-port.ts';
import { StreamAccumulator } from '../stream-accumulator.ts';
import { SerialQueue } from '../../serial-queue.ts';
import { wllamaModelId } from '../model-id.ts';
import { estimatePromptTokens } from '../token-estimate.ts';
import { countWithEngine, type TemplateParams } from './wllama-token-count.ts';
import type { WllamaChatEngine } from './wllama-engine.ts';
import { errorMessage } from '../../../core/error-message.ts';

/** Speed of one finished call, as the engine measured it. */
export interface GenerationSpeed {
  promptTokens: number;
  /** Prompt tokens read per second (cached prefix excluded); null when the engine reported no finite rate (nothing read, no time measured). */
  promptTokensPerSecond: number | null;
  completionTokens: number;
  /** Reply tokens generated per second; null when the engine reported no finite rate. */
  completionTokensPerSecond: number | null;
}

// A rate the engine reported: llama.cpp divides by the time taken, which can be 0, and writes NaN as null.
const finiteRate = (rate: unknown): number | null => (typeof rate === 'number' && Number.isFinite(rate) ? rate : null);

/** Options of {@link WllamaChatModel}. */
export interface WllamaChatModelOptions {
  /** Shown in `id` as `wllama:<modelName>`, e.g. the GGUF file name. */
  modelName: string;
  /** Context the model was loaded with, in tokens (for error messages). */
  contextTokens?: number;
  /** The thinking switch of calls whose request leaves `thinking` unset (unset here too: the model's default). */
  enableThinking?: boolean;
  /** Receives the engine's timings after every call that produced any. */
  onSpeed?: (speed: GenerationSpeed) => void;
}

const CONTEXT_OVERFLOW = /exceeds? the available context size|context size|kv cache|context shift/i;

/** The message as wllama takes it (a `tool` message needs a call id the core never has). */
export function toWllamaMessage(message: ChatMessage): ChatCompletionMessage {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: '' };
  return { role: message.role, content: message.content };
}

/** The sampling field that constrains a reply to the request's GBNF grammar (llama.cpp's `grammar`), when it has one. */
export function wllamaGrammar(request: Pick<ChatRequest, 'grammar'>): { grammar?: string } {
  return request.grammar ? { grammar: request.grammar.gbnf } : {};
}

interface Progress {
  stream: StreamAccumulator;
  last: ChatCompletionChunk | null;
}

/**
 * A `ChatModel` over a loaded wllama engine (llama.cpp compiled to wasm, on the CPU). Formats
 * chats with the model's own chat template, streams tokens to `onToken`, passes seed and sampling
 * per call, the thinking switch as the template's `enable_thinking` (a Qwen3 GGUF's template reads
 * it, others ignore it), a request's grammar, and reports the engine's token counts. An abort resolves with the text so far and
 * finishReason 'abort'; the engine stays usable. A prompt longer than the loaded context fails
 * with `context_length`. Calls run one at a time.
 */
export class WllamaChatModel implements ChatModel {
  readonly id: string;
  /** One call at a time: the engine keeps the previous conversation's KV cache for the next turn. */
  readonly maxConcurrency = 1;
  /** llama.cpp samples under a request's GBNF grammar. */
  readonly grammars = true;
  private readonly queue = new SerialQueue();

  constructor(
    private readonly engine: WllamaChatEngine,
    private readonly options: WllamaChatModelOptions,
  ) {
    this.id = wllamaModelId(options.modelName);
  }

  complete(request: ChatRequest): Promise<ChatResult> {
    return this.queue.run(() => this.completeNow(request));
  }

  /** The context the model was loaded with (the engine's `n_ctx`), or null when not given. */
  contextWindow(): Promise<number | null> {
    return Promise.resolve(this.options.contextTokens ?? null);
  }

  /** Prompt tokens of `request` as the engine renders it with the model's chat template and tokenizes it (docs/method.md, "How each backend learns its window"). */
  countPromptTokens(
    request: Pick<ChatRequest, 'messages' | 'tools' | 'thinking'>,
    signal?: AbortSignalLike,
  ): Promise<number> {
    const context = {
      window: this.options.contextTokens ?? null,
      estimate: estimatePromptTokens(request.messages),
      signal,
      failure: (error: unknown) => this.failure(error),
    };
    return this.queue.run(() => countWithEngine(this.engine, this.templateParams(request), context));
  }

  /** What the chat template renders: the messages and the template switches, the same for `complete` and `countPromptTokens`. */
  private templateParams(request: Pick<ChatRequest, 'messages' | 'tools' | 'thinking'>): TemplateParams {
    const thinking = request.thinking ?? this.options.enableThinking;
    return {
      messages: request.messages.map(toWllamaMessage),
      ...(thinking !== undefined ? { chat_template_kwargs: { enable_thinking: thinking } } : {}),
    };
  }

  private async completeNow(request: ChatRequest): Promise<ChatResult> {
    const progress: Progress = { stream: new StreamAccumulator(request), last: null };
    if (request.signal?.aborted) return this.result(progress, 'abort');
    const controller = new AbortController();
    const onAbort = (): void => controller.abort();
    request.signal?.addEventListener('abort', onAbort);
    try {
      await this.engine.createChatCompletion({
        ...this.templateParams(request),
        temperature: request.temperature,
        top_p: request.topP,
        max_tokens: request.maxTokens,
        seed: request.seed,
        abortSignal: controller.signal,
        ...wllamaGrammar(request),
        stream: true,
        onData: (chunk) => this.take(chunk, request, progress),
      });
      this.reportSpeed(progress.last);
      return this.result(progress);
    } catch (error) {
      if (controller.signal.aborted) return this.result(progress, 'abort');
      throw this.failure(error);
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  private take(chunk: ChatCompletionChunk, request: ChatRequest, progress: Progress): void {
    if (request.signal?.aborted) return;
    progress.last = chunk;
    const choice = chunk.choices[0];
    if (!choice) return;
    progress.stream.add(choice.delta.content);
    progress.stream.noteFinish(choice.finish_reason);
  }

  private reportSpeed(last: ChatCompletionChunk | null): void {
    const timings = last?.timings;
    if (!timings || !this.options.onSpeed) return;
    this.options.onSpeed({
      promptTokens: timings.prompt_n + timings.cache_n,
      promptTokensPerSecond: finiteRate(timings.prompt_per_second),
      completionTokens: timings.predicted_n,
      completionTokensPerSecond: finiteRate(timings.predicted_per_second),
    });
  }

  /** Usage as the engine reported it (its usage, else its timings), estimated where it reported neither. */
  private result(progress: Progress, finishReason: FinishReason = progress.stream.finish): ChatResult {
    const usage = progress.last?.usage;
    const timings = progress.last?.timings;
    return progress.stream.result(
      {
        promptTokens: usage?.prompt_tokens ?? (timings ? timings.prompt_n + timings.cache_n : undefined),
        completionTokens: usage?.completion_tokens ?? timings?.predicted_n,
      },
      finishReason,
    );
  }

  /** The failure `error` means, as a `ChatModelError`. */
  private failure(error: unknown): ChatModelError {
    const text = errorMessage(error);
    const type = (error as { type?: unknown } | null)?.type;
    if (type === 'kv_cache_full' || CONTEXT_OVERFLOW.test(text)) {
      const loaded = this.options.contextTokens ? ` of ${this.options.contextTokens} tokens` : '';
      return new ChatModelError(
        'context_length',
        `the prompt and reply do not fit in the context${loaded} that ${this.id} was loaded with (${text}). Shorten the messages, lower maxTokens, or reload the model with a larger context.`,
      );
    }
    if (type === 'model_not_loaded' || (error as Error | null)?.name === 'RuntimeError') {
      return new ChatModelError(
        'unreachable',
        `the CPU engine of ${this.id} stopped (${text}). Reload the model; if it happens again, choose a smaller model or a smaller context.`,
      );
    }
    return new ChatModelError(
      'bad_response',
      `the CPU engine failed on ${this.id}: ${text.slice(0, 500)}. Check the messages (a system message first, the last from the user) and try again.`,
    );
  }
}
