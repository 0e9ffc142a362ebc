import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LONGEST_FIRST, longestFirst } from './longest-first.ts';

const ROOT = resolve(import.meta.dirname, '..');

describe('the longest-first order', () => {
  it('lists only test files that exist, each once', () => {
    expect(LONGEST_FIRST.filter((path) => !path.endsWith('.test.ts') || !existsSync(resolve(ROOT, path)))).toEqual([]);
    expect(new Set(LONGEST_FIRST).size).toBe(LONGEST_FIRST.length);
  });

  it('starts the listed files first, in the list order, and keeps the order of the others', () => {
    const given = [
      'tests/a.test.ts',
      'tests/core/loop/learning-demo.test.ts',
      'tests/b.test.ts',
      'tests/browser/app-experiments.test.ts',
      'tests/c.test.ts',
    ];
    expect(longestFirst(given)).toEqual([
      'tests/browser/app-experiments.test.ts',
      'tests/core/loop/learning-demo.test.ts',
      'tests/a.test.ts',
      'tests/b.test.ts',
      'tests/c.test.ts',
    ]);
    expect(longestFirst([])).toEqual([]);
  });
});
