import type { ChatMessage } from '../chat-port.ts';
import { stripThink } from '../env/extract-code.ts';

/** Longest hint kept, in words. */
export const HINT_MAX_WORDS = 100;
/** Most sentences kept. */
export const HINT_MAX_SENTENCES = 3;

/** Builds the hint messages: the model reads the environment's code and writes a short insight. */
export function buildHintPrompt(code: string): ChatMessage[] {
  return [
    {
      role: 'user',
      content: `Here is the code of a text game an agent will play:\n\`\`\`python\n${code}\n\`\`\`\n\nWrite a hint of 1 to 3 sentences (under ${HINT_MAX_WORDS} words) that gives the key insight for winning and says how actions must be formatted. Do not reveal the exact answer or the hidden values. Reply with the hint only.`,
    },
  ];
}

/** Cleans a hint reply: no think blocks, no "Hint:" label or quotes, at most 3 sentences and 100 words; null when empty. */
export function parseHint(reply: string): string | null {
  let text = stripThink(reply).trim().replace(/^\s*(\*\*)?hint\s*:?\s*(\*\*)?\s*/i, '').replace(/\s+/g, ' ').trim();
  text = text.replace(/^["'“](.*)["'”]$/, '$1').trim();
  if (text === '') return null;
  const sentences = text.match(/[^.!?]+[.!?]+(\s|$)|[^.!?]+$/g) ?? [text];
  text = sentences.slice(0, HINT_MAX_SENTENCES).join('').trim();
  const words = text.split(' ');
  return words.length > HINT_MAX_WORDS ? words.slice(0, HINT_MAX_WORDS).join(' ') : text;
}
