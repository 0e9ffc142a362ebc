import type { EpochMetrics } from '../../core/records.ts';
import { epochFigures, isScoredEpoch } from '../../core/scoring/epoch-figures.ts';
import type { ChartInput } from './chart-data.ts';

/** One line of a chart: a value per epoch (null where the epoch has none). */
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  /** Palette slot: -1 for the neutral, emphasised "mean" line, 0.. for the others. */
  colorIndex: number;
  /** A 95% interval per point (null where there is none), drawn as the chart's `intervals` say. */
  interval?: { lower: Array<number | null>; upper: Array<number | null> };
}

/** A chart, independent of the drawing library. */
export interface ChartSpec {
  id: string;
  title: string;
  /** One sentence saying what the chart shows and how it is computed. */
  description: string;
  yLabel: string;
  /** Epoch numbers as the app shows them (the first epoch is 1), or the chart's own x values (see `xLabel`). */
  epochs: number[];
  /** Name of the x axis when it is not the epoch (e.g. "Epochs trained"). */
  xLabel?: string;
  /** How the series' intervals are drawn (a shaded band, or error bars), and what they are. */
  intervals?: { style: 'band' | 'bars'; label: string };
  series: ChartSeries[];
  /** Decimal places when values are shown as text. */
  digits: number;
  /** The y axis always spans at least this interval (every chart starts at 0 unless the data goes below). */
  softRange: [number, number];
  /** A shaded horizontal band. */
  band?: { from: number; to: number; label: string };
  /** Draw each line across x values where it has no point (overlaid runs evaluated after different epochs). */
  joinGaps?: boolean;
}

/** The plateau band (docs/method.md section 2): the designer earns the full plateau term for win rates in it. */
export const PLATEAU_BAND = { from: 0.4, to: 0.6, label: 'Plateau band 0.4 to 0.6' } as const;

/** An epoch's means, null where it has nothing to average (for the views' tables). */
export { epochFigures };

/** Label of the across-skills mean line. */
export const MEAN_LABEL = 'Mean (all skills)';

/** The value when it is a finite number, else null. */
export const finite = (value: number | null | undefined): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;

/** Every skill seen in the run's metrics or designer rewards, sorted (the palette follows this order). */
export function skillsOf(input: ChartInput): string[] {
  const names = new Set<string>();
  for (const m of input.metrics) for (const skill of Object.keys(m.perSkill)) names.add(skill);
  for (const e of input.environments) for (const skill of Object.keys(e.designerRewardBySkill)) names.add(skill);
  return [...names].sort();
}

function perSkillChart(input: ChartInput, skills: string[], key: 'meanRegret' | 'meanWinRate'): ChartSeries[] {
  const mean: ChartSeries = {
    label: MEAN_LABEL,
    colorIndex: -1,
    values: input.metrics.map((m) => (isScoredEpoch(m) ? finite(m[key]) : null)),
  };
  const own = skills.map((skill, i) => ({
    label: skill,
    colorIndex: i,
    values: input.metrics.map((m) => (isScoredEpoch(m) && m.perSkill[skill] ? finite(m.perSkill[skill][key]) : null)),
  }));
  return [mean, ...own];
}

/** Every domain of the run's tool-use environments, sorted; empty for cognitive games. */
export function domainsOf(input: ChartInput): string[] {
  return [...new Set(input.environments.flatMap((e) => Object.keys(e.byDomain ?? {})))].sort();
}

// Tool use: the win rate and regret of each everyday domain, as the per-skill charts give them per skill.
function domainCharts(input: ChartInput, epochs: number[]): ChartSpec[] {
  const domains = domainsOf(input);
  if (domains.length === 0) return [];
  const series = (key: 'winRate' | 'regret') =>
    domains.map((domain, i) => ({
      label: domain,
      colorIndex: i,
      values: input.environments.map((e) => finite(e.byDomain?.[domain]?.[key])),
    }));
  const base = { epochs, digits: 2, softRange: [0, 1] as [number, number] };
  return [
    {
      ...base,
      id: 'win-rate-domain',
      title: 'Win rate per domain (tool use)',
      yLabel: 'Win rate',
      band: PLATEAU_BAND,
      description:
        "Mean win rate of the epoch's valid tool-use environments set in each everyday domain (each environment's win rate is the mean return of its unhinted plays).",
      series: series('winRate'),
    },
    {
      ...base,
      id: 'regret-domain',
      title: 'Regret per domain (tool use)',
      yLabel: 'Regret',
      description: "Mean hint-based regret of the epoch's valid tool-use environments set in each everyday domain.",
      series: series('regret'),
    },
  ];
}

/** Builds every chart of a run, in display order (a tool-use run adds the per-domain charts after the per-skill ones). */
export function buildCharts(input: ChartInput): ChartSpec[] {
  const epochs = input.metrics.map((m) => m.epoch + 1);
  const skills = skillsOf(input);
  const timing = new Map(input.timings.map((t) => [t.epoch, t]));
  const seconds = (epoch: number, key: 'totalMs' | 'modelMs' | 'sandboxMs') => {
    const ms = finite(timing.get(epoch)?.[key]);
    return ms === null ? null : ms / 1000;
  };
  const tokens = (m: EpochMetrics, which: 'prompt' | 'completion' | 'total') =>
    finite(
      which === 'prompt'
        ? m.promptTokens
        : which === 'completion'
          ? m.completionTokens
          : m.promptTokens + m.completionTokens,
    );
  return [
    {
      id: 'win-rate',
      title: 'Win rate per skill',
      yLabel: 'Win rate',
      epochs,
      digits: 2,
      softRange: [0, 1],
      band: PLATEAU_BAND,
      description:
        'Mean return of the unhinted plays, per skill and over all skills; the shaded band is the plateau band, where the designer earns the full plateau reward.',
      series: perSkillChart(input, skills, 'meanWinRate'),
    },
    {
      id: 'regret',
      title: 'Regret per skill',
      yLabel: 'Regret',
      epochs,
      digits: 2,
      softRange: [0, 1],
      description:
        'Mean hint-based regret (mean hinted return minus mean matched unhinted return), per skill and over all skills.',
      series: perSkillChart(input, skills, 'meanRegret'),
    },
    ...domainCharts(input, epochs),
    {
      id: 'validity',
      title: 'Validity rate',
      yLabel: 'Valid attempts',
      epochs,
      digits: 2,
      softRange: [0, 1],
      description:
        'Fraction of design attempts that passed the sandbox checks (load, probe, determinism); no data for an epoch without design attempts (a fixed pool).',
      series: [
        { label: 'Validity rate', colorIndex: 0, values: input.metrics.map((m) => finite(epochFigures(m).validity)) },
      ],
    },
    {
      id: 'designer-reward',
      title: 'Designer reward',
      yLabel: 'Designer reward',
      epochs,
      digits: 3,
      softRange: [0, 1],
      description: "Mean designer reward of the epoch's scored environments, over all skills and per skill.",
      series: [
        { label: MEAN_LABEL, colorIndex: -1, values: input.metrics.map((m) => finite(epochFigures(m).designerReward)) },
        ...skills.map((skill, i) => ({
          label: skill,
          colorIndex: i,
          values: input.environments.map((e) => finite(e.designerRewardBySkill[skill])),
        })),
      ],
    },
    {
      id: 'turns-to-win',
      title: 'Environment complexity: turns to win',
      yLabel: 'Turns',
      epochs,
      digits: 1,
      softRange: [0, 1],
      description:
        'Mean number of turns of the won unhinted plays, averaged over the environments that were won at least once.',
      series: [
        { label: 'Mean turns to win', colorIndex: 0, values: input.environments.map((e) => finite(e.meanTurnsToWin)) },
      ],
    },
    {
      id: 'code-length',
      title: 'Environment complexity: code length',
      yLabel: 'Characters',
      epochs,
      digits: 0,
      softRange: [0, 1],
      description: "Mean length in characters of the epoch's valid environments' code.",
      series: [
        {
          label: 'Mean code length (characters)',
          colorIndex: 1,
          values: input.environments.map((e) => finite(e.meanCodeChars)),
        },
      ],
    },
    {
      id: 'tokens',
      title: 'Tokens per epoch',
      yLabel: 'Tokens',
      epochs,
      digits: 0,
      softRange: [0, 1],
      description: 'Prompt and completion tokens of every designer, hint and agent call of the epoch.',
      series: [
        { label: 'Prompt tokens', colorIndex: 0, values: input.metrics.map((m) => tokens(m, 'prompt')) },
        { label: 'Completion tokens', colorIndex: 1, values: input.metrics.map((m) => tokens(m, 'completion')) },
        { label: 'Total tokens', colorIndex: -1, values: input.metrics.map((m) => tokens(m, 'total')) },
      ],
    },
    {
      id: 'time',
      title: 'Time per epoch',
      yLabel: 'Seconds',
      epochs,
      digits: 1,
      softRange: [0, 1],
      description: 'Wall-clock seconds of the epoch, and the parts spent waiting for the model and in the sandbox.',
      series: [
        { label: 'Total (s)', colorIndex: -1, values: input.metrics.map((m) => seconds(m.epoch, 'totalMs')) },
        { label: 'Model (s)', colorIndex: 0, values: input.metrics.map((m) => seconds(m.epoch, 'modelMs')) },
        { label: 'Sandbox (s)', colorIndex: 1, values: input.metrics.map((m) => seconds(m.epoch, 'sandboxMs')) },
      ],
    },
  ];
}

/** Number of values the chart has (nulls not counted). */
export function pointCount(spec: ChartSpec): number {
  return spec.series.reduce((n, s) => n + s.values.filter((v) => v !== null).length, 0);
}

/** A value as text with the chart's decimals, or "no data". */
export function formatValue(value: number | null, digits: number): string {
  return value === null ? 'no data' : value.toFixed(digits);
}

/** A sentence with the latest epoch's values (the chart's text alternative). */
export function chartSummary(spec: ChartSpec): string {
  const last = spec.epochs.length - 1;
  if (last < 0 || pointCount(spec) === 0) return `${spec.title}: no data yet.`;
  const values = spec.series
    .map((s) => `${s.label} ${formatValue(s.values[last] ?? null, spec.digits)}${intervalText(s, last, spec.digits)}`)
    .join('; ');
  const band = spec.band ? ` Shaded: ${spec.band.label.toLowerCase()}.` : '';
  return `${spec.title}, ${xText(spec, last)} (the latest of ${spec.epochs.length}): ${values}.${band}`;
}

/** The x value of point `index` in words: `epoch 3`, or `epochs trained: 2` on a chart with its own x axis. */
export function xText(spec: ChartSpec, index: number): string {
  return spec.xLabel ? `${spec.xLabel.toLowerCase()}: ${spec.epochs[index]}` : `epoch ${spec.epochs[index]}`;
}

/** A point's interval as `0.20 to 0.60`, or null when the series has none there. */
export function intervalRange(series: ChartSeries, index: number, digits: number): string | null {
  const lower = series.interval?.lower[index] ?? null;
  const upper = series.interval?.upper[index] ?? null;
  return lower === null || upper === null ? null : `${lower.toFixed(digits)} to ${upper.toFixed(digits)}`;
}

/** A point's interval as text (` (95% interval 0.20 to 0.60)`), empty when the series has none there. */
export function intervalText(series: ChartSeries, index: number, digits: number): string {
  const range = intervalRange(series, index, digits);
  return range === null ? '' : ` (95% interval ${range})`;
}
