import type { ChatMessage } from '../ports/chat-port.ts';
import type { MemorySelection } from '../loop/memory.ts';
import type { PromptLadder } from '../budget/fit-request.ts';
import { buildDesignerPrompt, buildRepairPrompt, type DesignerPromptInput } from './designer-prompt.ts';
import type { PromptTemplates } from './templates.ts';

/** Characters of a remembered example's code kept at the trim level that shortens them. */
export const SHORT_EXAMPLE_CHARS = 600;

function halfWords(text: string): string {
  const words = text.trim().split(/\s+/);
  return words.length < 2 ? '' : `${words.slice(0, Math.ceil(words.length / 2)).join(' ')} …`;
}

function withCode(memory: MemorySelection, cut: (code: string) => string): MemorySelection {
  return { ...memory, positives: memory.positives.map((p) => ({ ...p, code: cut(p.code) })) };
}

/**
 * The designer input at each trim level, in the order the budget trims (docs/method.md, "Token
 * budget"): the whole input; the corpus excerpt cut to half its words; the excerpt dropped; the
 * remembered examples' code cut to SHORT_EXAMPLE_CHARS; their code dropped (names and figures
 * kept); the memory block dropped. Levels that would change nothing are skipped.
 */
export function designerInputLevels(input: DesignerPromptInput): DesignerPromptInput[] {
  const levels: DesignerPromptInput[] = [input];
  const push = (next: DesignerPromptInput) => levels.push(next);
  if (input.document !== null) {
    const half = halfWords(input.document);
    if (half !== '') push({ ...input, document: half });
    push({ ...input, document: null });
  }
  const bare = { ...input, document: null };
  const memory = input.memory;
  if (memory && memory.positives.some((p) => p.code.length > SHORT_EXAMPLE_CHARS))
    push({
      ...bare,
      memory: withCode(memory, (code) =>
        code.length > SHORT_EXAMPLE_CHARS ? `${code.slice(0, SHORT_EXAMPLE_CHARS)}\n# …` : code,
      ),
    });
  if (memory && memory.positives.length > 0) push({ ...bare, memory: withCode(memory, () => '') });
  if (memory && (memory.positives.length > 0 || memory.negative)) push({ ...bare, memory: null });
  return levels;
}

/** The designer prompt at every trim level. */
export function designerLadder(input: DesignerPromptInput, templates: PromptTemplates): PromptLadder {
  const levels = designerInputLevels(input);
  return (level) => {
    const at = levels[level];
    return at ? buildDesignerPrompt(at, templates) : null;
  };
}

/** The repair prompt at every trim level: the designer prompt it repairs, trimmed the same way, then the reply and the validator's message (both kept whole). */
export function repairLadder(
  designer: PromptLadder,
  reply: string,
  validatorMessage: string,
  templates: PromptTemplates,
): PromptLadder {
  return (level) => {
    const previous: ChatMessage[] | null = designer(level);
    return previous ? buildRepairPrompt(previous, reply, validatorMessage, templates) : null;
  };
}
