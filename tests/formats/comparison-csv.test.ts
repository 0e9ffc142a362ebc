import { describe, expect, it } from 'vitest';
import { compareRuns } from '../../src/analysis/compare-runs.ts';
import { comparisonCsv } from '../../src/formats/export/comparison-csv.ts';
import { evaluation, meta, metrics, run } from '../analysis/compared-runs.ts';

describe('comparisonCsv', () => {
  it('writes a header and one row per run, empty where a run has no figure', () => {
    const result = compareRuns([
      run('a,1', meta({ useMemory: true }), [metrics(0, 0.5)], [evaluation(1, 0.4)]),
      run('b', meta({ useMemory: false })),
    ]);
    expect(comparisonCsv(result).split('\n')).toEqual([
      'run,epochs,winRate,regret,validity,designerReward,heldOutSuite,heldOutWinRate,heldOutCi95Low,heldOutCi95High,heldOutAfterEpochs,heldOutMinusFirst,heldOutMinusFirstLow,heldOutMinusFirstHigh,useMemory',
      '"a,1",2,0.5,0.25,0.6,0.125,tiny,0.4,0.1,0.9,1,,,,on',
      'b,2,,,,,,,,,,,,,off',
      '',
    ]);
  });
});
