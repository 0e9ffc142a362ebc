// The browser tests' reading of page text (tests/browser/page-text.ts): markup line breaks read as the
// one space the browser shows, and nothing else about the words or numbers is relaxed.
import { describe, expect, it } from 'vitest';
import { asShown, shownPattern } from './browser/page-text.ts';

describe('asShown', () => {
  it('reads a wrapped line of markup as the one line the browser shows', () => {
    expect(asShown('\n    Without the hint, the agent met 0 of 3, with returns\n        0.00.\n  ')).toBe(
      'Without the hint, the agent met 0 of 3, with returns 0.00.',
    );
  });

  it('collapses tabs, carriage returns and form feeds but keeps a no-break space and the words as they are', () => {
    expect(asShown('a\t\r\f b\u00a0 c')).toBe('a b\u00a0 c');
    expect(asShown('ab')).toBe('ab');
  });
});

describe('shownPattern', () => {
  const wrapped = 'Without the hint, the agent met 0 of 3, with returns\n        0.00.';

  it('matches the words of a sentence the markup broke across lines', () => {
    expect(/with returns 0\.00/.test(wrapped)).toBe(false);
    expect(shownPattern(/with returns 0\.00/).test(wrapped)).toBe(true);
  });

  it('stays as strict about the words and numbers as the pattern it came from', () => {
    const pattern = shownPattern(/with returns 0\.00/);
    expect(pattern.test('with returns 0.01')).toBe(false);
    expect(pattern.test('with returns0.00')).toBe(false);
    expect(pattern.test('with\u00a0returns 0.00')).toBe(false);
  });

  it('lets `.` cross a line break of the markup, as it crosses the space the browser shows there', () => {
    expect(shownPattern(/^Saved .*-pool\.zip/).test('Saved run\n  one-pool.zip')).toBe(true);
    expect(shownPattern(/^Saved .*-pool\.zip/).test('Saved run one.zip')).toBe(false);
  });

  it('lets anchors pass the whitespace a block starts and ends with, and nothing else', () => {
    const pattern = shownPattern(/^1 environment$/);
    expect(pattern.test('\n  1\n  environment\n')).toBe(true);
    expect(pattern.test('x 1 environment')).toBe(false);
    expect(pattern.test('1 environments')).toBe(false);
  });

  it('widens a space inside a character class to every HTML whitespace, and leaves escapes and flags alone', () => {
    expect(shownPattern(/domain: [\w ]+$/).test('domain: smart\n  home')).toBe(true);
    expect(shownPattern(/a\sb/).source).toBe('a\\sb');
    expect(shownPattern(/a b/gi).flags).toBe('gis');
    expect(shownPattern(/a [^\]]b c/).test('a xb\nc')).toBe(true);
  });
});
