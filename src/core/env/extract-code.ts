import { withoutThinkBlocks } from '../prompts/visible-text.ts';

/** Removes every `<think>...</think>` block (and an unclosed trailing one) from a model reply. */
export function stripThink(reply: string): string {
  return withoutThinkBlocks(reply).replace(/<think>[\s\S]*$/, '');
}

const PYTHON_FENCE = /```(?:python|py|python3)[ \t]*\r?\n([\s\S]*?)(?:\r?\n)?```/i;
const ANY_FENCE = /```[^\n`]*\r?\n([\s\S]*?)(?:\r?\n)?```/;

/** A line that starts a Python definition or import at the top level. */
const PYTHON_LINE = /^(?:class|def|async\s+def|import|from)\s+[A-Za-z_]|^@[A-Za-z_]/m;

/** True when the reply holds no code: no fenced block (after `<think>` is stripped) and no line that starts a class, function or import. */
export function isProse(reply: string): boolean {
  const text = stripThink(reply);
  return !ANY_FENCE.test(text) && !PYTHON_LINE.test(text);
}

// The reference's extraction: a block fenced exactly as ```python and a newline.
const EXACT_PYTHON_FENCE = /```python\n([\s\S]*?)\n```/;

/**
 * Extracts environment code from a designer reply: `<think>` stripped, then the first fenced
 * python block, else the first fenced block of any language, else the whole reply. With
 * `lenient` false, the reference's rule: the first block fenced exactly as ```python and a
 * newline in the raw reply, else the whole reply.
 */
export function extractCode(reply: string, lenient = true): string {
  if (!lenient) {
    const exact = EXACT_PYTHON_FENCE.exec(reply);
    return (exact ? exact[1]! : reply).trim() + '\n';
  }
  const text = stripThink(reply);
  const fenced = PYTHON_FENCE.exec(text) ?? ANY_FENCE.exec(text);
  return (fenced ? fenced[1]! : text).trim() + '\n';
}
