import type { ChatCompletionChunk, ChatCompletionParams } from '@wllama/wllama';
import { ChatModelError, type AbortSignalLike } from '../../../core/ports/chat-port.ts';
import type { WllamaChatEngine } from './wllama-engine.ts';

/** The part of a chat call the chat template renders: the messages and the template's switches. */
export type TemplateParams = Pick<ChatCompletionParams, 'messages' | 'chat_template_kwargs'>;

/** What a count needs besides the chat. */
export interface CountContext {
  /** The loaded window in tokens, or null when unknown. */
  window: number | null;
  /** The rough estimate of the prompt (characters / 4), used only for a prompt longer than the window. */
  estimate: number;
  signal?: AbortSignalLike | undefined;
  /** Turns an engine error into the chat model's error. */
  failure: (error: unknown) => ChatModelError;
}

/** How a count call ends: with the engine's total, or with its error. */
interface Counted {
  total: number | null;
  error: unknown;
}

/**
 * Prompt tokens of a chat as the engine renders it with the model's chat template and tokenizes
 * it. wllama 3 has no tokenize call, so this starts a one-token completion asking for prompt
 * progress (llama.cpp's `return_progress`): the first progress report carries the prompt's total,
 * and the call is aborted there. The prefix the engine already read stays in its prompt cache, so
 * the real call that follows does not read it twice. A prompt reported without progress (all of it
 * cached) is counted from the finished call's usage. A prompt longer than the loaded window, which
 * the engine refuses to read, counts as the larger of `window + 1` and the rough estimate, a lower
 * bound that tells the caller to trim.
 */
export async function countWithEngine(
  engine: WllamaChatEngine,
  params: TemplateParams,
  { window, estimate, signal, failure }: CountContext,
): Promise<number> {
  if (signal?.aborted) throw aborted();
  const controller = new AbortController();
  const onAbort = (): void => controller.abort();
  signal?.addEventListener('abort', onAbort);
  const counted: Counted = { total: null, error: null };
  let last: ChatCompletionChunk | null = null;
  try {
    await engine.createChatCompletion({
      ...params,
      max_tokens: 1,
      temperature: 0,
      return_progress: true,
      abortSignal: controller.signal,
      stream: true,
      onData: (chunk) => {
        last = chunk;
        const total = chunk.prompt_progress?.total;
        if (counted.total === null && typeof total === 'number' && total > 0) {
          counted.total = total;
          controller.abort();
        }
      },
    });
  } catch (error) {
    counted.error = error;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw aborted();
  if (counted.total !== null) return counted.total;
  if (counted.error !== null) {
    const refused = failure(counted.error);
    if (refused.code === 'context_length' && window !== null) return Math.max(window + 1, estimate);
    throw refused;
  }
  const finished = last as ChatCompletionChunk | null;
  const reported =
    finished?.usage?.prompt_tokens ?? (finished?.timings ? finished.timings.prompt_n + finished.timings.cache_n : null);
  if (typeof reported === 'number' && reported > 0) return reported;
  throw new ChatModelError(
    'bad_response',
    'the CPU engine reported no prompt token count for the chat. Reload the model and try again.',
  );
}

function aborted(): ChatModelError {
  return new ChatModelError('aborted', 'counting the prompt tokens was aborted.');
}
