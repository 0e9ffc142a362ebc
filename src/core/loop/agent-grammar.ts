import type { Config } from '../config.ts';
import type { ChatModel, ChatRequest, ToolSchema } from '../ports/chat-port.ts';
import { boxedActionGrammar, DEFAULT_BOUNDS, type ReplyBounds } from '../prompts/action-grammar.ts';
import { toolReplyGrammar } from '../prompts/tool-grammar.ts';

/** Whether a run constrains its agent's replies: the `constrainAgent` knob is on and the model honours grammars. */
export function constrainsAgent(config: Pick<Config, 'constrainAgent'>, model: Pick<ChatModel, 'grammars'>): boolean {
  return config.constrainAgent === true && model.grammars === true;
}

/** What a run says once when it asks for constrained agent replies from a model that cannot give them (null otherwise). */
export function grammarNote(
  config: Pick<Config, 'constrainAgent'>,
  model: Pick<ChatModel, 'grammars' | 'id'>,
): string | null {
  if (config.constrainAgent !== true || model.grammars === true) return null;
  return `Constrained agent replies are on, but ${model.id} does not support grammars: the agent plays unconstrained. Use the CPU (wllama) or WebGPU (web-llm) model, or on the command line an OpenAI-compatible server whose family OPENAI_GRAMMAR names, or turn the setting off.`;
}

// A request may think unless it turns thinking off; the thinking is bounded so the action still fits in the reply budget.
function boundsOf(request: ChatRequest): ReplyBounds {
  return { think: request.thinking !== false, thinkChars: Math.min(DEFAULT_BOUNDS.thinkChars, 2 * request.maxTokens) };
}

/** A cognitive-game agent request with the boxed-action grammar. */
export function withActionGrammar(request: ChatRequest): ChatRequest {
  return { ...request, grammar: boxedActionGrammar(boundsOf(request)) };
}

/** A tool-use agent request with the grammar of a call to one of `tools` or an answer. */
export function withToolGrammar(request: ChatRequest, tools: readonly ToolSchema[]): ChatRequest {
  return { ...request, grammar: toolReplyGrammar(tools, boundsOf(request)) };
}
