import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionRequestStreaming,
  CompletionUsage,
} from '@mlc-ai/web-llm';
import {
  ChatModelError,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
  type ChatResult,
  type FinishReason,
} from '../../../core/ports/chat-port.ts';
import { StreamAccumulator } from '../stream-accumulator.ts';
import { isEngineLoss, type EngineLease, type WebLlmEngineSource } from './webllm-engine.ts';
import { errorText, ModelLoadError } from './webllm-errors.ts';
import { SerialQueue } from '../../serial-queue.ts';
import { webllmModelId } from '../model-id.ts';

/** Options of {@link WebLlmChatModel}. */
export interface WebLlmChatModelOptions {
  /** Qwen3 family only: the thinking switch of calls whose request leaves `thinking` unset (unset here too: the model's default). */
  enableThinking?: boolean;
  /** Retries of one call after the engine was lost and recovered; default 2. */
  maxRecoveries?: number;
}

/** The message exactly as web-llm takes it (web-llm ignores `tool_call_id`, which its type requires). */
export function toWebLlmMessage(message: ChatMessage): ChatCompletionMessageParam {
  if (message.role === 'tool') return { role: 'tool', content: message.content, tool_call_id: '' };
  return { role: message.role, content: message.content };
}

/** Whether a web-llm model takes the thinking switch: the Qwen3 family (`Qwen3-`, `Qwen3.5-`); any other model would get an empty `<think>` block prefilled into its reply. */
export function takesThinkingSwitch(modelId: string): boolean {
  return /^qwen3/i.test(modelId);
}

/**
 * The streaming request one `complete` call sends; messages pass through unchanged so web-llm can
 * reuse its KV cache across turns. The thinking switch (the request's, else the option's) goes
 * to a Qwen3-family model as `extra_body.enable_thinking`: false prefills an empty thought, true
 * leaves the model to think as it does by default.
 */
export function toWebLlmRequest(
  request: ChatRequest,
  options: WebLlmChatModelOptions,
  modelId: string,
): ChatCompletionRequestStreaming {
  const thinking = request.thinking ?? options.enableThinking;
  return {
    messages: request.messages.map(toWebLlmMessage),
    stream: true,
    stream_options: { include_usage: true },
    temperature: request.temperature,
    top_p: request.topP,
    max_tokens: request.maxTokens,
    seed: request.seed,
    ...(thinking !== undefined && takesThinkingSwitch(modelId) ? { extra_body: { enable_thinking: thinking } } : {}),
    ...webLlmGrammar(request),
  };
}

/** The response format that constrains a reply to the request's grammar (web-llm's xgrammar reads GBNF), when it has one. */
export function webLlmGrammar(
  request: Pick<ChatRequest, 'grammar'>,
): Pick<ChatCompletionRequestStreaming, 'response_format'> {
  return request.grammar ? { response_format: { type: 'grammar', grammar: request.grammar.gbnf } } : {};
}

class EngineLost extends Error {
  constructor(readonly reason: Error) {
    super(reason.message);
  }
}

interface Progress {
  stream: StreamAccumulator;
  usage: CompletionUsage | null;
}

/**
 * A `ChatModel` over web-llm's engine (in its worker): one loaded model serves every purpose.
 * Streams tokens to `onToken`, passes seed and sampling per call, reports web-llm's usage
 * (its `prompt_tokens` counts only the prompt tokens it had to prefill, so a reused KV-cache
 * prefix is not counted). An abort interrupts the generation and resolves at once with the text
 * so far and finishReason 'abort'; the engine stays usable. Calls run one at a time. When the
 * engine is lost mid-call (GPU device lost), the call waits for the session to reload the model
 * and starts over; a stream view should then drop the partial reply.
 */
export class WebLlmChatModel implements ChatModel {
  readonly id: string;
  /** One call at a time: the engine keeps the previous conversation's KV cache for the next turn. */
  readonly maxConcurrency = 1;
  /** web-llm samples under a request's grammar (`response_format` of type `grammar`). */
  readonly grammars = true;
  private readonly queue = new SerialQueue();
  private draining: Promise<void> = Promise.resolve();

  constructor(
    private readonly source: WebLlmEngineSource,
    private readonly options: WebLlmChatModelOptions = {},
  ) {
    if (!source.modelId)
      throw new ChatModelError(
        'unreachable',
        'No model is loaded: load one in "Model setup" before creating the chat model.',
      );
    this.id = webllmModelId(source.modelId);
  }

  complete(request: ChatRequest): Promise<ChatResult> {
    return this.queue.run(() => this.completeNow(request));
  }

  /** The window the model was loaded with (docs/method.md, "How each backend learns its window"); null when only its own config knows. web-llm 0.2.86 offers no tokenizer outside its engine, so `countPromptTokens` is left to the core's estimate. */
  contextWindow(): Promise<number | null> {
    return Promise.resolve(this.source.contextWindowSize ?? null);
  }

  private async completeNow(request: ChatRequest): Promise<ChatResult> {
    const maxRecoveries = this.options.maxRecoveries ?? 2;
    for (let attempt = 0; ; attempt++) {
      const aborted = this.result({ stream: new StreamAccumulator(request), usage: null }, 'abort');
      if (request.signal?.aborted) return aborted;
      await this.draining;
      let lease: EngineLease;
      try {
        lease = await this.source.lease();
      } catch (error) {
        const next = error instanceof ModelLoadError ? ` ${error.nextStep}` : '';
        throw new ChatModelError(
          'unreachable',
          `the local model ${this.id} is not available: ${errorText(error).replace(/^ModelLoadError: /, '')}.${next}`,
        );
      }
      if (request.signal?.aborted) return aborted;
      try {
        return await this.stream(lease, request);
      } catch (error) {
        const lost =
          error instanceof EngineLost
            ? error.reason
            : isEngineLoss(errorText(error))
              ? new Error(errorText(error))
              : null;
        if (!lost) throw this.failure(error);
        this.source.reportLost(lease, lost);
        if (attempt >= maxRecoveries)
          throw new ChatModelError(
            'unreachable',
            `the local model ${this.id} was lost ${attempt + 1} times during one call (${lost.message}). Reload the page, or choose a smaller model.`,
          );
      }
    }
  }

  private async stream(lease: EngineLease, request: ChatRequest): Promise<ChatResult> {
    const { engine } = lease;
    const lost = lease.lost.then((reason) => Promise.reject(new EngineLost(reason)));
    let onAbort = (): void => {};
    const abort = new Promise<'abort'>((resolve) => {
      onAbort = () => resolve('abort');
      request.signal?.addEventListener('abort', onAbort);
    });
    const progress: Progress = { stream: new StreamAccumulator(request), usage: null };
    try {
      const chunks = await Promise.race([
        engine.chat.completions.create(toWebLlmRequest(request, this.options, this.source.modelId ?? '')),
        lost,
        abort,
      ]);
      if (chunks === 'abort' || request.signal?.aborted) return this.result(progress, 'abort');
      const iterator = chunks[Symbol.asyncIterator]();
      for (;;) {
        const pending = iterator.next();
        const next = await Promise.race([pending, lost, abort]);
        if (next === 'abort') {
          engine.interruptGenerate();
          this.draining = this.drain(lease, pending, iterator);
          return this.result(progress, 'abort');
        }
        if (next.done) break;
        this.take(next.value, progress);
      }
      return this.result(progress);
    } finally {
      request.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Reads an interrupted stream to its end (web-llm holds its model lock until then), repeating the interrupt in case it came before the generation began. */
  private async drain(
    lease: EngineLease,
    pending: Promise<IteratorResult<ChatCompletionChunk>>,
    iterator: AsyncIterator<ChatCompletionChunk>,
  ): Promise<void> {
    const gone = lease.lost.then(() => ({ done: true as const, value: undefined }));
    try {
      for (
        let next = await Promise.race([pending, gone]);
        !next.done;
        next = await Promise.race([iterator.next(), gone])
      ) {
        if (next.value.choices[0]?.finish_reason === null) lease.engine.interruptGenerate();
      }
    } catch {
      // The call already resolved as aborted; a failure while draining leaves the engine as it was.
    }
  }

  private take(chunk: ChatCompletionChunk, progress: Progress): void {
    if (chunk.usage) progress.usage = chunk.usage;
    const choice = chunk.choices[0];
    if (!choice) return;
    progress.stream.add(choice.delta.content);
    progress.stream.noteFinish(choice.finish_reason);
    if (choice.finish_reason === 'abort') progress.stream.finish = 'abort';
  }

  private result(progress: Progress, finishReason: FinishReason = progress.stream.finish): ChatResult {
    return progress.stream.result(
      { promptTokens: progress.usage?.prompt_tokens, completionTokens: progress.usage?.completion_tokens },
      finishReason,
    );
  }

  private failure(error: unknown): ChatModelError {
    const text = errorText(error);
    if (/ContextWindowSizeExceeded|exceed context window/i.test(text)) {
      const window = this.source.contextWindowSize;
      const size = window ? `${window}-token ` : '';
      return new ChatModelError(
        'context_length',
        `the prompt is longer than ${this.id}'s ${size}context window (${text.slice(0, 300)}). Shorten the messages or lower maxTokens, or load the model with a larger window under "Context window" in the Model view.`,
      );
    }
    return new ChatModelError(
      'bad_response',
      `web-llm failed on ${this.id}: ${text.slice(0, 500)}. Check the messages (one system message first, the last from the user) and try again.`,
    );
  }
}
