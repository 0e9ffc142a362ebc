import type {
  FigureChange,
  FigureValue,
  QuantityTally,
  ReferenceComparison,
} from '../core/scoring/reference-recompute.ts';
import type { RuleDifference } from '../core/scoring/reference-rules.ts';
import { count } from './plural.ts';

/** Most plays named in the line about plays left as they ran. */
const NAMED_PLAYS = 5;

const value = (v: FigureValue | unknown): string => {
  if (v === null || v === undefined) return '(none)';
  if (typeof v === 'number') return String(Number(v.toFixed(4)));
  return typeof v === 'string' ? v : JSON.stringify(v);
};

// Epochs count from 1 for people; ids are the run files' own.
const where = (c: FigureChange) => (c.id === 'epoch' ? `epoch ${c.epoch + 1}` : `epoch ${c.epoch + 1} ${c.id}`);

/** One line per quantity that changed: how many of its figures differ, and the largest change. */
function tallyLines(tallies: readonly QuantityTally[], indent: string): string[] {
  const moved = tallies.filter((t) => t.changes.length > 0);
  if (moved.length === 0) return [`${indent}no figure differs`];
  const size = (c: FigureChange) =>
    typeof c.run === 'number' && typeof c.reference === 'number' ? Math.abs(c.reference - c.run) : Infinity;
  return moved.map((t) => {
    const largest = t.changes.reduce((a, b) => (size(b) > size(a) ? b : a));
    return `${indent}${t.quantity}: ${t.changes.length} of ${t.compared} differ, e.g. ${where(largest)}: ${value(largest.run)} -> ${value(largest.reference)}`;
  });
}

const settingOf = (d: RuleDifference) => `${d.knob} (run ${value(d.run)}, reference ${value(d.reference)})`;

/** The reference recomputation as `spade verify` prints it: each recomputed difference with what it changed, then those that need a new run. */
export function referenceLines(comparison: ReferenceComparison): string[] {
  const { differences } = comparison;
  const of = (status: RuleDifference['status']) => differences.filter((d) => d.status === status);
  const lines = [
    `reference rules: ${count(differences.length, 'setting')} ${differences.length === 1 ? 'differs' : 'differ'} from the reference preset: ${of('recomputed').length} recomputed from the stored plays, ${of('replay').length} need a new run, ${of('inactive').length} without effect in this setting`,
  ];
  for (const d of of('recomputed')) {
    lines.push(`  ${settingOf(d)}, recomputed: ${d.why}`, ...tallyLines(d.tallies, '    '));
  }
  for (const d of of('replay')) {
    const touched = d.touched ? `; ${d.touched.plays} of ${d.touched.of} stored plays have ${d.touched.what}` : '';
    lines.push(`  needs a new run, ${settingOf(d)}: ${d.why}${touched}`);
  }
  if (of('inactive').length > 0)
    lines.push(`  without effect in this setting: ${of('inactive').map(settingOf).join(', ')}`);
  const single =
    of('recomputed').length === 1 &&
    JSON.stringify(of('recomputed')[0]!.tallies) === JSON.stringify(comparison.combined);
  if (single) lines.push(`  every recomputable reference rule at once: the same as ${of('recomputed')[0]!.knob} alone`);
  else lines.push('  every recomputable reference rule at once:', ...tallyLines(comparison.combined, '    '));
  const left = comparison.needReplay;
  if (left.length > 0) {
    const named =
      left.slice(0, NAMED_PLAYS).join(', ') +
      (left.length > NAMED_PLAYS ? `, and ${left.length - NAMED_PLAYS} more` : '');
    lines.push(
      `  ${count(left.length, 'play')} left as they ran, since the reference would have played them anew: ${named}`,
    );
  }
  return lines;
}
