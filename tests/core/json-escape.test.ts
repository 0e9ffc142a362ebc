import { describe, expect, it } from 'vitest';
import { hasShortEscape } from '../../src/core/json-escape.ts';

describe('hasShortEscape', () => {
  it('is true exactly for the units JSON.stringify writes as a backslash and one letter', () => {
    const short: string[] = [];
    const disagree: number[] = [];
    for (let unit = 0; unit <= 0xffff; unit++) {
      const text = String.fromCharCode(unit);
      const written = JSON.stringify(text);
      if (hasShortEscape(unit) !== (written.length === 4 && written[1] === '\\')) disagree.push(unit);
      if (hasShortEscape(unit)) short.push(text);
    }
    expect(disagree).toEqual([]);
    expect(short).toEqual(['\b', '\t', '\n', '\f', '\r', '"', '\\']);
  });
});
