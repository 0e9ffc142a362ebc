import {
  ChatModelError,
  type AbortSignalLike,
  type ChatMessage,
  type ChatModel,
  type ChatPurpose,
  type ChatRequest,
} from '../ports/chat-port.ts';
import { estimatePromptTokens } from './prompt-estimate.ts';
import { minimumReplyRoom } from './reply-room.ts';

/** A prompt rebuilt at a trim level: level 0 is the whole prompt, each next level trims more of its variable parts; null past the last level. */
export type PromptLadder = (level: number) => ChatMessage[] | null;

/** The ladder of a prompt with nothing variable to trim (the hint's and the judge's: instructions and code). */
export function fixedLadder(messages: ChatMessage[]): PromptLadder {
  return (level) => (level === 0 ? messages : null);
}

/** What fitting decided for one request whose model reports its context size. */
export interface RequestBudget {
  /** Prompt tokens as the model counts them (or the core's estimate when it cannot). */
  promptTokens: number;
  /** The model's context size in tokens (prompt plus reply). */
  window: number;
  /** `max_tokens` sent: the role's configured most, or what the context leaves after the prompt when that is less. */
  maxTokens: number;
  /** The trim level of the prompt sent (0: untrimmed). */
  trimLevel: number;
}

/** One request to fit: its role, the role's configured reply length and its prompt at every trim level. */
export interface FitInput {
  purpose: ChatPurpose;
  maxTokens: number;
  ladder: PromptLadder;
  tools?: ChatRequest['tools'];
  thinking?: boolean;
  signal?: AbortSignalLike;
}

/** The messages and reply length to send, and the budget behind them (null when the context size is unknown: nothing was measured or trimmed). */
export interface FittedRequest {
  messages: ChatMessage[];
  maxTokens: number;
  budget: RequestBudget | null;
}

/** A model that hears every request fitted for it (the epoch's model keeps per-role figures this way). */
export interface FitListener {
  onFitted?(purpose: ChatPurpose, budget: RequestBudget): void;
}

const contextSizes = new WeakMap<ChatModel, Promise<number | null>>();

/** The model's context size, asked once per model object (a failed or nonsensical answer counts as unknown: null). */
export function contextWindowOf(model: ChatModel): Promise<number | null> {
  if (!model.contextWindow) return Promise.resolve(null);
  let known = contextSizes.get(model);
  if (!known) {
    known = model.contextWindow().then(
      (n) => (typeof n === 'number' && Number.isInteger(n) && n > 0 ? n : null),
      () => null,
    );
    contextSizes.set(model, known);
  }
  return known;
}

async function countTokens(model: ChatModel, messages: ChatMessage[], input: FitInput): Promise<number> {
  const request = {
    messages,
    ...(input.tools ? { tools: input.tools } : {}),
    ...(input.thinking !== undefined ? { thinking: input.thinking } : {}),
  };
  if (!model.countPromptTokens) return estimatePromptTokens(request);
  try {
    return await model.countPromptTokens(request, input.signal);
  } catch {
    return estimatePromptTokens(request);
  }
}

/**
 * Fits one request to the model's context (docs/method.md, "Token budget"). With an unknown
 * context size the whole prompt goes with the configured `maxTokens`, unmeasured. Otherwise the
 * prompt is counted at trim level 0, 1, ... until it leaves the role's minimum reply room;
 * `maxTokens` becomes the configured most or what the context leaves, whichever is less. A request
 * that does not fit even at its last level fails here, before it is sent, with `context_length`.
 */
export async function fitRequest(model: ChatModel & FitListener, input: FitInput): Promise<FittedRequest> {
  const whole = input.ladder(0);
  if (!whole) throw new Error(`the ${input.purpose} prompt ladder has no level 0`);
  const contextSize = await contextWindowOf(model);
  if (contextSize === null) return { messages: whole, maxTokens: input.maxTokens, budget: null };
  const room = minimumReplyRoom(input.purpose, input.maxTokens);
  let smallest = { level: 0, promptTokens: 0 };
  for (let level = 0, messages: ChatMessage[] | null = whole; messages; messages = input.ladder(++level)) {
    const promptTokens = await countTokens(model, messages, input);
    smallest = { level, promptTokens };
    if (contextSize - promptTokens < room) continue;
    const budget: RequestBudget = {
      promptTokens,
      window: contextSize,
      maxTokens: Math.min(input.maxTokens, contextSize - promptTokens),
      trimLevel: level,
    };
    model.onFitted?.(input.purpose, budget);
    return { messages, maxTokens: budget.maxTokens, budget };
  }
  throw new ChatModelError(
    'context_length',
    `the ${input.purpose} request does not fit the model's ${contextSize}-token context window: its prompt is ${smallest.promptTokens} tokens even with its variable parts trimmed (level ${smallest.level}), which leaves ${Math.max(0, contextSize - smallest.promptTokens)} tokens for the reply, and a ${input.purpose} reply needs at least ${room}. It was not sent. Use a model or server with a larger context (vLLM --max-model-len, llama.cpp --ctx-size), or shorten the run's prompt templates.`,
  );
}
