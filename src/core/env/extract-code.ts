/** Removes every `<think>...</think>` block (and an unclosed trailing one) from a model reply. */
export function stripThink(reply: string): string {
  return reply.replace(/<think>[\s\S]*?<\/think>/g, '').replace(/<think>[\s\S]*$/, '');
}

const PYTHON_FENCE = /```(?:python|py|python3)[ \t]*\r?\n([\s\S]*?)(?:\r?\n)?```/i;
const ANY_FENCE = /```[^\n`]*\r?\n([\s\S]*?)(?:\r?\n)?```/;

/**
 * Extracts environment code from a designer reply: `<think>` stripped, then the first fenced
 * python block, else the first fenced block of any language, else the whole reply.
 */
export function extractCode(reply: string): string {
  const text = stripThink(reply);
  const fenced = PYTHON_FENCE.exec(text) ?? ANY_FENCE.exec(text);
  return (fenced ? fenced[1]! : text).trim() + '\n';
}
