import { describe, expect, it } from 'vitest';
import { count } from '../../src/formats/plural.ts';

describe('counts in file problems', () => {
  it('writes the singular for one and the plural otherwise, never "(s)"', () => {
    expect([count(0, 'record'), count(1, 'record'), count(2, 'record'), count(2, 'mismatch', 'mismatches')]).toEqual([
      '0 records',
      '1 record',
      '2 records',
      '2 mismatches',
    ]);
  });
});
