import type { ChatMessage, ToolSchema } from '../ports/chat-port.ts';
import { aidedAction } from './boxed-action.ts';
import { fillTemplate } from './templates.ts';
import { withoutThinkBlocks } from './visible-text.ts';

/** Heading of the playbook block that opens an agent's first message when lessons are shown. */
export const PLAYBOOK_HEADING = 'PLAYBOOK (lessons you wrote after earlier games of this kind):';

/** The playbook block: the heading and one lesson per line, then an empty line; empty without lessons. */
export function playbookBlock(lessons: readonly string[]): string {
  return lessons.length === 0 ? '' : `${PLAYBOOK_HEADING}\n${lessons.map((l) => `- ${l}`).join('\n')}\n\n`;
}

/** Ends the first message of a cognitive-game episode when reply aids are on: one box, at the end. */
export const ONE_BOX_NOTE =
  '\nGive exactly one \\boxed{} in your reply, at its very end, holding only the action you take.';

/**
 * The first user message of a cognitive-game episode, from the run's agent template (docs/method.md
 * section 4), after the playbook block when lessons are shown (first, so every play of a skill in
 * an epoch shares the prefix), and ending with ONE_BOX_NOTE when reply aids are on.
 */
export function agentFirstMessage(
  observation: string,
  template: string,
  lessons: readonly string[] = [],
  aids = false,
): ChatMessage {
  return {
    role: 'user',
    content: playbookBlock(lessons) + fillTemplate(template, { observation }) + (aids ? ONE_BOX_NOTE : ''),
  };
}

/** The first user message of a tool-use episode: the playbook block, then the run's tool-use agent template with one JSON line per tool. */
export function toolAgentFirstMessage(
  observation: string,
  tools: readonly ToolSchema[],
  template: string,
  lessons: readonly string[] = [],
): ChatMessage {
  return {
    role: 'user',
    content: playbookBlock(lessons) + fillTemplate(template, { tools: toolSchemaBlock(tools), observation }),
  };
}

/** The tool schemas as the first tool-use message lists them, one JSON object a line; a backend that sends the same tools natively (`tools=`) puts TOOLS_SENT_NATIVELY in its place, so the model does not read them twice. */
export function toolSchemaBlock(tools: readonly ToolSchema[]): string {
  return tools.map((tool) => JSON.stringify(tool)).join('\n');
}

/** What stands for the schema block when the backend gives the model the tools itself. */
export const TOOLS_SENT_NATIVELY = '(the tools and their schemas are given with this request)';

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
      for (let k = 0; k < 2 && content.startsWith('{') && content.endsWith('}'); k++)
        content = content.slice(1, -1).trim();
      return content;
    }
  }
  return null;
}

/**
 * The action sent to the environment. With reply aids on, `aidedAction` reads it (the last box of
 * the visible text, unwrapped). Otherwise the reference's rule: closed `<think>` blocks removed,
 * then the boxed answer re-wrapped as `\boxed{X}`, else the remaining text. An unclosed `<think>`
 * (a reply cut off mid thought) is kept, so a `\boxed{}` after it still counts, as in SPADE, which
 * strips nothing.
 */
export function parseAction(reply: string, aids = false): string {
  if (aids) return aidedAction(reply);
  const text = withoutThinkBlocks(reply);
  const boxed = extractBoxed(text);
  return boxed ? `\\boxed{${boxed}}` : text.trim();
}
