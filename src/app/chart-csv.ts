import { csvField } from '../formats/export/tabular-export.ts';
import type { ChartSpec } from './chart-series.ts';

/**
 * A chart's data as CSV (RFC 4180 quoting, `\n` line ends): a header row `epoch,<series labels>`,
 * then one row per epoch (numbered as the app shows them) with full-precision values, empty where
 * the series has none.
 */
export function chartCsv(spec: ChartSpec): string {
  const header = ['epoch', ...spec.series.map((s) => s.label)];
  const rows = spec.epochs.map((epoch, i) => [epoch, ...spec.series.map((s) => s.values[i] ?? null)]);
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
