import { describe, expect, it } from 'vitest';
import { chartCsv, csvFileName } from '../../src/app/charts/chart-csv.ts';
import { buildCharts, type ChartSpec } from '../../src/app/charts/chart-series.ts';
import { metric, TWO_EPOCHS } from './chart-fixtures.ts';

const chart = (id: string, charts = buildCharts(TWO_EPOCHS)) => charts.find((c) => c.id === id)!;

describe('chart CSV export', () => {
  it('writes a header row and one row per epoch, empty where a line has no value', () => {
    expect(chartCsv(chart('win-rate'))).toBe('epoch,Mean (all skills),Logic,Spatial\n1,0.5,0.625,0.25\n2,0.45,0.45,\n');
    expect(chartCsv(chart('time'))).toBe('epoch,Total (s),Model (s),Sandbox (s)\n1,45,30,12.5\n2,,,\n');
    expect(chartCsv(chart('validity'))).toBe('epoch,Validity rate\n1,0.6\n2,0.8\n');
  });

  it('keeps full precision', () => {
    const third = buildCharts({ metrics: [metric(0, { validityRate: 1 / 3 })], timings: [], environments: [] });
    expect(chartCsv(chart('validity', third))).toBe('epoch,Validity rate\n1,0.3333333333333333\n');
  });

  it('quotes labels holding commas, quotes and line breaks (RFC 4180)', () => {
    const spec: ChartSpec = {
      id: 'x',
      title: 'x',
      description: '',
      yLabel: 'y',
      epochs: [1],
      digits: 2,
      softRange: [0, 1],
      series: [
        { label: 'Spatial, 2D', colorIndex: 0, values: [0.5] },
        { label: 'say "hi"', colorIndex: 1, values: [null] },
        { label: 'two\nlines', colorIndex: 2, values: [-0.25] },
        { label: 'cr\rhere', colorIndex: 3, values: [1] },
      ],
    };
    expect(chartCsv(spec)).toBe('epoch,"Spatial, 2D","say ""hi""","two\nlines","cr\rhere"\n1,0.5,,-0.25,1\n');
  });

  it('quotes per-skill columns built from skill names with commas', () => {
    const input = {
      ...TWO_EPOCHS,
      metrics: TWO_EPOCHS.metrics.map((m) => ({
        ...m,
        perSkill: { 'A, "B"': { environments: 1, meanRegret: 0.5, meanWinRate: 0.75 } },
      })),
      environments: [],
    };
    expect(chartCsv(chart('regret', buildCharts(input)))).toBe(
      'epoch,Mean (all skills),"A, ""B"""\n1,0.25,0.5\n2,0.375,0.5\n',
    );
  });

  it('an empty run gives the header row only', () => {
    const empty = buildCharts({ metrics: [], timings: [], environments: [] });
    expect(chartCsv(chart('win-rate', empty))).toBe('epoch,Mean (all skills)\n');
    expect(chartCsv(chart('tokens', empty))).toBe('epoch,Prompt tokens,Completion tokens,Total tokens\n');
  });

  it('file names keep letters, digits, dashes and underscores', () => {
    expect(csvFileName('Demo run 1', { id: 'win-rate' })).toBe('Demo-run-1-win-rate.csv');
    expect(csvFileName('../Évaluation: "x"/y', { id: 'tokens' })).toBe('Evaluation-x-y-tokens.csv');
    expect(csvFileName('???', { id: 'time' })).toBe('run-time.csv');
  });
});
