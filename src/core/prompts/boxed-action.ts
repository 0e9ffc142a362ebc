import { splitThinking } from './visible-text.ts';

// Longest value taken from a labelled answer line ("Answer: read 7") when a reply has no box.
const MAX_LINE_ANSWER = 60;
// Nested wrappers unwrapped at most this many times (a reply is untrusted text).
const MAX_UNWRAPS = 20;

const WRAPPER = /\\(?:text|textbf|textit|texttt|textrm|textnormal|mathrm|mathbf|mathit|mathsf|mathtt|operatorname|mbox)\s*\{([^{}]*)\}/g;
const FRACTION = /\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}/g;
const SPACES = /\\[ ,;:>]|\\q?quad\b|~/g;
const ANSWER_LINE = /^\s*(?:[-*>]\s*)?(?:\*\*|__)?\s*(?:final\s+)?(?:answer|action|move|choice|答案)\s*(?:\*\*|__)?\s*[:：]\s*(.+?)\s*$/i;

/** The contents of every `\boxed{...}` with balanced braces, in order of appearance. */
export function allBoxes(text: string): string[] {
  const boxes: string[] = [];
  const box = /\\boxed\s*\{/g;
  for (let match = box.exec(text); match; match = box.exec(text)) {
    const open = match.index + match[0].length - 1;
    let depth = 0;
    for (let i = open; i < text.length; i++) {
      if (text[i] === '{') depth++;
      else if (text[i] === '}' && --depth === 0) {
        boxes.push(text.slice(open + 1, i));
        box.lastIndex = i + 1;
        break;
      }
    }
  }
  return boxes;
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

// Full-width forms (U+FF01-FF5E) to ASCII, the ideographic space to a space.
const halfWidth = (text: string) => text.replace(/[\uff01-\uff5e]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0)).replace(/\u3000/g, ' ');

/**
 * A box's content as a game's parser expects it: extra braces, `$...$`, `\text{}`-style wrappers
 * and markdown emphasis removed, `\dfrac{a}{b}` as `a/b`, LaTeX spacing (`\ `, `\,`, `\;`, `~`) as
 * spaces, full-width characters as ASCII and a final period dropped.
 */
export function cleanBoxContent(raw: string): string {
  let text = halfWidth(raw).trim();
  for (let k = 0; k < 3 && text.startsWith('{') && text.endsWith('}'); k++) text = text.slice(1, -1).trim();
  text = text.replace(/^\$+([\s\S]*?)\$+$/, '$1').replace(/^\\\(([\s\S]*)\\\)$/, '$1');
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

// The value of a labelled last line ("Answer: read 7", "**Final answer:** 12"), when short enough to be an action.
function answerLine(visible: string): string | null {
  const lines = visible.split('\n').filter((line) => line.trim() !== '');
  const match = ANSWER_LINE.exec(lines.at(-1) ?? '');
  const value = match ? cleanBoxContent(match[1]!.replace(/^(\*\*|__)|(\*\*|__)$/g, '')) : '';
  return value !== '' && value.length <= MAX_LINE_ANSWER ? value : null;
}

/**
 * The action of a game reply with reply aids on (method.md section 5): the last non-empty box of
 * the visible text, else the last one of its thinking, cleaned by `cleanBoxContent` and re-wrapped
 * as `\boxed{X}`; else a labelled answer on the last visible line; else the visible text (the
 * thinking when nothing is visible), which the game answers with its own format error.
 */
export function aidedAction(reply: string): string {
  const { visible, thinking } = splitThinking(reply);
  for (const part of [visible, thinking]) {
    const boxes = allBoxes(part)
      .map(cleanBoxContent)
      .filter((box) => box !== '');
    if (boxes.length > 0) return `\\boxed{${boxes.at(-1)!}}`;
  }
  const line = answerLine(visible);
  if (line !== null) return `\\boxed{${line}}`;
  return visible.trim() || thinking.trim();
}
