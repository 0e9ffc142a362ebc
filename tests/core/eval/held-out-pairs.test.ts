// The comparison's held-out answers (docs/method.md section 7): each run against the first, paired
// over the suite's environments, and runs that differ only in their seed taken together.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { pairedDifference, winRateInterval } from '../../../src/core/eval/bootstrap.ts';
import {
  EVAL_BOOTSTRAP_SEED,
  summarizeEvaluation,
  type EvalPlay,
  type EvalRecord,
} from '../../../src/core/eval/eval-record.ts';
import { compareRuns, type ComparedRun } from '../../../src/analysis/compare-runs.ts';
import { heldOutDifference } from '../../../src/analysis/held-out-pairs.ts';
import { comparisonCsv } from '../../../src/formats/export/comparison-csv.ts';

/** An evaluation on `envs` environments (two seeds each) where environment i is won on `wins(i)` of its plays. */
function evaluation(envs: number, wins: (i: number) => number, suiteSha256 = 'suite'): EvalRecord {
  const plays: EvalPlay[] = Array.from({ length: envs }, (_, i) =>
    [0, 1].map((seed) => ({
      envId: `env${i}`,
      skill: 'Optimization',
      seed,
      return: seed < wins(i) ? 1 : 0,
      won: seed < wins(i),
      turns: 1,
      error: null,
    })),
  ).flat();
  return {
    ...summarizeEvaluation(plays),
    epoch: 0,
    suite: 's',
    suiteSha256,
    afterEpochs: 1,
    trigger: 'schedule',
    playbook: false,
    lessonsShown: 0,
    seedsPerEnvironment: 2,
    plays,
  };
}

function run(label: string, config: Partial<Config>, evaluations: EvalRecord[]): ComparedRun {
  return {
    label,
    meta: {
      id: label,
      name: label,
      createdAt: 0,
      updatedAt: 0,
      config: { ...DEFAULT_CONFIG, ...config },
      modelId: 'scripted:x',
      status: 'completed',
      epochsCompleted: 1,
      epochsPlanned: 1,
      lastError: null,
    },
    metrics: [],
    evaluations,
  };
}

describe('the held-out difference from the first run', () => {
  it('is paired over environments: the curriculum winning the half the pool loses gives 0 within plus or minus 5/12', () => {
    const curriculum = evaluation(24, (i) => (i < 12 ? 2 : 0));
    const pool = evaluation(24, (i) => (i < 12 ? 0 : 2));
    const difference = heldOutDifference(curriculum, pool);
    expect(difference).toMatchObject({ kind: 'paired', difference: 0, environments: 24 });
    if (difference.kind !== 'paired') throw new Error('expected a paired difference');
    expect(difference.ci95[0]).toBeCloseTo(-5 / 12, 12);
    expect(difference.ci95[1]).toBeCloseTo(5 / 12, 12);
  });

  it('matches environments by id whatever order the plays came in, and says why runs cannot be paired', () => {
    const a = evaluation(6, (i) => i % 3);
    const b = evaluation(6, () => 1);
    const reversed = { ...b, plays: [...b.plays].reverse() };
    expect(heldOutDifference(a, reversed)).toEqual(heldOutDifference(a, b));
    expect(
      heldOutDifference(
        a,
        evaluation(6, () => 1, 'other'),
      ),
    ).toEqual({ kind: 'unpaired', reason: 'another suite' });
    expect(heldOutDifference(a, { ...b, seedsPerEnvironment: 3 })).toEqual({ kind: 'unpaired', reason: 'other seeds' });
    expect(
      heldOutDifference(
        a,
        evaluation(5, () => 1),
      ),
    ).toEqual({ kind: 'unpaired', reason: 'other environments' });
    expect(heldOutDifference(a, undefined)).toEqual({ kind: 'unpaired', reason: 'not evaluated' });
  });
});

describe('compareRuns', () => {
  it('gives each run its paired difference from the first run and groups runs over seeds with a mean and an interval', () => {
    const fixed = [evaluation(8, (i) => (i < 2 ? 2 : 0)), evaluation(8, (i) => (i < 4 ? 2 : 0))];
    const designed = [evaluation(8, (i) => (i < 6 ? 2 : 0)), evaluation(8, (i) => (i < 8 ? 1 : 0))];
    const runs = [
      run('fixed-1', { seed: 1, useMemory: false }, [fixed[0]!]),
      run('fixed-2', { seed: 2, useMemory: false }, [fixed[1]!]),
      run('designed-1', { seed: 1 }, [designed[0]!]),
      run('designed-2', { seed: 2 }, [designed[1]!]),
    ];
    const comparison = compareRuns(runs);
    expect(comparison.versusFirst[0]).toBeNull();
    const toCounts = (e: EvalRecord) =>
      Array.from({ length: 8 }, (_, i) => ({
        wins: e.plays.filter((p) => p.envId === `env${i}` && p.won).length,
        plays: 2,
      }));
    expect(comparison.versusFirst[2]).toEqual({
      kind: 'paired',
      ...pairedDifference(toCounts(designed[0]!), toCounts(fixed[0]!), EVAL_BOOTSTRAP_SEED)!,
    });
    expect(comparison.versusFirst[2]).toMatchObject({ difference: 0.5 });
    expect(comparison.seedGroups.map((g) => [g.label, g.runs, g.seeds, g.meanWinRate])).toEqual([
      // A switch reads on or off, as the settings tables show it (and as a sweep's cells are named).
      ['useMemory=off', ['fixed-1', 'fixed-2'], [1, 2], (0.25 + 0.5) / 2],
      ['useMemory=on', ['designed-1', 'designed-2'], [1, 2], (0.75 + 0.5) / 2],
    ]);
    // Summed per environment over the two seeds: 4/4 on env0-1, 2/4 on env2-3, 0/4 after for the fixed pool.
    const fixedSums = [4, 4, 2, 2, 0, 0, 0, 0].map((wins) => ({ wins, plays: 4 }));
    expect(comparison.seedGroups[0]!.ci95).toEqual(winRateInterval(fixedSums, EVAL_BOOTSTRAP_SEED));
    // The CSV export carries the same difference and ends.
    const csvRow = comparisonCsv(comparison).split('\n')[3]!.split(',');
    const paired = comparison.versusFirst[2] as { difference: number; ci95: [number, number] };
    expect(csvRow.slice(11, 14).map(Number)).toEqual([paired.difference, ...paired.ci95]);
  });

  it('gives no group interval when a run of the group was not evaluated or played another suite', () => {
    const groups = compareRuns([run('a', { seed: 1 }, [evaluation(4, () => 1)]), run('b', { seed: 2 }, [])]).seedGroups;
    expect(groups).toEqual([
      { label: 'every run', runs: ['a', 'b'], seeds: [1, 2], meanWinRate: 0.5, evaluated: 1, ci95: null },
    ]);
    const mixed = compareRuns([
      run('a', { seed: 1 }, [evaluation(4, () => 1)]),
      run('b', { seed: 2 }, [evaluation(4, () => 1, 'other')]),
    ]).seedGroups;
    expect(mixed[0]!.ci95).toBeNull();
  });
});
