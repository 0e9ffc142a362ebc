/** One block of a text from an opening tag to the first closing tag after it. */
export interface TagBlock {
  /** Index of the opening tag. */
  start: number;
  /** Index just past the closing tag. */
  end: number;
  /** The opening tag's match (its groups hold what the tag names, as in `<function=NAME>`). */
  head: RegExpExecArray;
  /** The text between the two tags. */
  inner: string;
}

const globalCopy = (pattern: RegExp) =>
  new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);

/**
 * Every block from a match of `open` to the first match of `close` after it, leftmost first and
 * not overlapping: what the lazy pattern `open([\s\S]*?)close` finds, but in time linear in the
 * text, since the search stops at the first opening tag with no closing tag after it (no later one
 * has one either), where the lazy pattern would scan to the end from every such tag (a reply is
 * untrusted text). `open` must not match the empty string.
 */
export function tagBlocks(text: string, open: RegExp, close: RegExp): TagBlock[] {
  const opener = globalCopy(open);
  const closer = globalCopy(close);
  const blocks: TagBlock[] = [];
  for (let head = opener.exec(text); head; head = opener.exec(text)) {
    closer.lastIndex = head.index + head[0].length;
    const tail = closer.exec(text);
    if (!tail) break;
    blocks.push({
      start: head.index,
      end: tail.index + tail[0].length,
      head,
      inner: text.slice(head.index + head[0].length, tail.index),
    });
    opener.lastIndex = tail.index + tail[0].length;
  }
  return blocks;
}

/** The text with the given blocks (from `tagBlocks`, in order) removed. */
export function withoutBlocks(text: string, blocks: readonly TagBlock[]): string {
  let out = '';
  let from = 0;
  for (const block of blocks) {
    out += text.slice(from, block.start);
    from = block.end;
  }
  return out + text.slice(from);
}
