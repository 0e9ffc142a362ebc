import type { EvalRecord, WinRateSummary } from '../../core/eval/eval-record.ts';
import type { ChartSeries, ChartSpec } from './chart-series.ts';

/** What the held-out charts' intervals are, as they label them. */
export const HELD_OUT_INTERVAL_LABEL = '95% interval: bootstrap over environments';

/** Label of the overall held-out series. */
export const HELD_OUT_ALL_LABEL = 'All held-out environments';

/**
 * The evaluations the held-out charts draw: those on the suite of the latest scheduled one (the
 * run's own suite; without any, of the latest one), since win rates on different suites do not
 * compare, ordered by epochs trained (stored order on ties), and how many of other suites were
 * left out. An on-demand evaluation on another suite so never hides the run's series.
 */
export function chartedEvaluations(evaluations: readonly EvalRecord[]): { shown: EvalRecord[]; otherSuites: number } {
  const anchor = [...evaluations].reverse().find((e) => e.trigger === 'schedule') ?? evaluations.at(-1);
  if (!anchor) return { shown: [], otherSuites: 0 };
  const same = evaluations.filter((e) => e.suiteSha256 === anchor.suiteSha256);
  const shown = same
    .map((record, index) => ({ record, index }))
    .sort((a, b) => a.record.afterEpochs - b.record.afterEpochs || a.index - b.index);
  return { shown: shown.map((s) => s.record), otherSuites: evaluations.length - same.length };
}

function seriesOf(
  label: string,
  colorIndex: number,
  summaries: ReadonlyArray<WinRateSummary | undefined>,
): ChartSeries {
  return {
    label,
    colorIndex,
    values: summaries.map((s) => s?.winRate ?? null),
    interval: { lower: summaries.map((s) => s?.ci95[0] ?? null), upper: summaries.map((s) => s?.ci95[1] ?? null) },
  };
}

function context(shown: readonly EvalRecord[], otherSuites: number): string {
  const latest = shown[shown.length - 1]!;
  const playbook = shown.every((e) => e.playbook)
    ? 'with the playbook in the prompts'
    : shown.some((e) => e.playbook)
      ? 'some with the playbook'
      : 'without a playbook';
  const demand = shown.filter((e) => e.trigger === 'demand').length;
  const parts = [
    `Suite ${latest.suite} (sha256 ${latest.suiteSha256.slice(0, 12)}…), ${latest.environments} environments, ${latest.seedsPerEnvironment} fixed seeds each, unhinted, ${playbook}.`,
    demand > 0 ? `${demand} of the ${shown.length} evaluations were run on demand.` : '',
    otherSuites > 0
      ? `${otherSuites} evaluations on other suites are not drawn (only the suite of the run's scheduled evaluations, or of the latest one, is).`
      : '',
  ];
  return parts.filter(Boolean).join(' ');
}

/** The held-out charts of a run (none without evaluations): the overall win rate with a 95% band, and each skill's with error bars, by epochs trained. */
export function heldOutCharts(evaluations: readonly EvalRecord[]): ChartSpec[] {
  const { shown, otherSuites } = chartedEvaluations(evaluations);
  if (shown.length === 0) return [];
  const epochs = shown.map((e) => e.afterEpochs);
  const skills = [...new Set(shown.flatMap((e) => Object.keys(e.perSkill)))].sort();
  const about = context(shown, otherSuites);
  const common = {
    yLabel: 'Win rate',
    xLabel: 'Epochs trained',
    epochs,
    digits: 2,
    softRange: [0, 1] as [number, number],
  };
  return [
    {
      ...common,
      id: 'held-out',
      title: 'Held-out win rate',
      description: `Share of held-out plays won by the agent after each number of epochs trained (0: before training); the shaded band is the ${HELD_OUT_INTERVAL_LABEL}. ${about}`,
      intervals: { style: 'band', label: HELD_OUT_INTERVAL_LABEL },
      series: [seriesOf(HELD_OUT_ALL_LABEL, -1, shown)],
    },
    {
      ...common,
      id: 'held-out-skills',
      title: 'Held-out win rate per skill',
      description: `Share of each skill's held-out plays won, by epochs trained; the error bars are the ${HELD_OUT_INTERVAL_LABEL} of that skill's environments. ${about}`,
      intervals: { style: 'bars', label: HELD_OUT_INTERVAL_LABEL },
      series: skills.map((skill, i) =>
        seriesOf(
          skill,
          i,
          shown.map((e) => e.perSkill[skill]),
        ),
      ),
    },
  ];
}
