import { tagBlocks, withoutBlocks } from './tag-blocks.ts';

/** A reply split into what the model shows and what it thought. */
export interface ReplyParts {
  /** The reply without its thinking. */
  visible: string;
  /** The thinking, every block in order, joined by line breaks. */
  thinking: string;
}

const OPEN = '<think>';
const CLOSE = '</think>';

/**
 * Splits a reply into its visible text and its thinking (method.md section 5, reply aids): closed
 * `<think>` blocks are thinking; a `</think>` without its opening tag (a chat template that opens
 * the block itself) makes everything before it thinking; an unclosed `<think>` (a reply cut off
 * mid-thought) makes everything after it thinking.
 */
export function splitThinking(reply: string): ReplyParts {
  const blocks = tagBlocks(reply, /<think>/i, /<\/think>/i);
  const thoughts = blocks.map((block) => block.inner);
  let visible = withoutBlocks(reply, blocks);
  const close = visible.toLowerCase().lastIndexOf(CLOSE);
  if (close >= 0) {
    thoughts.unshift(visible.slice(0, close));
    visible = visible.slice(close + CLOSE.length);
  }
  const open = visible.toLowerCase().indexOf(OPEN);
  if (open >= 0) {
    thoughts.push(visible.slice(open + OPEN.length));
    visible = visible.slice(0, open);
  }
  return { visible, thinking: thoughts.join('\n') };
}

/** The reply without its closed `<think>...</think>` blocks (lower-case tags, as the reference strips them). */
export function withoutThinkBlocks(reply: string): string {
  return withoutBlocks(reply, tagBlocks(reply, /<think>/, /<\/think>/));
}
