import type { RunComparison, SettingValue } from '../../analysis/compare-runs.ts';
import { csvField } from './tabular-export.ts';

/** The figure columns of the comparison CSV, after `run` and before the differing settings. */
export const COMPARISON_COLUMNS = [
  'epochs',
  'winRate',
  'regret',
  'validity',
  'designerReward',
  'heldOutSuite',
  'heldOutWinRate',
  'heldOutCi95Low',
  'heldOutCi95High',
  'heldOutAfterEpochs',
  'heldOutMinusFirst',
  'heldOutMinusFirstLow',
  'heldOutMinusFirstHigh',
] as const;

const cell = (value: SettingValue): string | number | null =>
  typeof value === 'boolean' ? (value ? 'on' : 'off') : value;

/**
 * A comparison as CSV (RFC 4180, `\n` line ends): a header, then one row per run with its label,
 * its final figures (empty where it has none, e.g. no held-out evaluation), its held-out difference
 * from the first run with the paired interval (empty for the first run and runs not paired with it)
 * and its value of every setting that differs between the runs.
 */
export function comparisonCsv(comparison: RunComparison): string {
  const header = ['run', ...COMPARISON_COLUMNS, ...comparison.differences.map((d) => d.key)];
  const rows = comparison.runs.map((run, i) => {
    const held = run.heldOut;
    const versus = comparison.versusFirst[i];
    const paired = versus?.kind === 'paired' ? versus : null;
    const figures = [
      run.epochs,
      run.winRate,
      run.regret,
      run.validity,
      run.designerReward,
      held?.suite ?? null,
      held?.winRate ?? null,
      held?.ci95[0] ?? null,
      held?.ci95[1] ?? null,
      held?.afterEpochs ?? null,
      paired?.difference ?? null,
      paired?.ci95[0] ?? null,
      paired?.ci95[1] ?? null,
    ];
    return [run.label, ...figures, ...comparison.differences.map((d) => cell(d.values[i] ?? null))];
  });
  return [header, ...rows].map((row) => row.map(csvField).join(',') + '\n').join('');
}
