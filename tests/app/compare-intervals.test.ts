// The compare view's words for the held-out difference from the first run and the "over seeds" table.
import { describe, expect, it } from 'vitest';
import { differenceText, seedGroupRows } from '../../src/app/compare/compare-data.ts';
import type { SeedGroup } from '../../src/analysis/held-out-pairs.ts';

const group = (
  label: string,
  runs: string[],
  meanWinRate: number | null,
  ci95: [number, number] | null,
  evaluated = runs.length,
): SeedGroup => ({
  label,
  runs,
  seeds: runs.map((_, i) => i + 1),
  meanWinRate,
  evaluated,
  ci95,
});

describe('the held-out difference as the compare view says it', () => {
  it('signs the difference and both ends, names the baseline and why a run is not paired', () => {
    expect(differenceText({ kind: 'paired', difference: 0.25, ci95: [-0.0833, 0.5833], environments: 24 })).toBe(
      '+0.25 (\u22120.08 to +0.58) over 24 environments',
    );
    expect(differenceText({ kind: 'paired', difference: 0, ci95: [0, 0], environments: 4 })).toBe(
      '0.00 (0.00 to 0.00) over 4 environments',
    );
    expect(differenceText(null)).toBe('baseline');
    expect(differenceText({ kind: 'unpaired', reason: 'another suite' })).toBe('no paired difference (another suite)');
  });
});

describe('the over-seeds table', () => {
  it('is shown only when two runs differ only in their seed', () => {
    expect(
      seedGroupRows([group('reward=blend', ['a'], 0.5, [0.2, 0.8]), group('reward=regret', ['b'], 0.5, [0.2, 0.8])]),
    ).toBeNull();
  });

  it('gives each group its seeds, mean and interval, and says when there is no interval', () => {
    const rows = seedGroupRows([
      group('reward=blend', ['a', 'b'], 0.375, [0.1, 0.7]),
      group('reward=regret', ['c', 'd'], 0.5, null, 1),
      group('x', ['e'], null, null, 0),
    ]);
    expect(rows).toEqual([
      { label: 'reward=blend', seeds: '1, 2', heldOut: '0.38 (0.10 to 0.70)' },
      {
        label: 'reward=regret',
        seeds: '1, 2',
        heldOut:
          '0.50 (no interval: the runs played different suites or were not all evaluated), 1 of 2 runs evaluated',
      },
      { label: 'x', seeds: '1', heldOut: 'not evaluated' },
    ]);
  });
});
