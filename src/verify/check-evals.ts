import { bootstrapInterval } from '../core/eval/bootstrap.ts';
import {
  countsByEnvironment,
  EVAL_BOOTSTRAP_SEED,
  summarizeEvaluation,
  type EvalPlay,
  type EvalRecord,
} from '../core/eval/eval-record.ts';
import { sameValue, type Checker } from './checker.ts';

// The interval evaluations stored before the Jeffreys floor (docs/method.md section 7) hold: the percentile bootstrap alone.
const earlierInterval = (plays: readonly EvalPlay[]) =>
  bootstrapInterval(countsByEnvironment(plays), EVAL_BOOTSTRAP_SEED);

// The interval a stored one is checked against: the current rule's, or the earlier rule's when that is what it holds.
function intervalFor(stored: unknown, current: [number, number], plays: readonly EvalPlay[]): [number, number] {
  if (sameValue(stored, current) || plays.length === 0) return current;
  const earlier = earlierInterval(plays);
  return sameValue(stored, earlier) ? earlier : current;
}

/**
 * Compares each stored held-out evaluation with its plays: every play is won exactly when it has no
 * error and a return above zero, and the win rates, counts and intervals (overall and per skill)
 * are those its plays give; an interval may follow the current rule or, for an evaluation stored
 * before the Jeffreys floor, the percentile bootstrap alone.
 */
export function checkEvaluations(evaluations: readonly EvalRecord[], check: Checker): void {
  evaluations.forEach((record, index) => {
    const id = `eval${index}(after ${record.afterEpochs})`;
    const plays = record.plays.map((play) => ({ ...play, won: play.error === null && play.return > 0 }));
    plays.forEach((play, i) => check.value('evals.jsonl', id, `plays[${i}].won`, record.plays[i]!.won, play.won));
    const summary = summarizeEvaluation(plays);
    const perSkill = Object.fromEntries(
      Object.entries(summary.perSkill).map(([skill, figures]) => [
        skill,
        {
          ...figures,
          ci95: intervalFor(
            record.perSkill[skill]?.ci95,
            figures.ci95,
            plays.filter((p) => p.skill === skill),
          ),
        },
      ]),
    );
    const expected = { ...summary, ci95: intervalFor(record.ci95, summary.ci95, plays), perSkill };
    for (const field of ['environments', 'episodes', 'wins', 'winRate', 'ci95', 'perSkill'] as const)
      check.value('evals.jsonl', id, field, record[field], expected[field]);
  });
}
