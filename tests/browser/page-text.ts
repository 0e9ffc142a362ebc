// The words of the page as a reader sees them. An element's textContent keeps the whitespace of the
// markup it came from (a line break and the indentation of the next source line where the formatter
// wrapped a long sentence); the browser shows every run of HTML whitespace (space, tab, line break,
// form feed) as one space under the default `white-space: normal`. These helpers read text that way,
// so a test compares exactly the words and numbers shown, whatever the markup's line width.
// Elements that show their whitespace (`<pre>`, `white-space: pre-wrap`) are read with textContent.
import type { Locator } from 'playwright-core';

const HTML_WHITESPACE_RUN = /[ \t\n\r\f]+/g;

/** Text as the browser shows it under `white-space: normal`: each run of HTML whitespace is one space, none at either end (a no-break space stays). */
export function asShown(text: string): string {
  return text.replace(HTML_WHITESPACE_RUN, ' ').trim();
}

/** The shown text (asShown of textContent) of the one element `locator` finds; '' when it has none. */
export async function shownText(locator: Locator): Promise<string> {
  return asShown((await locator.textContent()) ?? '');
}

/** The text of the one element `locator` finds, whitespace as it is: for a `<pre>`, which shows it; '' when it has none. */
export async function preText(locator: Locator): Promise<string> {
  return (await locator.textContent()) ?? '';
}

/** The shown text of every element `locator` finds, in page order. */
export async function shownTexts(locator: Locator): Promise<string[]> {
  return (await locator.allTextContents()).map(asShown);
}

/**
 * A text pattern for a locator (getByText, `hasText`) that matches the words of `pattern` however the
 * markup broke its lines: each literal space outside a character class matches one run of HTML
 * whitespace, a space inside a class also any other HTML whitespace, `.` also a line break (the `s`
 * flag: shown text has none), and `^`/`$` at the ends allow the whitespace a block's markup starts or
 * ends with. Playwright tests a RegExp against the raw text, unlike a string, which it compares with
 * whitespace collapsed.
 */
export function shownPattern(pattern: RegExp): RegExp {
  const source = pattern.source;
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i]!;
    if (char === '\\') {
      out += source.slice(i, i + 2);
      i++;
    } else if (inClass) {
      out += char === ' ' ? ' \\t\\n\\r\\f' : char;
      if (char === ']') inClass = false;
    } else if (char === '[') {
      out += char;
      inClass = true;
    } else if (char === ' ') {
      out += '(?:[ \\t\\n\\r\\f]+)';
    } else if (char === '^' && i === 0) {
      out += '^[ \\t\\n\\r\\f]*';
    } else if (char === '$' && i === source.length - 1) {
      out += '[ \\t\\n\\r\\f]*$';
    } else {
      out += char;
    }
  }
  return new RegExp(out, pattern.flags.includes('s') ? pattern.flags : `${pattern.flags}s`);
}
