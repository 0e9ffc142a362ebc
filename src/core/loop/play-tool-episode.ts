import type { ChatMessage, ChatModel, ChatUsage, ToolSchema } from '../ports/chat-port.ts';
import type { EnvHandle } from '../ports/sandbox-port.ts';
import { checkToolSchemas, type ToolFacts } from '../env/tool-use-facts.ts';
import { toolAgentFirstMessage } from '../prompts/agent-prompt.ts';
import { historyLadder } from '../prompts/history-ladder.ts';
import { parseToolReply, toolReplyAction } from '../prompts/tool-call-parse.ts';
import { DEFAULT_TEMPLATES } from '../prompts/templates.ts';
import { deriveSeed } from './random.ts';
import { completeFitted, historyWithoutThoughts } from './complete-thinking.ts';
import { withToolGrammar } from './agent-grammar.ts';
import type { EpisodeSpec } from './play-episode.ts';
import { storedStep } from './stored-episode.ts';
import type { ToolProgress, Turn } from '../records.ts';

/** Told to the agent after a reply with several calls: only its first one ran. */
export const ONE_CALL_NOTE = '\n\n(Only the first tool call of a reply runs; make the next call in your next reply.)';

/** Where a tool-use episode writes as it goes: the conversation, the turns and the token counts (and a multi-turn task's instructions). */
export interface ToolEpisodeLog {
  messages: ChatMessage[];
  turns: Turn[];
  usage: ChatUsage;
  instructions?: string[];
}

/** The instructions of a multi-turn task as the facts give them (each as text), or null when the task has none. */
export function instructionsOf(facts: ToolFacts): string[] | null {
  return facts.messages && facts.messages.length > 0 ? facts.messages.map((m) => (typeof m === 'string' ? m : (JSON.stringify(m) ?? String(m)))) : null;
}

/** A step's progress from the facts read after it; null when `_current_msg` is not a non-negative integer. */
export function progressOf(facts: ToolFacts | null): ToolProgress | null {
  const done = facts?.current;
  return facts && typeof done === 'number' && Number.isInteger(done) && done >= 0 ? { done, criteria: facts.criteria ?? [] } : null;
}

/**
 * The turns of a tool-use episode (SPADE.md section 8), after its reset: the first message gives
 * the tool schemas (also passed as `tools` to backends with native tool calling) and the first
 * instruction; each reply's answer, first tool call, or plain text is one step of the
 * environment (read by `parseToolReply`, with the reply aids when the spec turns them on); a tool result comes back as a `tool` message, anything else as a user message;
 * the episode ends on a terminal step or the turn cap. A multi-turn task's instructions are kept,
 * and after each step its progress (instructions done, each criterion's truth) is read from the
 * sandbox into the turn. A contract failure rejects with its EnvError.
 */
export async function playToolTurns(model: ChatModel, env: EnvHandle, spec: EpisodeSpec, facts: ToolFacts, firstObservation: string, log: ToolEpisodeLog): Promise<void> {
  checkToolSchemas(facts, 'play');
  const tools = facts.tools as ToolSchema[];
  const instructions = instructionsOf(facts);
  if (instructions) log.instructions = instructions;
  const template = spec.toolTemplate ?? DEFAULT_TEMPLATES.toolAgent;
  const first = (withPlaybook: boolean) => toolAgentFirstMessage(firstObservation, tools, template, withPlaybook ? spec.lessons : []);
  log.messages.push(first(true));
  for (let turnIndex = 0; turnIndex < spec.maxTurns; turnIndex++) {
    const history = { first, hasPlaybook: (spec.lessons?.length ?? 0) > 0, turns: historyWithoutThoughts(log.messages).slice(1), toolUse: true };
    const reply = await completeFitted(
      model,
      { ...spec.sampling, seed: deriveSeed(spec.modelSeedKey, turnIndex), purpose: 'agent', tools, ...(spec.onToken ? { onToken: spec.onToken } : {}) },
      historyLadder(history),
      spec.thinking,
      spec.constrain ? (sent) => withToolGrammar(sent, tools) : undefined,
    );
    log.usage.promptTokens += reply.usage.promptTokens;
    log.usage.completionTokens += reply.usage.completionTokens;
    log.messages.push({ role: 'assistant', content: reply.text });
    const parsed = parseToolReply(reply.text, spec.replyAids);
    const action = toolReplyAction(parsed);
    const step = await env.step(action, { timeoutMs: spec.stepTimeoutMs });
    const progress = instructions ? progressOf(await env.toolFacts({ timeoutMs: spec.stepTimeoutMs })) : null;
    const turn: Turn = { reply: reply.text, action, ...storedStep(step), ...(progress ? { progress } : {}) };
    log.turns.push(turn);
    spec.onTurn?.(turnIndex, turn);
    if (step.terminated || step.truncated) break;
    const called = parsed.kind === 'calls';
    const note = called && parsed.calls.length > 1 ? ONE_CALL_NOTE : '';
    log.messages.push({ role: called ? 'tool' : 'user', content: step.observation + note });
  }
}
