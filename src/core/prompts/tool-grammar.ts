import type { ReplyGrammar, ToolSchema } from '../ports/chat-port.ts';
import { DEFAULT_BOUNDS, preamble, type ReplyBounds } from './action-grammar.ts';
import { GbnfBuilder, gbnfLiteral, jsonLiteral } from './gbnf.ts';
import { JsonGrammar } from './json-grammar.ts';

/** Most tools whose arguments the grammar shapes from their schemas (the others take any object). */
const SHAPED_TOOLS = 32;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A tool-use agent's reply: an optional `<think>` block, optional short text without `<`, then
 * either one `<tool_call>{"name": N, "arguments": {...}}</tool_call>` whose name is one of the
 * tools' (each JSON- and GBNF-escaped, so any name is safe) and whose arguments follow that
 * tool's parameters (required keys first, enums, types; bounded), or one `<answer>...</answer>`
 * of at most `answerChars` characters without `<`; nothing after it. `parseToolReply` reads every
 * reply it allows as that call or answer (for names it accepts).
 */
export function toolReplyGrammar(tools: readonly ToolSchema[], bounds: ReplyBounds): ReplyGrammar {
  const builder = new GbnfBuilder();
  const json = new JsonGrammar(builder, bounds.stringChars ?? DEFAULT_BOUNDS.stringChars);
  const ws = json.ws();
  const seen = new Set<string>();
  const calls: string[] = [];
  for (const tool of tools) {
    const fn: unknown = isRecord(tool) ? tool.function : undefined;
    const name: unknown = isRecord(fn) ? fn.name : undefined;
    if (typeof name !== 'string' || seen.has(name)) continue;
    seen.add(name);
    const parameters = isRecord(fn) ? fn.parameters : undefined;
    const args =
      calls.length < SHAPED_TOOLS && isRecord(parameters) ? json.schemaObject(parameters) : json.genericObject(3);
    calls.push(
      builder.rule(
        `${jsonLiteral(name)!} ${ws} "," ${ws} ${gbnfLiteral('"arguments"')} ${ws} ":" ${ws} ${args}`,
        'call',
      ),
    );
  }
  const answerFirst = builder.rule('[^\\x3C\\x00-\\x20]', 'c');
  const answer = builder.define(
    'answer',
    `${gbnfLiteral('<answer>')} ${answerFirst} ${builder.rule('[^\\x3C]', 'c')}{0,${Math.max(0, (bounds.answerChars ?? DEFAULT_BOUNDS.answerChars) - 1)}} ${gbnfLiteral('</answer>')}`,
  );
  const choices = [answer];
  if (calls.length > 0) {
    const call = builder.define(
      'toolcall',
      `${gbnfLiteral('<tool_call>{')} ${ws} ${gbnfLiteral('"name"')} ${ws} ":" ${ws} (${calls.join(' | ')}) ${ws} ${gbnfLiteral('}</tool_call>')}`,
    );
    choices.unshift(call);
  }
  const lead = preamble(builder, bounds, '[^\\x3C]');
  return {
    name: 'tool-reply',
    gbnf: builder.text([lead, `(${choices.join(' | ')})`].filter((p) => p !== '').join(' ')),
  };
}
