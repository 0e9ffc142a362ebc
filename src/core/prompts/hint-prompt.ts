import type { ChatMessage } from '../ports/chat-port.ts';
import { stripThink } from '../env/extract-code.ts';
import { joinLines, wholeSentences } from './hint-sentences.ts';
import { fillTemplate, type PromptTemplates } from './templates.ts';
import type { RunSetting } from '../skills.ts';

/** Longest hint kept with reply aids on, in words. */
export const HINT_MAX_WORDS = 100;
/** Most sentences kept with reply aids on. */
export const HINT_MAX_SENTENCES = 3;
/** Hint requests per environment before it is played without a hint arm (SPADE retries 3 times). */
export const HINT_ATTEMPTS = 3;

/** Builds the hint messages from the run's hint template (the tool-use one for a tool-use run): instructions first, the code last. */
export function buildHintPrompt(
  code: string,
  templates: PromptTemplates,
  setting: RunSetting = 'games',
): ChatMessage[] {
  return [
    { role: 'user', content: fillTemplate(setting === 'tool_use' ? templates.toolHint : templates.hint, { code }) },
  ];
}

// A label opening the hint ("Hint:", "**Hint 1:**", "Here is a hint:", a "### Hint" heading line).
const LABEL =
  /^\s*(?:#+\s*)?(?:\*\*|__)?\s*(?:here(?:'s| is) (?:a |the |my )?)?hint(?:\s*\d+)?\s*(?:(?:\*\*|__)?\s*[:：]|(?:\*\*|__)?\s*\n)\s*(?:\*\*|__)?\s*/i;
// Characters of a reply the aided cleaner reads: far more than 100 words, so a huge reply costs little.
const MAX_AIDED_CHARS = 20_000;
const QUOTED = /^["'“‘](.*)["'”’]$/;
const JSON_FENCE = /```json\s*\n?([\s\S]*?)\n?```/;

// A `{"hint": "..."}` object in a fenced json block, as the reference reads one; null otherwise.
function fencedHint(text: string): string | null {
  const fenced = JSON_FENCE.exec(text);
  if (!fenced) return null;
  try {
    const data: unknown = JSON.parse(fenced[1]!.trim());
    return typeof data === 'object' && data !== null && typeof (data as { hint?: unknown }).hint === 'string'
      ? (data as { hint: string }).hint
      : null;
  } catch {
    return null;
  }
}

/**
 * Reads a hint reply; null when nothing usable is left. By the reference's rules: the whole reply
 * as it is, trimmed, `<think>` blocks included (so a think-only reply is a hint), or the `hint` of
 * a fenced json block. With reply aids on (method.md section 5): closed and unclosed `<think>`
 * blocks removed (a think-only reply gives null), no "Hint:" label or surrounding quotes, bullets
 * as sentences, and at most HINT_MAX_SENTENCES whole sentences and HINT_MAX_WORDS words
 * (`wholeSentences`, which never cuts inside a sentence except a first one over the word cap).
 */
export function parseHint(reply: string, aids = false): string | null {
  const visible = (aids ? stripThink(reply) : reply).trim();
  let text = (fencedHint(visible) ?? visible).trim();
  if (aids) {
    text = joinLines(text.slice(0, MAX_AIDED_CHARS).replace(LABEL, '')).replace(/\s+/g, ' ').trim();
    text = text.replace(QUOTED, '$1').trim();
    text = wholeSentences(text, HINT_MAX_SENTENCES, HINT_MAX_WORDS);
  }
  return text === '' ? null : text;
}
