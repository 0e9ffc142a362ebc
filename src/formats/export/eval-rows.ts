import { summarizeEvaluation, type EvalPlay, type EvalRecord } from '../../core/eval/eval-record.ts';
import { isObject } from './files.ts';

function isEvalPlay(value: unknown): value is EvalPlay {
  if (!isObject(value)) return false;
  const v = value;
  return (
    typeof v.envId === 'string' &&
    typeof v.skill === 'string' &&
    Number.isFinite(v.seed) &&
    Number.isFinite(v.return) &&
    Number.isInteger(v.turns) &&
    (v.error === null || typeof v.error === 'string')
  );
}

/** True for a line of `evals.jsonl` this version can read: the fields it needs, every play well formed. */
export function isEvalRecordShape(v: Record<string, unknown>): boolean {
  return (
    Number.isInteger(v.epoch) &&
    Number.isInteger(v.afterEpochs) &&
    typeof v.suite === 'string' &&
    typeof v.suiteSha256 === 'string' &&
    (v.trigger === 'schedule' || v.trigger === 'demand') &&
    typeof v.playbook === 'boolean' &&
    Array.isArray(v.plays) &&
    v.plays.every(isEvalPlay)
  );
}

/**
 * An imported evaluation with every figure recomputed from its plays (a won play is one without an
 * error whose return is above zero): a file's claimed win rates and intervals are never shown.
 */
export function withRecomputedSummary(record: EvalRecord): EvalRecord {
  const plays = record.plays.map((p) => ({
    envId: p.envId,
    skill: p.skill,
    seed: p.seed,
    return: p.return,
    won: p.error === null && p.return > 0,
    turns: p.turns,
    error: p.error,
  }));
  return {
    ...record,
    plays,
    seedsPerEnvironment: Number.isInteger(record.seedsPerEnvironment) ? record.seedsPerEnvironment : 0,
    lessonsShown: Number.isInteger(record.lessonsShown) ? record.lessonsShown : 0,
    ...summarizeEvaluation(plays),
  };
}
