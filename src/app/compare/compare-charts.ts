import type { EvalRecord } from '../../core/eval/eval-record.ts';
import type { ComparedRun } from '../../analysis/compare-runs.ts';
import type { EpochMetrics } from '../../core/records.ts';
import { chartedEvaluations, HELD_OUT_INTERVAL_LABEL } from '../charts/chart-heldout.ts';
import { epochFigures } from '../../core/scoring/epoch-figures.ts';
import {
  finite,
  formatValue,
  intervalText,
  PLATEAU_BAND,
  xText,
  type ChartSeries,
  type ChartSpec,
} from '../charts/chart-series.ts';

/** A chart with one line per compared run (its colour slot is the run's index), and the runs it has no point of. */
export interface OverlayChart extends ChartSpec {
  /** Labels of the runs without any point on this chart. */
  empty: string[];
}

/** A run's evaluations as its own held-out chart draws them (chartedEvaluations), by epochs trained (the last stored wins when two share an x). */
function heldOutByEpochs(evaluations: readonly EvalRecord[]): Map<number, EvalRecord> {
  const byX = new Map<number, EvalRecord>();
  for (const e of chartedEvaluations(evaluations).shown) byX.set(e.afterEpochs, e);
  return byX;
}

const union = (lists: Iterable<number>[]): number[] =>
  [...new Set(lists.flatMap((list) => [...list]))].sort((a, b) => a - b);

function emptyOf(runs: readonly ComparedRun[], series: readonly ChartSeries[]): string[] {
  return runs.filter((_, i) => series[i]!.values.every((v) => v === null)).map((run) => run.label);
}

function heldOutChart(runs: readonly ComparedRun[]): OverlayChart {
  const perRun = runs.map((run) => heldOutByEpochs(run.evaluations));
  const epochs = union(perRun.map((m) => m.keys()));
  const series = runs.map((run, i): ChartSeries => {
    const at = epochs.map((x) => perRun[i]!.get(x) ?? null);
    return {
      label: run.label,
      colorIndex: i,
      values: at.map((e) => e?.winRate ?? null),
      interval: { lower: at.map((e) => e?.ci95[0] ?? null), upper: at.map((e) => e?.ci95[1] ?? null) },
    };
  });
  const suites = [...new Set(runs.flatMap((run) => run.evaluations.at(-1)?.suite ?? []))];
  const mixed =
    suites.length > 1
      ? ` The runs were evaluated on different suites (${suites.join(', ')}), so their rates do not compare.`
      : '';
  return {
    id: 'held-out',
    title: 'Held-out win rate',
    description: `Share of held-out plays won after each number of epochs trained (0: before training), each run on the suite of its scheduled evaluations (or of its latest); the whiskers are each point's 95% interval (bootstrap over environments).${mixed}`,
    xLabel: 'Epochs trained',
    yLabel: 'Win rate',
    epochs,
    intervals: { style: 'bars', label: HELD_OUT_INTERVAL_LABEL },
    series,
    digits: 2,
    softRange: [0, 1],
    joinGaps: true,
    empty: emptyOf(runs, series),
  };
}

type EpochChart = Pick<OverlayChart, 'id' | 'title' | 'description' | 'yLabel' | 'digits' | 'band'>;

function epochChart(
  runs: readonly ComparedRun[],
  chart: EpochChart,
  value: (m: EpochMetrics) => number | null,
): OverlayChart {
  const perRun = runs.map((run) => new Map(run.metrics.map((m) => [m.epoch + 1, finite(value(m))])));
  const epochs = union(perRun.map((m) => m.keys()));
  const series = runs.map((run, i): ChartSeries => ({
    label: run.label,
    colorIndex: i,
    values: epochs.map((epoch) => perRun[i]!.get(epoch) ?? null),
  }));
  return { ...chart, epochs, series, softRange: [0, 1], empty: emptyOf(runs, series) };
}

/** The overlay charts of compared runs, in display order: held-out win rate, regret, win rate against the plateau band, validity, designer reward. */
export function overlayCharts(runs: readonly ComparedRun[]): OverlayChart[] {
  return [
    heldOutChart(runs),
    epochChart(
      runs,
      {
        id: 'regret',
        title: 'Mean regret per epoch',
        yLabel: 'Regret',
        digits: 2,
        description:
          'Mean hint-based regret of the epoch over all skills (mean hinted return minus matched unhinted return).',
      },
      (m) => epochFigures(m).regret,
    ),
    epochChart(
      runs,
      {
        id: 'win-rate',
        title: 'Mean win rate per epoch',
        yLabel: 'Win rate',
        digits: 2,
        band: PLATEAU_BAND,
        description:
          'Mean return of the unhinted training plays over all skills; the shaded band is the plateau band, where the designer earns the full plateau reward.',
      },
      (m) => epochFigures(m).winRate,
    ),
    epochChart(
      runs,
      {
        id: 'validity',
        title: 'Validity rate',
        yLabel: 'Valid attempts',
        digits: 2,
        description: 'Fraction of design attempts that passed the sandbox checks.',
      },
      (m) => epochFigures(m).validity,
    ),
    epochChart(
      runs,
      {
        id: 'designer-reward',
        title: 'Designer reward',
        yLabel: 'Designer reward',
        digits: 3,
        description: "Mean designer reward of the epoch's scored environments, over all skills.",
      },
      (m) => epochFigures(m).designerReward,
    ),
  ];
}

/** Each run's latest point in words, the chart's text alternative: `a 0.50 (95% interval 0.20 to 0.80) at epochs trained: 4; b: no data`. */
export function overlaySummary(chart: OverlayChart): string {
  const parts = chart.series.map((s) => {
    const i = s.values.reduce<number>((found, v, k) => (v === null ? found : k), -1);
    return i < 0
      ? `${s.label}: no data`
      : `${s.label} ${formatValue(s.values[i]!, chart.digits)}${intervalText(s, i, chart.digits)} at ${xText(chart, i)}`;
  });
  const band = chart.band ? ` Shaded: ${chart.band.label.toLowerCase()}.` : '';
  return `${chart.title}, each run's latest point: ${parts.join('; ')}.${band}`;
}
