import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { overlayCharts, overlaySummary } from '../../src/app/compare/compare-charts.ts';
import { Comparison } from '../../src/app/compare/comparison.svelte.ts';
import { loadComparison, runLabels } from '../../src/app/compare/compare-data.ts';
import { PLATEAU_BAND, pointCount } from '../../src/app/charts/chart-series.ts';
import { evaluation, meta, metrics, run } from '../analysis/compared-runs.ts';
import { storeSyntheticRuns, syntheticEvaluation, syntheticMeta } from './compare-fixtures.ts';

const byId = (runs: Parameters<typeof overlayCharts>[0]) =>
  Object.fromEntries(overlayCharts(runs).map((c) => [c.id, c]));

describe('overlayCharts', () => {
  it('draws one series per run, coloured by run, on the union of the runs’ epochs', () => {
    const charts = byId([
      run('a', meta(), [metrics(0, 0.5), metrics(1, 0.75)]),
      run('b', meta(), [metrics(0, 0.25), metrics(1, 0.5), metrics(2, 0.5)]),
    ]);
    expect(Object.keys(charts)).toEqual(['held-out', 'regret', 'win-rate', 'validity', 'designer-reward']);
    const win = charts['win-rate']!;
    expect(win.epochs).toEqual([1, 2, 3]);
    expect(win.series.map((s) => [s.label, s.colorIndex, s.values])).toEqual([
      ['a', 0, [0.5, 0.75, null]],
      ['b', 1, [0.25, 0.5, 0.5]],
    ]);
    expect(win.band).toEqual(PLATEAU_BAND);
    expect(win.joinGaps).toBeUndefined();
    expect(charts.regret!.series[1]!.values).toEqual([0.25, 1.25, 2.25]);
    expect(charts.validity!.series[0]!.values).toEqual([0.6, 0.6, null]);
    expect(charts['designer-reward']!.series[0]!.values).toEqual([0.125, 0.125, null]);
  });

  it('leaves out unscored epochs, except from validity', () => {
    const unscored = { ...metrics(0, 0.5), validEnvironments: 0 };
    const charts = byId([run('a', meta(), [unscored]), run('b', meta(), [metrics(0, 0.25)])]);
    expect(charts['win-rate']!.series[0]!.values).toEqual([null]);
    expect(charts['win-rate']!.empty).toEqual(['a']);
    expect(charts.validity!.series[0]!.values).toEqual([0.6]);
  });

  it('puts held-out evaluations at epochs trained with their intervals, joins a run’s points across others’ x, and names the runs not evaluated', () => {
    const a = run('a', meta(), [], [evaluation(0, 0.2), evaluation(2, 0.4)]);
    const b = run('b', meta(), [], [evaluation(0, 0.3), evaluation(3, 0.5), evaluation(3, 0.6)]);
    const c = run('c', meta());
    const held = byId([a, b, c])['held-out']!;
    expect(held.epochs).toEqual([0, 2, 3]);
    expect(held.xLabel).toBe('Epochs trained');
    expect(held.joinGaps).toBe(true);
    expect(held.series[0]!.values).toEqual([0.2, 0.4, null]);
    expect(held.series[1]!.values).toEqual([0.3, null, 0.6]);
    expect(held.series[1]!.interval).toEqual({ lower: [0.1, null, 0.1], upper: [0.9, null, 0.9] });
    expect(held.empty).toEqual(['c']);
    expect(pointCount(held)).toBe(4);
    expect(overlaySummary(held)).toBe(
      "Held-out win rate, each run's latest point: a 0.40 (95% interval 0.10 to 0.90) at epochs trained: 2; b 0.60 (95% interval 0.10 to 0.90) at epochs trained: 3; c: no data.",
    );
  });

  it('draws each run’s latest suite only and says when the runs’ suites differ', () => {
    const a = run('a', meta(), [], [syntheticEvaluation(0, 0.1, 'old'), syntheticEvaluation(1, 0.3, 'builtin')]);
    const b = run('b', meta(), [], [syntheticEvaluation(1, 0.5, 'other')]);
    const held = byId([a, b])['held-out']!;
    expect(held.epochs).toEqual([1]);
    expect(held.description).toContain('evaluated on different suites (builtin, other)');
    expect(byId([a, a])['held-out']!.description).not.toContain('different suites');
  });
});

describe('loadComparison and Comparison', () => {
  it('reads the selected runs in order, numbers repeated names, and lists the unevaluated and the missing', async () => {
    const store = new MemoryRunStore();
    const ids = await storeSyntheticRuns(store, 2, 6);
    await store.createRun({ ...syntheticMeta('fresh', { reward: 'solve_rate' }), name: 'run-0' });
    const data = await loadComparison(store, ['run-1', 'gone', 'run-0', 'fresh']);
    expect(data.ids).toEqual(['run-1', 'gone', 'run-0', 'fresh']);
    expect(data.runs.map((r) => r.label)).toEqual(['run-1', 'run-0', 'run-0 (2)']);
    expect(data.missing).toEqual(['gone']);
    expect(data.unevaluated).toEqual(['run-0 (2)']);
    expect(data.comparison.differences.find((d) => d.key === 'reward')!.values).toEqual([
      'regret',
      'blend',
      'solve_rate',
    ]);
    expect(data.charts[0]!.epochs).toEqual([5]);
    expect(ids).toEqual(['run-0', 'run-1']);
  });

  it('keeps a selection, reads it, and exports the comparison as CSV through the save function', async () => {
    const store = new MemoryRunStore();
    await storeSyntheticRuns(store, 3, 2);
    const saved: Array<{ name: string; content: string; type: string }> = [];
    const compare = new Comparison({ store, save: (name, content, type) => saved.push({ name, content, type }) });
    expect(compare.exportCsv()).toBeNull();
    compare.toggle('run-2', true);
    compare.toggle('run-0', true);
    compare.toggle('run-1', true);
    compare.toggle('run-2', false);
    expect(compare.selected).toEqual(['run-0', 'run-1']);
    await compare.load();
    expect(compare.loading).toBe(false);
    expect(compare.data!.runs.map((r) => r.label)).toEqual(['run-0', 'run-1']);
    expect(compare.exportCsv()).toBe('spade-comparison-2-runs.csv');
    const lines = saved[0]!.content.trim().split('\n');
    expect(saved[0]!.type).toBe('text/csv;charset=utf-8');
    expect(lines[0]).toMatch(/^run,epochs,winRate,.*,seed,reward$/);
    expect(lines[1]).toMatch(/^run-0,2,.*,1,blend$/);
    compare.select(['run-2', 'run-2', 'run-1']);
    expect(compare.selected).toEqual(['run-2', 'run-1']);
  });

  it('numbers only the repeats of a name', () => {
    expect(runLabels(['a', 'b', 'a', 'a'])).toEqual(['a', 'b', 'a (2)', 'a (3)']);
  });

  it('never gives two runs one label, whatever the names', () => {
    expect(runLabels(['Twin', 'Twin (2)', 'Twin'])).toEqual(['Twin', 'Twin (2)', 'Twin (3)']);
    expect(runLabels(['a (2)', 'a', 'a', 'a (2)'])).toEqual(['a (2)', 'a', 'a (3)', 'a (2) (2)']);
    const hostile = ['x', 'x (2)', 'x (3)', 'x', 'x', 'x (2)', 'x (2) (2)', 'x (2)'];
    expect(new Set(runLabels(hostile)).size).toBe(hostile.length);
  });
});
