import type { ChatMessage } from '../chat-port.ts';
import { stripThink } from '../env/extract-code.ts';

/** The first user message of a cognitive-game episode (SPADE.md section 8). */
export function agentFirstMessage(observation: string): ChatMessage {
  return {
    role: 'user',
    content: `You are playing a language game. Make valid actions to win.\nObservation: ${observation}\nPlease reason step by step, and put your final answer within \\boxed{}.`,
  };
}

/** Appends the hint once, to the first observation. */
export function withHint(observation: string, hint: string): string {
  return `${observation}\n\nHINT: ${hint}`;
}

const SIMPLE_BOX = [/\\boxed\{([^{}]+)\}/, /\\boxed\{\{([^{}]+)\}\}/, /\\boxed\{\{\{([^{}]+)\}\}\}/];

/** The content of the first simple `\boxed{...}`, else of the last balanced one, else null. */
export function extractBoxed(text: string): string | null {
  for (const pattern of SIMPLE_BOX) {
    const match = pattern.exec(text);
    if (match) return match[1]!.trim();
  }
  const start = text.lastIndexOf('\\boxed');
  const open = start >= 0 ? text.indexOf('{', start) : -1;
  if (open < 0) return null;
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) {
      let content = text.slice(open + 1, i).trim();
      for (let k = 0; k < 2 && content.startsWith('{') && content.endsWith('}'); k++) content = content.slice(1, -1).trim();
      return content;
    }
  }
  return null;
}

/** The action sent to the environment: the boxed answer re-wrapped as `\boxed{X}`, else the stripped reply. */
export function parseAction(reply: string): string {
  const text = stripThink(reply);
  const boxed = extractBoxed(text);
  return boxed ? `\\boxed{${boxed}}` : text.trim();
}
