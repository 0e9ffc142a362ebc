import { summarizeEvaluation, type EvalRecord } from '../core/eval/eval-record.ts';
import type { Checker } from './checker.ts';

/**
 * Compares each stored held-out evaluation with its plays: every play is won exactly when it has no
 * error and a return above zero, and the win rates, counts and bootstrap intervals (overall and per
 * skill) are those its plays give.
 */
export function checkEvaluations(evaluations: readonly EvalRecord[], check: Checker): void {
  evaluations.forEach((record, index) => {
    const id = `eval${index}(after ${record.afterEpochs})`;
    const plays = record.plays.map((play) => ({ ...play, won: play.error === null && play.return > 0 }));
    plays.forEach((play, i) => check.value('evals.jsonl', id, `plays[${i}].won`, record.plays[i]!.won, play.won));
    const expected = summarizeEvaluation(plays);
    for (const field of ['environments', 'episodes', 'wins', 'winRate', 'ci95', 'perSkill'] as const) check.value('evals.jsonl', id, field, record[field], expected[field]);
  });
}
