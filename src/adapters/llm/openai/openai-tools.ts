import type { ChatMessage, ToolSchema } from '../../../core/ports/chat-port.ts';
import { toolSchemaBlock, TOOLS_SENT_NATIVELY } from '../../../core/prompts/agent-prompt.ts';
import {
  parseToolReply,
  toolCallAction,
  type ToolCall,
  type ToolReply,
} from '../../../core/prompts/tool-call-parse.ts';
import { isObject, type Json } from './openai-errors.ts';

// Most calls and argument characters kept from one reply (a server's reply is untrusted).
const MAX_CALLS = 8;
const MAX_ARGUMENT_CHARS = 100_000;

// A reply the play ran a call from: read by the reference's rules, else with the reply aids (which the play may have used).
function calledReply(content: string): ToolReply {
  const strict = parseToolReply(content);
  return strict.kind === 'calls' ? strict : parseToolReply(content, true);
}

/**
 * The messages as an OpenAI-compatible server takes them. With tools, an assistant message whose
 * text holds a call followed by its `tool` result is sent as the assistant's `tool_calls` (its
 * first call, with an id) and the result's `tool_call_id`, so servers that check the pairing
 * accept the conversation; a `tool` message without a call before it goes as a user message.
 */
export function openAiMessages(messages: readonly ChatMessage[], withTools: boolean): Json[] {
  if (!withTools) return messages.map(({ role, content }) => ({ role, content }));
  let pending: string | null = null;
  return messages.map(({ role, content }, index): Json => {
    if (role === 'tool') {
      const id = pending;
      pending = null;
      return id === null ? { role: 'user', content } : { role: 'tool', tool_call_id: id, content };
    }
    pending = null;
    const reply = role === 'assistant' && messages[index + 1]?.role === 'tool' ? calledReply(content) : null;
    if (reply?.kind !== 'calls') return { role, content };
    const call = reply.calls[0]!;
    pending = `call_${index}`;
    const text = content.replace(/<tool_call>[\s\S]*?(?:<\/tool_call>|$)/gi, '').trim();
    return {
      role,
      content: text === '' ? null : text,
      tool_calls: [
        { id: pending, type: 'function', function: { name: call.name, arguments: JSON.stringify(call.arguments) } },
      ],
    };
  });
}

/**
 * The messages with the first tool-use message's schema block (toolSchemaBlock of these very tools)
 * replaced by TOOLS_SENT_NATIVELY: the request sends the tools as `tools`, and the server's chat
 * template shows them to the model, so the prompt does not list them a second time.
 */
export function withoutListedTools(
  messages: readonly ChatMessage[],
  tools: readonly ToolSchema[] | undefined,
): ChatMessage[] {
  const block = tools && tools.length > 0 ? toolSchemaBlock(tools) : '';
  const at = block === '' ? -1 : messages.findIndex((m) => m.role === 'user' && m.content.includes(block));
  return at < 0
    ? [...messages]
    : messages.map((m, index) =>
        index === at ? { ...m, content: m.content.replace(block, () => TOOLS_SENT_NATIVELY) } : m,
      );
}

interface PartialCall {
  name: string;
  arguments: string;
}

/** Collects the `tool_calls` of a streamed (`delta`) or whole (`message`) reply and renders them as `<tool_call>` text. */
export class ToolCallCollector {
  private readonly calls = new Map<number, PartialCall>();

  /** Takes one chunk's `tool_calls` (pieces keyed by `index` when streamed; whole calls otherwise). */
  take(toolCalls: unknown): void {
    if (!Array.isArray(toolCalls)) return;
    toolCalls.forEach((raw: unknown, position) => {
      if (!isObject(raw) || !isObject(raw.function)) return;
      const index = typeof raw.index === 'number' && Number.isInteger(raw.index) ? raw.index : position;
      if (!this.calls.has(index) && this.calls.size >= MAX_CALLS) return;
      const call = this.calls.get(index) ?? { name: '', arguments: '' };
      if (typeof raw.function.name === 'string') call.name += raw.function.name;
      const args = raw.function.arguments;
      if (typeof args === 'string' && call.arguments.length + args.length <= MAX_ARGUMENT_CHARS) call.arguments += args;
      else if (isObject(args)) call.arguments = JSON.stringify(args);
      this.calls.set(index, call);
    });
  }

  /** The collected calls in our text form, one `<tool_call>` per call in index order; a call whose arguments are not a JSON object keeps them as text, so the environment reports the format error. */
  text(): string {
    return [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([, call]) => {
        let args: unknown;
        try {
          args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
        } catch {
          args = undefined;
        }
        const parsed: ToolCall | null = isObject(args) ? { name: call.name, arguments: args } : null;
        return parsed
          ? toolCallAction(parsed)
          : `<tool_call>{"name": ${JSON.stringify(call.name)}, "arguments": ${JSON.stringify(call.arguments)}}</tool_call>`;
      })
      .join('\n');
  }
}
