// The held-out chart (x = epochs trained, 95% bootstrap intervals, per skill), its CSV, and the
// evaluation progress lines of the run view.
import { describe, expect, it } from 'vitest';
import { chartCsv } from '../../src/app/charts/chart-csv.ts';
import {
  chartedEvaluations,
  HELD_OUT_ALL_LABEL,
  HELD_OUT_INTERVAL_LABEL,
  heldOutCharts,
} from '../../src/app/charts/chart-heldout.ts';
import { chartSummary, pointCount } from '../../src/app/charts/chart-series.ts';
import { applyEvalEvent, evalProgressText, startedEvaluation } from '../../src/app/suites/eval-progress.ts';
import { summarizeEvaluation, type EvalPlay, type EvalRecord } from '../../src/core/eval/eval-record.ts';
import { jeffreysInterval } from '../../src/core/eval/beta.ts';

const ENVS = [
  ['glow', 'Logical Deduction'],
  ['door', 'Logical Deduction'],
  ['tiles', 'Pattern Recognition'],
] as const;

/** An evaluation whose environment i wins `wins[i]` of its 2 plays. */
function evaluation(afterEpochs: number, wins: readonly number[], patch: Partial<EvalRecord> = {}): EvalRecord {
  const plays: EvalPlay[] = ENVS.flatMap(([envId, skill], i) =>
    [0, 1].map((k) => ({
      envId,
      skill,
      seed: k,
      return: k < wins[i]! ? 1 : 0,
      won: k < wins[i]!,
      turns: 2,
      error: null,
    })),
  );
  return {
    epoch: afterEpochs - 1,
    suite: 'builtin',
    suiteSha256: 'a'.repeat(64),
    afterEpochs,
    trigger: 'schedule',
    playbook: true,
    lessonsShown: 0,
    seedsPerEnvironment: 2,
    ...summarizeEvaluation(plays),
    plays,
    ...patch,
  };
}

describe('heldOutCharts', () => {
  it('draws the overall win rate with a 95% band and each skill with error bars, by epochs trained', () => {
    const evals = [evaluation(0, [0, 1, 0]), evaluation(1, [1, 2, 1]), evaluation(1, [2, 2, 2], { trigger: 'demand' })];
    const [overall, skills] = heldOutCharts(evals);
    expect(overall).toMatchObject({
      id: 'held-out',
      xLabel: 'Epochs trained',
      epochs: [0, 1, 1],
      intervals: { style: 'band', label: HELD_OUT_INTERVAL_LABEL },
    });
    expect(overall!.series).toHaveLength(1);
    expect(overall!.series[0]).toMatchObject({ label: HELD_OUT_ALL_LABEL, values: [1 / 6, 4 / 6, 1] });
    expect(overall!.series[0]!.interval!.lower).toEqual(evals.map((e) => e.ci95[0]));
    expect(overall!.series[0]!.interval!.upper).toEqual(evals.map((e) => e.ci95[1]));
    expect(overall!.description).toContain('95% interval: bootstrap over environments');
    expect(overall!.description).toContain('1 of the 3 evaluations were run on demand.');
    expect(skills).toMatchObject({ id: 'held-out-skills', intervals: { style: 'bars' } });
    expect(skills!.series.map((s) => [s.label, s.values])).toEqual([
      ['Logical Deduction', [0.25, 0.75, 1]],
      ['Pattern Recognition', [0, 0.5, 1]],
    ]);
    expect(pointCount(skills!)).toBe(6);
    expect(chartSummary(overall!)).toBe(
      `Held-out win rate, epochs trained: 1 (the latest of 3): ${HELD_OUT_ALL_LABEL} 1.00 (95% interval ${evals[2]!.ci95[0].toFixed(2)} to ${evals[2]!.ci95[1].toFixed(2)}).`,
    );
  });

  it('draws only the suite of the run’s scheduled evaluations (else the latest), in order of epochs trained, and none without evaluations', () => {
    const old = evaluation(0, [0, 0, 0], { suiteSha256: 'b'.repeat(64) });
    const { shown, otherSuites } = chartedEvaluations([
      old,
      evaluation(2, [1, 1, 1]),
      evaluation(1, [0, 1, 0], { trigger: 'demand' }),
    ]);
    expect(shown.map((e) => e.afterEpochs)).toEqual([1, 2]);
    expect(otherSuites).toBe(1);
    expect(heldOutCharts([old, evaluation(1, [1, 1, 1])])[0]!.description).toContain(
      "1 evaluations on other suites are not drawn (only the suite of the run's scheduled evaluations, or of the latest one, is).",
    );
    const elsewhere = evaluation(2, [2, 2, 2], { trigger: 'demand', suiteSha256: 'c'.repeat(64) });
    expect(
      chartedEvaluations([evaluation(0, [0, 0, 0]), evaluation(1, [1, 1, 1]), elsewhere]).shown.map((e) => [
        e.afterEpochs,
        e.suiteSha256[0],
      ]),
    ).toEqual([
      [0, 'a'],
      [1, 'a'],
    ]);
    expect(chartedEvaluations([elsewhere]).shown).toEqual([elsewhere]);
    expect(heldOutCharts([])).toEqual([]);
  });

  it('exports CSV with the epochs trained and each interval in its own columns', () => {
    const [overall] = heldOutCharts([evaluation(0, [0, 1, 0]), evaluation(3, [2, 2, 2])]);
    const [header, first, second] = chartCsv(overall!).split('\n');
    expect(header).toBe(
      `epochs trained,${HELD_OUT_ALL_LABEL},${HELD_OUT_ALL_LABEL} 95% low,${HELD_OUT_ALL_LABEL} 95% high`,
    );
    expect(first!.split(',').map(Number)).toEqual([
      0,
      1 / 6,
      ...overall!.series[0]!.interval!.lower.slice(0, 1),
      ...overall!.series[0]!.interval!.upper.slice(0, 1),
    ]);
    // Three environments all won: the Jeffreys floor over three environments keeps the low end below 1 (docs/method.md section 7).
    expect(second).toBe(`3,1,${jeffreysInterval(3, 3)[0]},1`);
  });
});

describe('evaluation progress', () => {
  it('follows the scheduled evaluation events and words each phase', () => {
    const record = evaluation(2, [1, 2, 0]);
    let progress = applyEvalEvent(null, { type: 'eval_started', epoch: 1, afterEpochs: 2, total: 48 });
    expect(evalProgressText(progress!)).toBe(
      'Scheduled held-out evaluation after 2 epochs: held-out play 1 of 48 (0 won so far)',
    );
    progress = applyEvalEvent(progress, {
      type: 'eval_play',
      epoch: 1,
      afterEpochs: 2,
      play: record.plays[0]!,
      done: 11,
      total: 48,
    });
    expect(evalProgressText(progress!)).toBe(
      'Scheduled held-out evaluation after 2 epochs: held-out play 12 of 48 (1 won so far)',
    );
    progress = applyEvalEvent(progress, { type: 'eval_completed', epoch: 1, record });
    expect(progress).toMatchObject({ phase: 'done', done: 6, total: 6 });
    expect(evalProgressText(progress!)).toBe(
      `Scheduled held-out evaluation after 2 epochs: win rate 0.50 (95% interval ${record.ci95[0].toFixed(2)} to ${record.ci95[1].toFixed(2)}) over 3 environments of builtin, 6 plays`,
    );
    const demand = startedEvaluation('demand', 1, 0);
    expect(evalProgressText(demand)).toBe(
      'On-demand held-out evaluation after 1 epoch: reading the suite and the model…',
    );
    expect(evalProgressText({ ...demand, total: 8, done: 3, phase: 'cancelled' })).toBe(
      'On-demand held-out evaluation after 1 epoch: cancelled after 3 of 8 plays; nothing was stored',
    );
    expect(evalProgressText({ ...demand, phase: 'failed', error: 'no model' })).toBe(
      'On-demand held-out evaluation after 1 epoch: failed: no model',
    );
    expect(applyEvalEvent(progress, { type: 'epoch_completed', epoch: 1, metrics: {} as never })).toBe(progress);
  });
});
