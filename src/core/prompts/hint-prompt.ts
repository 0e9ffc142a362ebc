import type { ChatMessage } from '../ports/chat-port.ts';
import { stripThink } from '../env/extract-code.ts';
import { fillTemplate, type PromptTemplates } from './templates.ts';
import type { RunSetting } from '../skills.ts';

/** Longest hint kept, in words. */
export const HINT_MAX_WORDS = 100;
/** Most sentences kept. */
export const HINT_MAX_SENTENCES = 3;
/** Hint requests per environment before it is played without a hint arm (SPADE retries 3 times). */
export const HINT_ATTEMPTS = 3;

/** Builds the hint messages from the run's hint template (the tool-use one for a tool-use run): instructions first, the code last. */
export function buildHintPrompt(code: string, templates: PromptTemplates, setting: RunSetting = 'games'): ChatMessage[] {
  return [{ role: 'user', content: fillTemplate(setting === 'tool_use' ? templates.toolHint : templates.hint, { code }) }];
}

/** Cleans a hint reply: no think blocks, no "Hint:" label or quotes, at most 3 sentences and 100 words; null when empty. */
export function parseHint(reply: string): string | null {
  let text = stripThink(reply)
    .trim()
    .replace(/^\s*(\*\*)?hint\s*:?\s*(\*\*)?\s*/i, '')
    .replace(/\s+/g, ' ')
    .trim();
  text = text.replace(/^["'“](.*)["'”]$/, '$1').trim();
  if (text === '') return null;
  const sentences = text.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [text];
  text = sentences.slice(0, HINT_MAX_SENTENCES).join('').trim();
  const words = text.split(' ');
  return words.length > HINT_MAX_WORDS ? words.slice(0, HINT_MAX_WORDS).join(' ') : text;
}
