import type { ReplyGrammar } from '../ports/chat-port.ts';
import { GbnfBuilder, gbnfLiteral, repeat } from './gbnf.ts';

/** Bounds of a constrained reply, in characters. */
export interface ReplyBounds {
  /** Allow one leading `<think>...</think>` block (the request may think). */
  think: boolean;
  /** Longest thinking inside that block. */
  thinkChars?: number;
  /** Longest free text before the action. */
  leadChars?: number;
  /** Longest action inside the box. */
  boxChars?: number;
  /** Longest final answer inside `<answer>`. */
  answerChars?: number;
  /** Longest string value in a tool call's arguments. */
  stringChars?: number;
}

/** The default bounds: room to think and reason, and an end the grammar reaches before a typical reply budget runs out. */
export const DEFAULT_BOUNDS = {
  thinkChars: 6000,
  leadChars: 600,
  boxChars: 120,
  answerChars: 500,
  stringChars: 200,
} as const;

/** The optional `<think>` block (no `<` inside, so it closes only at `</think>`) and the lead text whose characters `leadClass` allows, as root items. */
export function preamble(builder: GbnfBuilder, bounds: ReplyBounds, leadClass: string): string {
  const parts: string[] = [];
  if (bounds.think) {
    const thought = repeat(builder.rule('[^\\x3C]', 'c'), 0, bounds.thinkChars ?? DEFAULT_BOUNDS.thinkChars);
    parts.push(
      `${builder.define('think', `${gbnfLiteral('<think>')} ${thought} ${gbnfLiteral('</think>')} ${repeat('[\\x0A ]', 0, 4)}`)}?`,
    );
  }
  const lead = bounds.leadChars ?? DEFAULT_BOUNDS.leadChars;
  if (lead > 0) parts.push(`${builder.define('lead', repeat(builder.rule(leadClass, 'c'), 1, lead))}?`);
  return parts.join(' ');
}

/**
 * The cognitive-game agent's reply: an optional `<think>` block, optional short reasoning without
 * a backslash or braces, then exactly one `\boxed{...}` whose content has no braces, no
 * backslash and no control characters, starts with a visible character and holds at most
 * `boxChars` characters; nothing after it. `parseAction` reads every reply it allows as that box.
 */
export function boxedActionGrammar(bounds: ReplyBounds): ReplyGrammar {
  const builder = new GbnfBuilder();
  const first = builder.define('boxfirst', '[^\\x00-\\x20\\x5C\\x7B\\x7D]');
  const rest = builder.define('boxrest', '[^\\x00-\\x1F\\x5C\\x7B\\x7D]');
  const root = [
    preamble(builder, bounds, '[^\\x5C\\x7B\\x7D\\x3C]'),
    gbnfLiteral('\\boxed{'),
    first,
    repeat(rest, 0, Math.max(0, (bounds.boxChars ?? DEFAULT_BOUNDS.boxChars) - 1)),
    gbnfLiteral('}'),
  ]
    .filter((p) => p !== '')
    .join(' ');
  return { name: 'boxed-action', gbnf: builder.text(root) };
}
