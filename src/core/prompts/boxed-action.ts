import { splitThinking } from './visible-text.ts';

// Longest value taken from a labelled answer line ("Answer: read 7") when a reply has no box.
const MAX_LINE_ANSWER = 60;
// Longest last line searched for such a label.
const MAX_LINE_CHARS = 200;
// Nested wrappers unwrapped at most this many times (a reply is untrusted text).
const MAX_UNWRAPS = 20;
// Boxes read from the end of a reply looking for a non-empty one (each is cleaned, so a reply of
// thousands of empty boxes costs no more than this many).
const MAX_BOXES_READ = 100;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;

const WRAPPER =
  /\\(?:text|textbf|textit|texttt|textrm|textnormal|mathrm|mathbf|mathit|mathsf|mathtt|operatorname|mbox)\s*\{([^{}]*)\}/g;
const FRACTION = /\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g;
const SPACES = /\\[ ,;:>]|\\q?quad\b|~/g;
const ANSWER_LINE =
  /^\s*(?:[-*>]\s*)?(?:\*\*|__)?\s*(?:final\s+)?(?:answer|action|move|choice|答案)\s*(?:\*\*|__)?\s*[:：]\s*(.+?)\s*$/i;

/**
 * Where every `\boxed{...}` with balanced braces opens and closes (`[open, close]`, the indices of
 * its braces), in the order they close (a box after every box inside it): one pass over the text,
 * linear in its length whatever it holds (a reply is untrusted text).
 */
export function boxSpans(text: string): Array<[number, number]> {
  const opensBox = new Uint8Array(text.length);
  for (const match of text.matchAll(/\\boxed\s*\{/g)) opensBox[match.index + match[0].length - 1] = 1;
  const stack = new Int32Array(text.length);
  let depth = 0;
  const spans: Array<[number, number]> = [];
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === OPEN_BRACE) stack[depth++] = i;
    else if (code === CLOSE_BRACE && depth > 0) {
      const open = stack[--depth]!;
      if (opensBox[open] === 1) spans.push([open, i]);
    }
  }
  return spans;
}

function unwrapRepeatedly(text: string, pattern: RegExp, replacement: string): string {
  let current = text;
  for (let k = 0; k < MAX_UNWRAPS; k++) {
    const next = current.replace(pattern, replacement);
    if (next === current) break;
    current = next;
  }
  return current;
}

// The text without the runs of `mark` at its start and its end.
function trimRuns(text: string, mark: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === mark) start++;
  while (end > start && text[end - 1] === mark) end--;
  return text.slice(start, end).trim();
}

// Full-width forms (U+FF01-FF5E) to ASCII, the ideographic space to a space.
const halfWidth = (text: string) =>
  text.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');

/**
 * A box's content as a game's parser expects it: extra braces, `$...$`, `\text{}`-style wrappers
 * and markdown emphasis removed, `\dfrac{a}{b}` as `a/b`, LaTeX spacing (`\ `, `\,`, `\;`, `~`) as
 * spaces, full-width characters as ASCII and a final period dropped.
 */
export function cleanBoxContent(raw: string): string {
  let text = halfWidth(raw).trim();
  for (let k = 0; k < 3 && text.startsWith('{') && text.endsWith('}'); k++) text = text.slice(1, -1).trim();
  if (text.length > 1 && text.startsWith('$') && text.endsWith('$')) text = trimRuns(text, '$');
  text = text.replace(/^\\\(([\s\S]*)\\\)$/, '$1');
  text = unwrapRepeatedly(text, WRAPPER, '$1');
  text = unwrapRepeatedly(text, FRACTION, '$1/$2');
  text = text.replace(SPACES, ' ').replace(/\\!/g, '');
  text = text.replace(/^(\*\*|__|`)([\s\S]+)\1$/, '$2');
  return text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.。!！]$/, '')
    .trim();
}

// The last box of a text to close whose cleaned content is not empty (of its last MAX_BOXES_READ), cleaned; null when there is none.
function lastCleanBox(text: string): string | null {
  const spans = boxSpans(text);
  for (let k = spans.length - 1; k >= Math.max(0, spans.length - MAX_BOXES_READ); k--) {
    const [open, close] = spans[k]!;
    const content = cleanBoxContent(text.slice(open + 1, close));
    if (content !== '') return content;
  }
  return null;
}

// The value of a labelled last line ("Answer: read 7", "**Final answer:** 12"), when short enough to be an action.
function answerLine(visible: string): string | null {
  const last = visible.trimEnd().split('\n').at(-1) ?? '';
  const match = last.length <= MAX_LINE_CHARS ? ANSWER_LINE.exec(last) : null;
  const value = match ? cleanBoxContent(match[1]!.replace(/^(\*\*|__)|(\*\*|__)$/g, '')) : '';
  return value !== '' && value.length <= MAX_LINE_ANSWER ? value : null;
}

/**
 * The action of a game reply with reply aids on (method.md section 5): the last non-empty box of
 * the visible text (among its last MAX_BOXES_READ), else the last one of its thinking, cleaned by
 * `cleanBoxContent` and re-wrapped as `\boxed{X}`; else a labelled answer on the last visible line; else the visible text (the
 * thinking when nothing is visible), which the game answers with its own format error.
 */
export function aidedAction(reply: string): string {
  const { visible, thinking } = splitThinking(reply);
  for (const part of [visible, thinking]) {
    const box = lastCleanBox(part);
    if (box !== null) return `\\boxed{${box}}`;
  }
  const line = answerLine(visible);
  if (line !== null) return `\\boxed{${line}}`;
  return visible.trim() || thinking.trim();
}
