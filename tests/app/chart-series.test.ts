import { describe, expect, it } from 'vitest';
import {
  buildCharts,
  chartSummary,
  formatValue,
  MEAN_LABEL,
  PLATEAU_BAND,
  pointCount,
  skillsOf,
  type ChartSpec,
} from '../../src/app/charts/chart-series.ts';
import { seriesStyle, xRange, yRange, DARK_PALETTE, LIGHT_PALETTE } from '../../src/app/charts/chart-style.ts';
import { envSummary, metric, TWO_EPOCHS } from './chart-fixtures.ts';

const byId = (charts: ChartSpec[], id: string) => charts.find((c) => c.id === id)!;
const lines = (spec: ChartSpec) => Object.fromEntries(spec.series.map((s) => [s.label, s.values]));

describe('chart series builders', () => {
  const charts = buildCharts(TWO_EPOCHS);

  it('builds the eight charts in order, epochs numbered from 1', () => {
    expect(charts.map((c) => c.id)).toEqual([
      'win-rate',
      'regret',
      'validity',
      'designer-reward',
      'turns-to-win',
      'code-length',
      'tokens',
      'time',
    ]);
    for (const c of charts) expect(c.epochs).toEqual([1, 2]);
    for (const c of charts) for (const s of c.series) expect(s.values).toHaveLength(2);
  });

  it('a tool-use run adds win rate and regret per domain after the per-skill charts; games have none', () => {
    const tool = buildCharts({
      ...TWO_EPOCHS,
      environments: [
        envSummary(0, { byDomain: { retail: { winRate: 0.25, regret: 0.5 }, banking: { winRate: 1, regret: 0 } } }),
        envSummary(1, { byDomain: { retail: { winRate: 0.5, regret: 0.25 } } }),
      ],
    });
    expect(tool.map((c) => c.id).slice(0, 4)).toEqual(['win-rate', 'regret', 'win-rate-domain', 'regret-domain']);
    expect(lines(byId(tool, 'win-rate-domain'))).toEqual({ banking: [1, null], retail: [0.25, 0.5] });
    expect(lines(byId(tool, 'regret-domain'))).toEqual({ banking: [0, null], retail: [0.5, 0.25] });
    expect(byId(tool, 'win-rate-domain').band).toBe(PLATEAU_BAND);
    expect(charts.some((c) => c.id.endsWith('-domain'))).toBe(false);
  });

  it('win rate and regret: a mean line plus one per skill (sorted), null where a skill has no environment', () => {
    expect(skillsOf(TWO_EPOCHS)).toEqual(['Logic', 'Spatial']);
    const win = byId(charts, 'win-rate');
    expect(lines(win)).toEqual({ [MEAN_LABEL]: [0.5, 0.45], Logic: [0.625, 0.45], Spatial: [0.25, null] });
    expect(win.band).toEqual({ from: 0.4, to: 0.6, label: 'Plateau band 0.4 to 0.6' });
    expect(win.band).toBe(PLATEAU_BAND);
    expect(win.series.map((s) => s.colorIndex)).toEqual([-1, 0, 1]);
    expect(lines(byId(charts, 'regret'))).toEqual({
      [MEAN_LABEL]: [0.25, 0.375],
      Logic: [0.125, 0.375],
      Spatial: [0.5, null],
    });
    expect(byId(charts, 'regret').band).toBeUndefined();
  });

  it('validity, designer reward (mean and per skill), complexity, tokens and seconds', () => {
    expect(lines(byId(charts, 'validity'))).toEqual({ 'Validity rate': [0.6, 0.8] });
    expect(lines(byId(charts, 'designer-reward'))).toEqual({
      [MEAN_LABEL]: [0.4, 0.55],
      Logic: [0.3, 0.55],
      Spatial: [0.6, null],
    });
    expect(lines(byId(charts, 'turns-to-win'))).toEqual({ 'Mean turns to win': [2.5, null] });
    expect(lines(byId(charts, 'code-length'))).toEqual({ 'Mean code length (characters)': [1200, 1500.5] });
    expect(lines(byId(charts, 'tokens'))).toEqual({
      'Prompt tokens': [1000, 1500],
      'Completion tokens': [250, 400],
      'Total tokens': [1250, 1900],
    });
    expect(lines(byId(charts, 'time'))).toEqual({
      'Total (s)': [45, null],
      'Model (s)': [30, null],
      'Sandbox (s)': [12.5, null],
    });
  });

  it('an epoch without played environments (an imported pool) has no scores, not zeros', () => {
    const pool = buildCharts({
      metrics: [
        metric(0, {
          episodes: 0,
          meanRegret: 0,
          meanWinRate: 0,
          meanDesignerReward: 0,
          perSkill: { Logic: { environments: 5, meanRegret: 0, meanWinRate: 0 } },
        }),
      ],
      timings: [{ epoch: 0, totalMs: 0, modelMs: 0, sandboxMs: 0 }],
      environments: [envSummary(0, { meanTurnsToWin: null, wonEnvironments: 0 })],
    });
    expect(lines(byId(pool, 'win-rate'))).toEqual({ [MEAN_LABEL]: [null], Logic: [null] });
    expect(lines(byId(pool, 'regret'))).toEqual({ [MEAN_LABEL]: [null], Logic: [null] });
    expect(lines(byId(pool, 'designer-reward'))).toEqual({ [MEAN_LABEL]: [null], Logic: [null] });
    expect(lines(byId(pool, 'validity'))).toEqual({ 'Validity rate': [0.6] });
    expect(pointCount(byId(pool, 'win-rate'))).toBe(0);
  });

  it('a fixed pool epoch (no design attempt) has no validity, not 0', () => {
    const pooled = buildCharts({
      metrics: [metric(0, { attempts: 0, validityRate: 0 })],
      timings: [],
      environments: [envSummary(0)],
    });
    expect(lines(byId(pooled, 'validity'))).toEqual({ 'Validity rate': [null] });
  });

  it('non-finite stored values become gaps', () => {
    const odd = buildCharts({
      metrics: [metric(0, { validityRate: Number.NaN, meanRegret: Number.POSITIVE_INFINITY })],
      timings: [],
      environments: [envSummary(0)],
    });
    expect(lines(byId(odd, 'validity'))).toEqual({ 'Validity rate': [null] });
    expect(byId(odd, 'regret').series[0]!.values).toEqual([null]);
  });

  it('an empty run gives eight empty charts with "no data yet" summaries', () => {
    const empty = buildCharts({ metrics: [], timings: [], environments: [] });
    expect(empty).toHaveLength(8);
    for (const c of empty) {
      expect(c.epochs).toEqual([]);
      expect(pointCount(c)).toBe(0);
    }
    expect(chartSummary(byId(empty, 'validity'))).toBe('Validity rate: no data yet.');
  });
});

describe('chart text alternatives', () => {
  const charts = buildCharts(TWO_EPOCHS);

  it('summarises the latest epoch with each line and the band', () => {
    expect(chartSummary(byId(charts, 'win-rate'))).toBe(
      'Win rate per skill, epoch 2 (the latest of 2): Mean (all skills) 0.45; Logic 0.45; Spatial no data. Shaded: plateau band 0.4 to 0.6.',
    );
    expect(chartSummary(byId(charts, 'time'))).toBe(
      'Time per epoch, epoch 2 (the latest of 2): Total (s) no data; Model (s) no data; Sandbox (s) no data.',
    );
    expect(chartSummary(byId(charts, 'tokens'))).toBe(
      'Tokens per epoch, epoch 2 (the latest of 2): Prompt tokens 1500; Completion tokens 400; Total tokens 1900.',
    );
  });

  it('counts values and formats them', () => {
    expect(pointCount(byId(charts, 'win-rate'))).toBe(5);
    expect(formatValue(0.12345, 3)).toBe('0.123');
    expect(formatValue(null, 2)).toBe('no data');
  });
});

describe('chart style', () => {
  it('the mean line uses the text colour; other lines differ in colour and dash', () => {
    expect(seriesStyle(-1, false, '#111')).toEqual({ stroke: '#111', dash: [], width: 2.5 });
    expect(seriesStyle(0, false, '#111').stroke).toBe(LIGHT_PALETTE[0]);
    expect(seriesStyle(0, true, '#111').stroke).toBe(DARK_PALETTE[0]);
    const dashes = [0, 1, 2, 3, 4, 5].map((i) => JSON.stringify(seriesStyle(i, false, '').dash));
    expect(new Set(dashes).size).toBe(6);
    expect(seriesStyle(6, false, '').dash).not.toEqual(seriesStyle(0, false, '').dash);
  });

  it('y range: the soft range, widened (with 5% room) only where the data goes past it', () => {
    expect(yRange(0.2, 0.7, [0, 1])).toEqual([0, 1]);
    expect(yRange(-0.5, 0.5, [0, 1])).toEqual([-0.575, 1]);
    expect(yRange(0, 300, [0, 1])).toEqual([0, 315]);
    expect(yRange(null, null, [0, 1])).toEqual([0, 1]);
    expect(yRange(3, 3, undefined)).toEqual([2, 4]);
  });

  it('x range: half an epoch on each side', () => {
    expect(xRange(1, 2)).toEqual([0.5, 2.5]);
    expect(xRange(null, null)).toEqual([0.5, 1.5]);
  });
});
