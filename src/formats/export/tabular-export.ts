import type { EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import { epochFigures, isScoredEpoch } from '../../core/scoring/epoch-figures.ts';
import { toJsonLines } from './files.ts';

/**
 * Rollout rows for an RL trainer as JSON Lines: role, messages (the whole sample; assistant
 * messages carry `weight` 1 when trained, the OpenAI fine-tuning convention), reward, advantage,
 * group, envId, epoch.
 */
export function rolloutsJsonl(rows: readonly RolloutRow[]): string {
  return toJsonLines(
    rows.map((r) => ({
      role: r.role,
      messages: r.messages,
      reward: r.reward,
      advantage: r.advantage,
      group: r.group,
      envId: r.envId,
      epoch: r.epoch,
    })),
  );
}

/** Scalar metric columns of the metrics CSV, in order. */
export const METRIC_COLUMNS = [
  'epoch',
  'slots',
  'validEnvironments',
  'attempts',
  'validityRate',
  'meanRegret',
  'meanWinRate',
  'meanDesignerReward',
  'episodes',
  'droppedEpisodes',
  'quarantined',
  'designerScale',
  'promptTokens',
  'completionTokens',
] as const;

/** Timing columns appended after the metrics. */
export const TIMING_COLUMNS = ['totalMs', 'modelMs', 'sandboxMs'] as const;

// A text cell a spreadsheet would read as a formula (or as one after trimming a tab or CR).
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV field: quoted when it holds a comma, quote or line break (RFC 4180). A text value that
 * starts with `=`, `+`, `-`, `@`, a tab or a carriage return gets a `'` in front, so a run name or
 * model id from an imported file opens as text, never as a live formula; numbers are written as
 * they are.
 */
export function csvField(value: string | number | null): string {
  const text =
    value === null ? '' : typeof value === 'string' && FORMULA_START.test(value) ? `'${value}` : String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** A metric column's value: the epoch counted from 1; the means empty where the epoch has nothing to average (no attempt, no scored environment), never 0. */
function metricCell(m: EpochMetrics, column: (typeof METRIC_COLUMNS)[number]): number | null {
  const figures = epochFigures(m);
  if (column === 'validityRate') return figures.validity;
  if (column === 'meanRegret') return figures.regret;
  if (column === 'meanWinRate') return figures.winRate;
  if (column === 'meanDesignerReward') return figures.designerReward;
  // A table for people: epochs counted from 1, as the app and the chart tables show them.
  if (column === 'epoch') return m.epoch + 1;
  return m[column];
}

/**
 * Metrics as CSV (RFC 4180, `\n` line ends): one row per epoch (counted from 1) with the scalar metrics, the
 * timings, then `meanRegret:<skill>`, `meanWinRate:<skill>` and `environments:<skill>` for every
 * skill seen in any epoch (empty when the epoch had none of that skill). A mean the epoch has no
 * data for (validity without design attempts, scores without a scored environment) is empty.
 */
export function metricsCsv(metrics: readonly EpochMetrics[], timings: readonly EpochTimings[]): string {
  const skills = [...new Set(metrics.flatMap((m) => Object.keys(m.perSkill)))].sort();
  const header = [
    ...METRIC_COLUMNS,
    ...TIMING_COLUMNS,
    ...skills.flatMap((s) => [`environments:${s}`, `meanRegret:${s}`, `meanWinRate:${s}`]),
  ];
  const timingOf = new Map(timings.map((t) => [t.epoch, t]));
  const rows = metrics.map((m) => {
    const t = timingOf.get(m.epoch);
    return [
      ...METRIC_COLUMNS.map((c) => metricCell(m, c)),
      ...TIMING_COLUMNS.map((c) => (t ? t[c] : null)),
      ...skills.flatMap((s) => {
        const p = m.perSkill[s];
        return p && isScoredEpoch(m) ? [p.environments, p.meanRegret, p.meanWinRate] : [null, null, null];
      }),
    ];
  });
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\n').join('');
}
