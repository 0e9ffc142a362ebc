/** One tool call read from an agent's reply. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a tool-use reply asks for: a final answer, tool calls, or neither (the environment answers that with its format error). */
export type ToolReply = { kind: 'answer'; text: string } | { kind: 'calls'; calls: ToolCall[] } | { kind: 'none'; text: string };

// Most calls read from one reply; a reply is untrusted text.
const MAX_CALLS = 8;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
const ANSWER = /<answer>([\s\S]*?)<\/answer>/i;
const CALL_BLOCK = /<tool_call>([\s\S]*?)<\/tool_call>/gi;
const FUNCTION = /<function=([^>\s]+)>([\s\S]*?)<\/function>/gi;
const PARAMETER = /<parameter=([^>\s]+)>([\s\S]*?)<\/parameter>/gi;
const ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&apos;': "'" };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

// A parameter value of the Qwen form: JSON when it parses (numbers, booleans, lists), else the text itself.
function parameterValue(raw: string): unknown {
  const text = raw.trim().replace(/&(amp|lt|gt|quot|#39|apos);/g, (entity) => ENTITIES[entity] ?? entity);
  const parsed = parseJson(text);
  return parsed === undefined ? text : parsed;
}

// `<function=NAME><parameter=P>value</parameter>...</function>` (Qwen3's XML form), first function only.
function xmlCall(body: string): ToolCall | null {
  const match = new RegExp(FUNCTION.source, 'i').exec(body);
  if (!match || !NAME.test(match[1]!)) return null;
  const args: Record<string, unknown> = {};
  for (const parameter of match[2]!.matchAll(PARAMETER)) args[parameter[1]!] = parameterValue(parameter[2]!);
  return { name: match[1]!, arguments: args };
}

// `{"name": ..., "arguments": {...}}` (also `parameters`, or arguments given as a JSON string).
function jsonCall(body: string): ToolCall | null {
  const value = parseJson(body.trim());
  if (!isRecord(value) || typeof value.name !== 'string' || !NAME.test(value.name)) return null;
  let args: unknown = value.arguments ?? value.parameters ?? {};
  if (typeof args === 'string') args = parseJson(args);
  return isRecord(args) ? { name: value.name, arguments: args } : null;
}

/**
 * Reads a tool-use reply (closed `<think>` blocks removed): an `<answer>...</answer>` wins (as in
 * SPADE); else every `<tool_call>` block in the JSON form or Qwen's `<function=...>` form (a
 * `<function=...>` block without the wrapper counts too); else nothing usable, and the text is
 * passed on as it is.
 */
export function parseToolReply(reply: string): ToolReply {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/g, '');
  const answer = ANSWER.exec(text);
  if (answer) return { kind: 'answer', text: answer[1]!.trim() };
  const blocks = [...text.matchAll(CALL_BLOCK)].map((m) => m[1]!);
  const bodies = blocks.length > 0 ? blocks : [...text.matchAll(FUNCTION)].map((m) => m[0]);
  const calls = bodies
    .slice(0, MAX_CALLS)
    .map((body) => xmlCall(body) ?? jsonCall(body))
    .filter((call): call is ToolCall => call !== null);
  return calls.length > 0 ? { kind: 'calls', calls } : { kind: 'none', text: text.trim() };
}

/** A call as the action a `ToolUseBaseEnv` step takes: `<tool_call>{"name": ..., "arguments": {...}}</tool_call>`. */
export function toolCallAction(call: ToolCall): string {
  return `<tool_call>${JSON.stringify({ name: call.name, arguments: call.arguments })}</tool_call>`;
}

/** The step action of a reply: the answer, the first call (only one call runs per reply), or the text itself. */
export function toolReplyAction(reply: ToolReply): string {
  if (reply.kind === 'answer') return `<answer>${reply.text}</answer>`;
  return reply.kind === 'calls' ? toolCallAction(reply.calls[0]!) : reply.text;
}
