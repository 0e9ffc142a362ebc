import { describe, expect, it } from 'vitest';
import {
  compareEnvironments,
  isScored,
  matchesEnvironmentQuery,
  selectEnvironments,
  sortValue,
} from '../../src/analysis/env-query.ts';
import type { EnvironmentRecord, EnvStats } from '../../src/core/records.ts';

function env(
  id: string,
  epoch: number,
  slot: number,
  skill: string,
  stats: Partial<EnvStats> | null,
): EnvironmentRecord {
  return {
    id,
    epoch,
    slot,
    skill,
    difficulty: 'medium',
    docId: null,
    status: stats ? 'valid' : 'rejected',
    code: '',
    attempts: [],
    memoryShown: { positives: [], negative: null },
    hint: null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: stats
      ? {
          rHint: 0,
          rNoHint: 0,
          regret: 0,
          winRate: 0,
          fractionWon: 0,
          designerReward: 0,
          designerAdvantage: 0,
          hung: false,
          designerGroupSize: 1,
          droppedPlays: 0,
          turnsToWin: null,
          ...stats,
        }
      : null,
  };
}

const ENVS = [
  env('e0001-s00', 1, 0, 'A', { regret: 0.5, winRate: 0.2 }),
  env('e0000-s01', 0, 1, 'B', { regret: 0.5, winRate: 0.9 }),
  env('e0000-s00', 0, 0, 'A', null),
  env('e0001-s01', 1, 1, 'B', { regret: -0.25, winRate: 0.5 }),
  env('e0000-s100', 0, 100, 'A', { regret: 1 }),
  env('e0000-s02', 0, 2, 'A', { regret: Number.NaN }),
];
const ids = (list: EnvironmentRecord[]) => list.map((e) => e.id);

describe('explorer order', () => {
  it('sorts by epoch then slot (not by id), reversed when descending', () => {
    expect(ids(selectEnvironments(ENVS))).toEqual([
      'e0000-s00',
      'e0000-s01',
      'e0000-s02',
      'e0000-s100',
      'e0001-s00',
      'e0001-s01',
    ]);
    expect(ids(selectEnvironments(ENVS, { descending: true }))).toEqual([
      'e0001-s01',
      'e0001-s00',
      'e0000-s100',
      'e0000-s02',
      'e0000-s01',
      'e0000-s00',
    ]);
  });

  it('sorts by a statistic with ties by id, and unscored environments last in both directions', () => {
    expect(ids(selectEnvironments(ENVS, { sortBy: 'regret' }))).toEqual([
      'e0001-s01',
      'e0000-s01',
      'e0001-s00',
      'e0000-s100',
      'e0000-s00',
      'e0000-s02',
    ]);
    expect(ids(selectEnvironments(ENVS, { sortBy: 'regret', descending: true }))).toEqual([
      'e0000-s100',
      'e0001-s00',
      'e0000-s01',
      'e0001-s01',
      'e0000-s02',
      'e0000-s00',
    ]);
  });

  it('treats a non-finite score as unscored', () => {
    expect(isScored(ENVS[5]!)).toBe(false);
    expect(sortValue(ENVS[5]!, 'winRate')).toBeNull();
    expect(sortValue(ENVS[5]!, 'epoch')).toBe(0);
    expect(sortValue(ENVS[0]!, 'winRate')).toBe(0.2);
  });

  it('filters by skill, status and epoch together, then pages', () => {
    expect(matchesEnvironmentQuery(ENVS[0]!, { skill: 'A', epoch: 1, status: 'valid' })).toBe(true);
    expect(matchesEnvironmentQuery(ENVS[0]!, { skill: 'A', epoch: 0 })).toBe(false);
    expect(ids(selectEnvironments(ENVS, { skill: 'A', status: 'valid', sortBy: 'regret', descending: true }))).toEqual([
      'e0000-s100',
      'e0001-s00',
      'e0000-s02',
    ]);
    expect(ids(selectEnvironments(ENVS, { offset: 1, limit: 2 }))).toEqual(['e0000-s01', 'e0000-s02']);
    expect(ids(selectEnvironments(ENVS, { offset: 5, limit: 9 }))).toEqual(['e0001-s01']);
    expect(selectEnvironments(ENVS, { limit: 0 })).toEqual([]);
  });

  it('compares ids by code units, as IndexedDB does', () => {
    const cmp = compareEnvironments('regret');
    expect(cmp(env('Z', 0, 0, 'A', { regret: 1 }), env('a', 0, 0, 'A', { regret: 1 }))).toBeLessThan(0);
  });
});
