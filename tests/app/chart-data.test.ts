import { beforeAll, describe, expect, it } from 'vitest';
import { ChartDataLoader, type ChartStore } from '../../src/app/charts/chart-data.ts';
import { summarizeEnvironments } from '../../src/analysis/epoch-summary.ts';
import { buildCharts } from '../../src/app/charts/chart-series.ts';
import { chartCsv } from '../../src/app/charts/chart-csv.ts';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import type { EnvironmentRecord, EnvStats } from '../../src/core/records.ts';
import { scriptedEpochs, testMeta } from '../adapters/store/store-fixtures.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';

// The view data, the store or the re-score is the point, not Python: the scripted games run as in-process doubles.
const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);

function stats(patch: Partial<EnvStats>): EnvStats {
  return {
    rHint: 1,
    rNoHint: 0.5,
    regret: 0.5,
    winRate: 0.5,
    fractionWon: 0.5,
    designerReward: 0.5,
    designerAdvantage: 0,
    hung: false,
    designerGroupSize: 1,
    droppedPlays: 0,
    turnsToWin: null,
    ...patch,
  };
}

function env(id: string, patch: Partial<EnvironmentRecord>): EnvironmentRecord {
  return {
    id,
    epoch: 0,
    slot: 0,
    skill: 'Logic',
    difficulty: 'easy',
    docId: null,
    status: 'valid',
    code: '',
    attempts: [],
    memoryShown: { positives: [], negative: null },
    hint: null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
    ...patch,
  };
}

describe('summarizeEnvironments', () => {
  it('averages turns to win over won environments, code length in characters, designer reward per skill', () => {
    const summary = summarizeEnvironments(3, [
      env('a', { epoch: 3, code: 'abcd', stats: stats({ turnsToWin: 2, designerReward: 0.2 }) }),
      env('b', { epoch: 3, code: 'é👍xx', skill: 'Spatial', stats: stats({ turnsToWin: 5, designerReward: 0.9 }) }),
      env('c', { epoch: 3, code: 'abcdefghij', stats: stats({ turnsToWin: null, designerReward: 0.4 }) }),
      env('d', { epoch: 3, code: 'unscored', stats: null }),
      env('e', { epoch: 3, code: 'rejected code is not counted', status: 'rejected', stats: null }),
      env('f', { epoch: 2, code: 'other epoch', stats: stats({ turnsToWin: 9 }) }),
      env('g', { epoch: 3, code: 'nan', stats: stats({ turnsToWin: Number.NaN, designerReward: Number.NaN }) }),
    ]);
    expect(summary).toEqual({
      epoch: 3,
      environments: 5,
      wonEnvironments: 2,
      meanTurnsToWin: 3.5,
      meanCodeChars: (4 + 4 + 10 + 8 + 3) / 5,
      designerRewardBySkill: { Logic: (0.2 + 0.4) / 2, Spatial: 0.9 },
    });
  });

  it('tool use: averages win rate and regret per domain over the scored valid environments', () => {
    const summary = summarizeEnvironments(1, [
      env('a', { epoch: 1, domain: 'retail', stats: stats({ winRate: 0.2, regret: 0.6 }) }),
      env('b', { epoch: 1, domain: 'retail', stats: stats({ winRate: 0.6, regret: 0.2 }) }),
      env('c', { epoch: 1, domain: 'banking', stats: stats({ winRate: 1, regret: 0 }) }),
      env('d', { epoch: 1, domain: 'telecom', stats: null }),
      env('e', { epoch: 1, domain: 'travel booking', status: 'rejected', stats: null }),
      env('f', { epoch: 1, domain: 'banking', stats: stats({ winRate: Number.NaN }) }),
    ]);
    expect(summary.byDomain).toEqual({ retail: { winRate: 0.4, regret: 0.4 }, banking: { winRate: 1, regret: 0 } });
    expect('byDomain' in summarizeEnvironments(1, [env('g', { epoch: 1, domain: 'retail', stats: null })])).toBe(false);
  });

  it('an epoch without valid environments has no means', () => {
    expect(summarizeEnvironments(0, [])).toEqual({
      epoch: 0,
      environments: 0,
      wonEnvironments: 0,
      meanTurnsToWin: null,
      meanCodeChars: null,
      designerRewardBySkill: {},
    });
  });
});

describe('ChartDataLoader over a real store', () => {
  let epochs: EpochResult[];
  beforeAll(async () => {
    epochs = await scriptedEpochs(sandbox, 2);
  });

  it('reads the chart rows once per load; each epoch carries the summary of its valid environments taken at commit', async () => {
    const store = new MemoryRunStore();
    await store.createRun(testMeta('r1'));
    let reads = 0;
    const counting: ChartStore = {
      chartRowsOf: (id) => {
        reads++;
        return store.chartRowsOf(id);
      },
    };
    const loader = new ChartDataLoader(counting);
    expect(await loader.load('r1')).toEqual({ metrics: [], timings: [], environments: [] });
    expect(buildCharts(await loader.load('r1')).map((c) => chartCsv(c).split('\n').length)).toEqual([
      2, 2, 2, 2, 2, 2, 2, 2,
    ]);

    await store.commitEpoch('r1', epochs[0]!);
    const first = await loader.load('r1');
    await store.commitEpoch('r1', epochs[1]!);
    const second = await loader.load('r1');
    expect(reads).toBe(4);
    expect(second.environments[0]).toEqual(first.environments[0]);

    expect(second.metrics).toEqual(epochs.map((e) => e.metrics));
    expect(second.timings).toEqual(epochs.map((e) => e.timings));
    for (const [i, epoch] of epochs.entries()) {
      expect(second.environments[i]).toEqual(summarizeEnvironments(i, epoch.environments));
      expect(second.environments[i]!.environments).toBe(epoch.metrics.validEnvironments);
    }
    const charts = buildCharts(second);
    expect(charts.find((c) => c.id === 'validity')!.series[0]!.values).toEqual(
      epochs.map((e) => e.metrics.validityRate),
    );
    const csv = chartCsv(charts.find((c) => c.id === 'win-rate')!)
      .trimEnd()
      .split('\n');
    expect(csv).toHaveLength(3);
    expect(csv[0]).toBe('epoch,Mean (all skills),Logical Deduction');
  });

  it('starts over for another run', async () => {
    const store = new MemoryRunStore();
    await store.createRun(testMeta('a'));
    await store.createRun(testMeta('b'));
    await store.commitEpoch('a', epochs[0]!);
    const loader = new ChartDataLoader(store);
    expect((await loader.load('a')).environments).toHaveLength(1);
    expect(await loader.load('b')).toEqual({ metrics: [], timings: [], environments: [] });
    expect((await loader.load('a')).environments).toHaveLength(1);
  });
});
