import type { ChatMessage, ChatModel, ChatRequest, ChatResult } from '../ports/chat-port.ts';
import type { RoleThinking } from '../thinking.ts';
import { deriveSeed } from './random.ts';
import { fitRequest, fixedLadder, type PromptLadder } from '../budget/fit-request.ts';

/** Streamed to the live view between a reply cut inside its thought and the request asked again without thinking. */
export const THOUGHT_CUT_NOTE = '\n[the thought reached its budget unfinished; asked again with thinking off]\n';

/** A request under a role's thinking: off sends `thinking: false`; on sends `thinking: true`; on and default add the thinking budget to the reply budget. */
export function thinkingRequest(request: ChatRequest, thinking: RoleThinking): ChatRequest {
  if (thinking.mode === 'off') return { ...request, thinking: false };
  return {
    ...request,
    maxTokens: request.maxTokens + thinking.budget,
    ...(thinking.mode === 'on' ? { thinking: true } : {}),
  };
}

/** True when a reply cut at its token limit was still thinking: its last `<think>` is never closed, or it shows nothing (a server that streams the thought apart from the reply). */
export function cutInThought(result: ChatResult): boolean {
  if (result.finishReason !== 'length') return false;
  const open = result.text.lastIndexOf('<think>');
  return (open >= 0 && !result.text.includes('</think>', open)) || result.text.trim() === '';
}

/**
 * One model call with a fixed prompt under its role's thinking setting (docs/method.md section 5):
 * the switch and the thinking budget go on the request; when the role may think with a budget
 * above 0 and the reply was cut at its token limit inside its thought (cutInThought), the same
 * request is asked once more with thinking off and only the reply budget, on a seed derived from
 * the first (`thought-cut`), so a hint, lesson, design or action is not lost to an unfinished
 * thought. The second reply is the result; the usage counts both requests. Each request is fitted
 * to the model's context size (completeFitted).
 */
export async function completeThinking(
  model: ChatModel,
  request: ChatRequest,
  thinking: RoleThinking,
): Promise<ChatResult> {
  const { messages, ...rest } = request;
  const { text, usage, finishReason } = await completeFitted(model, rest, fixedLadder(messages), thinking);
  return { text, usage, finishReason };
}

// A closed thought with something in it (an empty `<think></think>`, which a Qwen3 reply with thinking off starts with, stays), and what follows it up to the answer.
const FILLED_THOUGHT = /<think>(?!\s*<\/think>)[\s\S]*?<\/think>\s*/g;
// A thought that is never closed, to the end of the reply.
const OPEN_THOUGHT = /<think>(?![\s\S]*<\/think>)[\s\S]*$/;

/**
 * The conversation as the next agent request carries it: earlier assistant replies without their
 * thoughts, as a hybrid Qwen3 chat template renders them (docs/method.md section 5). Empty
 * `<think></think>` blocks stay so a backend that reuses its cache across turns (web-llm) still
 * sees its own previous reply; the episode keeps every reply whole.
 */
export function historyWithoutThoughts(messages: readonly ChatMessage[]): ChatMessage[] {
  return messages.map((m) =>
    m.role === 'assistant' && m.content.includes('<think>')
      ? { ...m, content: m.content.replace(FILLED_THOUGHT, '').replace(OPEN_THOUGHT, '') }
      : { ...m },
  );
}

/** A request whose prompt is a ladder of trim levels rather than fixed messages. */
export type LadderRequest = Omit<ChatRequest, 'messages'>;

/** A reply and the messages of the request that produced it (the prompt as fitted). */
export type FittedResult = ChatResult & { messages: ChatMessage[] };

/**
 * One model call fitted to the model's context size (docs/method.md, "Token budget") under its
 * role's thinking (completeThinking's rule): the prompt is taken from the ladder at the first
 * level that leaves the role's reply room, `maxTokens` is what the context leaves when that is less
 * than asked, and the thought-cut retry, which asks for fewer tokens, is fitted again. `shape`
 * finishes each request as sent (the agent's grammar, which reads its thinking and length).
 */
export async function completeFitted(
  model: ChatModel,
  request: LadderRequest,
  ladder: PromptLadder,
  thinking: RoleThinking,
  shape: (sent: ChatRequest) => ChatRequest = (sent) => sent,
): Promise<FittedResult> {
  const send = async (asked: ChatRequest): Promise<FittedResult> => {
    const fitted = await fitRequest(model, {
      purpose: asked.purpose,
      maxTokens: asked.maxTokens,
      ladder,
      ...(asked.tools ? { tools: asked.tools } : {}),
      ...(asked.thinking !== undefined ? { thinking: asked.thinking } : {}),
      ...(asked.signal ? { signal: asked.signal } : {}),
    });
    const result = await model.complete(shape({ ...asked, messages: fitted.messages, maxTokens: fitted.maxTokens }));
    return { ...result, messages: fitted.messages };
  };
  const base: ChatRequest = { ...request, messages: [] };
  const first = await send(thinkingRequest(base, thinking));
  if (thinking.mode === 'off' || thinking.budget === 0 || !cutInThought(first)) return first;
  request.onToken?.(THOUGHT_CUT_NOTE);
  const second = await send({ ...base, thinking: false, seed: deriveSeed(request.seed, 'thought-cut') });
  return {
    ...second,
    usage: {
      promptTokens: first.usage.promptTokens + second.usage.promptTokens,
      completionTokens: first.usage.completionTokens + second.usage.completionTokens,
    },
  };
}
