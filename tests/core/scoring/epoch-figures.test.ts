import { describe, expect, it } from 'vitest';
import { epochFigures, isScoredEpoch } from '../../../src/core/scoring/epoch-figures.ts';
import { metrics } from '../../analysis/compared-runs.ts';

describe('epochFigures', () => {
  it("keeps a scored epoch's means", () => {
    expect(epochFigures(metrics(0, 0.5))).toEqual({ validity: 0.6, regret: 0.25, winRate: 0.5, designerReward: 0.125 });
  });

  it('has no scores for an epoch with no valid environment, but its measured validity', () => {
    const rejected = {
      ...metrics(0, 0),
      validEnvironments: 0,
      episodes: 0,
      validityRate: 0,
      meanRegret: 0,
      meanDesignerReward: 0,
    };
    expect(isScoredEpoch(rejected)).toBe(false);
    expect(epochFigures(rejected)).toEqual({ validity: 0, regret: null, winRate: null, designerReward: null });
  });

  it('has no validity for an epoch without design attempts (a fixed pool)', () => {
    expect(epochFigures({ ...metrics(0, 0.5), attempts: 0, validityRate: 0 }).validity).toBeNull();
  });
});
