import { boxSpans, cleanBoxContent } from './boxed-action.ts';
import { parseLooseJson } from './loose-json.ts';
import { tagBlocks, withoutBlocks } from './tag-blocks.ts';
import { splitThinking, withoutThinkBlocks } from './visible-text.ts';

/** One tool call read from an agent's reply. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** What a tool-use reply asks for: a final answer, tool calls, or neither (the environment answers that with its format error). */
export type ToolReply =
  { kind: 'answer'; text: string } | { kind: 'calls'; calls: ToolCall[] } | { kind: 'none'; text: string };

// Most calls read from one reply; a reply is untrusted text.
const MAX_CALLS = 8;
const NAME = /^[A-Za-z_][A-Za-z0-9_.-]{0,99}$/;
// Opening and closing tags, matched in pairs by `tagBlocks` (linear on any reply).
const ANSWER_OPEN = /<answer>/i;
const ANSWER_CLOSE = /<\/answer>/i;
const CALL_OPEN = /<tool_call>/i;
const CALL_CLOSE = /<\/tool_call>/i;
const UNCLOSED_CALL = /<tool_call>((?:(?!<tool_call>)[\s\S])*)$/i;
const FENCED = /```(?:json)?\s*([\s\S]*?)```/i;
const FUNCTION_OPEN = /<function=([^>\s]{1,100})>/i;
const FUNCTION_CLOSE = /<\/function>/i;
const PARAMETER_OPEN = /<parameter=([^>\s]{1,100})>/i;
const PARAMETER_CLOSE = /<\/parameter>/i;
const ENTITIES: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
};

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

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
  const call = tagBlocks(body, FUNCTION_OPEN, FUNCTION_CLOSE)[0];
  const name = call?.head[1];
  if (!call || !name || !NAME.test(name)) return null;
  const args: Record<string, unknown> = {};
  for (const parameter of tagBlocks(call.inner, PARAMETER_OPEN, PARAMETER_CLOSE))
    args[parameter.head[1]!] = parameterValue(parameter.inner);
  return { name, arguments: args };
}

// `{"name": ..., "arguments": {...}}` (also `parameters`, or arguments given as a JSON string).
function jsonCall(body: string): ToolCall | null {
  const value = parseJson(body.trim());
  if (!isRecord(value) || typeof value.name !== 'string' || !NAME.test(value.name)) return null;
  let args: unknown = value.arguments ?? value.parameters ?? {};
  if (typeof args === 'string') args = parseJson(args);
  return isRecord(args) ? { name: value.name, arguments: args } : null;
}

// A body with reply aids: a fenced block inside the tags, single quotes, trailing commas, Python's
// True/False/None, `function` for `name` and the `{"function": {"name", "arguments"}}` form.
function looseCall(body: string): ToolCall | null {
  const fenced = FENCED.exec(body);
  const value = parseLooseJson((fenced ? fenced[1]! : body).trim());
  if (!isRecord(value)) return null;
  const call = isRecord(value.function) ? value.function : value;
  const name =
    typeof call.name === 'string' ? call.name : typeof call.function === 'string' ? call.function : undefined;
  if (name === undefined || !NAME.test(name)) return null;
  let args: unknown = call.arguments ?? call.parameters ?? {};
  if (typeof args === 'string') args = parseLooseJson(args);
  return isRecord(args) ? { name, arguments: args } : null;
}

// The `<tool_call>` bodies of a text; with reply aids, an unclosed `<tool_call>` at the end counts too.
function callBodies(text: string, aids: boolean): string[] {
  const closed = tagBlocks(text, CALL_OPEN, CALL_CLOSE);
  const blocks = closed.map((block) => block.inner);
  const tail = aids ? UNCLOSED_CALL.exec(withoutBlocks(text, closed)) : null;
  if (tail) blocks.push(tail[1]!);
  return blocks.length > 0
    ? blocks
    : tagBlocks(text, FUNCTION_OPEN, FUNCTION_CLOSE).map((block) => text.slice(block.start, block.end));
}

/** An answer as the environment's `_check_answer` should see it: no markdown, quotes, `\boxed{}` or final period around it. */
export function cleanAnswer(raw: string): string {
  const text = raw
    .trim()
    .replace(/^(\*\*|__|`|"|')([\s\S]+)\1$/, '$2')
    .trim();
  const first = /^\\boxed\s*\{/.exec(text);
  const whole = first
    ? boxSpans(text).find(([open, close]) => open === first[0].length - 1 && close === text.length - 1)
    : undefined;
  if (whole) return cleanBoxContent(text.slice(whole[0] + 1, whole[1]));
  return text.replace(/[.。!！]$/, '').trim();
}

/**
 * Reads a tool-use reply. By the reference's rules (closed `<think>` blocks removed): an
 * `<answer>...</answer>` wins; else every `<tool_call>` block in the JSON form or Qwen's
 * `<function=...>` form (a `<function=...>` block without the wrapper counts too); else nothing
 * usable, and the text is passed on as it is. With reply aids on (method.md section 5): only the
 * visible text counts (`splitThinking`), calls are also read leniently (`looseCall`, an unclosed
 * `<tool_call>` at the end included), a call runs before any answer in the same reply (the answer
 * is not final while a call is pending), and an answer is cleaned by `cleanAnswer`.
 */
export function parseToolReply(reply: string, aids = false): ToolReply {
  const text = aids ? splitThinking(reply).visible : withoutThinkBlocks(reply);
  const answer = tagBlocks(text, ANSWER_OPEN, ANSWER_CLOSE)[0]?.inner;
  if (answer !== undefined && !aids) return { kind: 'answer', text: answer.trim() };
  const calls = callBodies(text, aids)
    .slice(0, MAX_CALLS)
    .map((body) => xmlCall(body) ?? jsonCall(body) ?? (aids ? looseCall(body) : null))
    .filter((call): call is ToolCall => call !== null);
  if (calls.length > 0) return { kind: 'calls', calls };
  return answer !== undefined ? { kind: 'answer', text: cleanAnswer(answer) } : { kind: 'none', text: text.trim() };
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
