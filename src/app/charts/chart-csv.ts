import { csvField } from '../../formats/export/tabular-export.ts';
import type { ChartSpec } from './chart-series.ts';

/**
 * A chart's data as CSV (RFC 4180 quoting, `\n` line ends): a header row `epoch,<series labels>`
 * (the chart's own x name, lower case, instead of `epoch` when it has one; a series with an
 * interval adds `<label> 95% low` and `<label> 95% high` columns), then one row per point with
 * full-precision values, empty where the series has none.
 */
export function chartCsv(spec: ChartSpec): string {
  const header = [
    (spec.xLabel ?? 'epoch').toLowerCase(),
    ...spec.series.flatMap((s) => (s.interval ? [s.label, `${s.label} 95% low`, `${s.label} 95% high`] : [s.label])),
  ];
  const cells = (s: ChartSpec['series'][number], i: number) =>
    s.interval
      ? [s.values[i] ?? null, s.interval.lower[i] ?? null, s.interval.upper[i] ?? null]
      : [s.values[i] ?? null];
  const rows = spec.epochs.map((epoch, i) => [epoch, ...spec.series.flatMap((s) => cells(s, i))]);
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\n').join('');
}

/** A safe download name: `<run name>-<chart id>.csv`, keeping letters, digits, `-` and `_`. */
export function csvFileName(runName: string, spec: Pick<ChartSpec, 'id'>): string {
  const base = runName
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'run'}-${spec.id}.csv`;
}
