import type { ChatMessage, ChatModel, ChatUsage, ToolSchema } from '../ports/chat-port.ts';
import type { EnvHandle } from '../ports/sandbox-port.ts';
import { checkToolSchemas, type ToolFacts } from '../env/tool-use-facts.ts';
import { toolAgentFirstMessage } from '../prompts/agent-prompt.ts';
import { historyLadder } from '../prompts/history-ladder.ts';
import {
  parseToolReply,
  toolCallAction,
  toolReplyAction,
  type ToolCall,
  type ToolReply,
} from '../prompts/tool-call-parse.ts';
import { DEFAULT_TEMPLATES } from '../prompts/templates.ts';
import { deriveSeed } from './random.ts';
import { completeFitted, historyWithoutThoughts } from './complete-thinking.ts';
import { withToolGrammar } from './agent-grammar.ts';
import type { EpisodeSpec } from './agent-settings.ts';
import { storedStep } from './stored-episode.ts';
import { stepKeepingCrashes, type CrashLog } from './step-crash.ts';
import type { ToolProgress, Turn } from '../records.ts';

/** Told to the agent after a reply with several calls: only its first one ran. */
export const ONE_CALL_NOTE = '\n\n(Only the first tool call of a reply runs; make the next call in your next reply.)';

/** Where a tool-use episode writes as it goes: the conversation, the turns and the token counts (and a multi-turn task's instructions). */
export interface ToolEpisodeLog extends CrashLog {
  messages: ChatMessage[];
  turns: Turn[];
  usage: ChatUsage;
  instructions?: string[];
}

/** The instructions of a multi-turn task as the facts give them (each as text), or null when the task has none. */
export function instructionsOf(facts: ToolFacts): string[] | null {
  return facts.messages && facts.messages.length > 0
    ? facts.messages.map((m) => (typeof m === 'string' ? m : (JSON.stringify(m) ?? String(m))))
    : null;
}

/** A step's progress from the facts read after it; null when `_current_msg` is not a non-negative integer. */
export function progressOf(facts: ToolFacts | null): ToolProgress | null {
  const done = facts?.current;
  return facts && typeof done === 'number' && Number.isInteger(done) && done >= 0
    ? { done, criteria: facts.criteria ?? [] }
    : null;
}

/** Added to the environment's feedback on a reply whose `<tool_call>` could not be read, with `toolUseMasks` (the reply is masked in training rows). */
export const FORMAT_NOTE =
  '\n\n[FORMAT] Your <tool_call> could not be read. Write it as <tool_call>{"name": "TOOL", "arguments": {...}}</tool_call>.';

/** True when a reply holds a `<tool_call>` tag but no call could be read from it (the reference's malformed-call test). */
export function isMalformedCall(reply: string, parsed: ToolReply): boolean {
  return parsed.kind === 'none' && reply.includes('<tool_call>');
}

// With `freeToolCalls`: every call of the reply runs through `execute_tool` and costs no step; the
// turn records them with reward 0, and their outputs come back in one `tool` message.
async function runCalls(env: EnvHandle, spec: EpisodeSpec, calls: readonly ToolCall[]): Promise<string> {
  const outputs: string[] = [];
  for (const call of calls)
    outputs.push(await env.executeTool(call.name, call.arguments, { timeoutMs: spec.stepTimeoutMs }));
  return outputs.join('\n\n');
}

/**
 * The turns of a tool-use episode (docs/method.md section 6), after its reset: the first message gives
 * the tool schemas (also passed as `tools` to backends with native tool calling) and the first
 * instruction; each reply's answer, first tool call, or plain text is one step of the
 * environment (read by `parseToolReply`, with the reply aids when the spec turns them on); a tool result comes back as a `tool` message, anything else as a user message;
 * the episode ends on a terminal step or the turn cap. With `freeToolCalls` (the reference's
 * rule) a reply's calls all run through `execute_tool` and cost no step; only answers and
 * call-less replies step, and the run's turn cap bounds the replies. A multi-turn task's instructions are kept,
 * and after each turn its progress (instructions done, each criterion's truth) is read from the
 * sandbox into the turn. A contract failure rejects with its EnvError.
 */
export async function playToolTurns(
  model: ChatModel,
  env: EnvHandle,
  spec: EpisodeSpec,
  facts: ToolFacts,
  firstObservation: string,
  log: ToolEpisodeLog,
): Promise<void> {
  checkToolSchemas(facts, 'play');
  const tools = facts.tools as ToolSchema[];
  const instructions = instructionsOf(facts);
  if (instructions) log.instructions = instructions;
  const template = spec.toolTemplate ?? DEFAULT_TEMPLATES.toolAgent;
  const first = (withPlaybook: boolean) =>
    toolAgentFirstMessage(firstObservation, tools, template, withPlaybook ? spec.lessons : []);
  const options = { timeoutMs: spec.stepTimeoutMs };
  log.messages.push(first(true));
  for (let turnIndex = 0; turnIndex < spec.maxTurns; turnIndex++) {
    const history = {
      first,
      hasPlaybook: (spec.lessons?.length ?? 0) > 0,
      turns: historyWithoutThoughts(log.messages).slice(1),
      toolUse: true,
    };
    const reply = await completeFitted(
      model,
      {
        ...spec.sampling,
        seed: deriveSeed(spec.modelSeedKey, turnIndex),
        purpose: 'agent',
        tools,
        ...(spec.onToken ? { onToken: spec.onToken } : {}),
      },
      historyLadder(history),
      spec.thinking,
      spec.constrain ? (sent) => withToolGrammar(sent, tools) : undefined,
    );
    log.usage.promptTokens += reply.usage.promptTokens;
    log.usage.completionTokens += reply.usage.completionTokens;
    log.messages.push({ role: 'assistant', content: reply.text });
    const parsed = parseToolReply(reply.text, spec.replyAids);
    const free = spec.freeToolCalls === true && parsed.kind === 'calls';
    const action = free ? parsed.calls.map(toolCallAction).join('\n') : toolReplyAction(parsed);
    const step = free
      ? {
          observation: await runCalls(env, spec, parsed.calls),
          reward: 0,
          terminated: false,
          truncated: false,
          info: {},
        }
      : await stepKeepingCrashes(
          env,
          action,
          { ...options, coerce: spec.coerceStepReturns === true },
          spec.crashesLose === true,
          log,
        );
    const progress = instructions ? progressOf(await env.toolFacts(options)) : null;
    const malformed = spec.toolUseMasks === true && isMalformedCall(reply.text, parsed);
    const turn: Turn = {
      reply: reply.text,
      action,
      ...storedStep(step),
      ...(progress ? { progress } : {}),
      ...(malformed ? { malformedCall: true as const } : {}),
    };
    log.turns.push(turn);
    spec.onTurn?.(turnIndex, turn);
    if (step.terminated || step.truncated) break;
    const called = parsed.kind === 'calls';
    const note = called && !free && parsed.calls.length > 1 ? ONE_CALL_NOTE : malformed ? FORMAT_NOTE : '';
    log.messages.push({ role: called ? 'tool' : 'user', content: step.observation + note });
  }
}
