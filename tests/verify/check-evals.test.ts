import { describe, expect, it } from 'vitest';
import { summarizeEvaluation, type EvalPlay, type EvalRecord } from '../../src/core/eval/eval-record.ts';
import { Checker } from '../../src/verify/checker.ts';
import { checkEvaluations } from '../../src/verify/check-evals.ts';

const plays: EvalPlay[] = [
  { envId: 'a', skill: 'Optimization', seed: 1, return: 1, won: true, turns: 2, error: null },
  { envId: 'a', skill: 'Optimization', seed: 2, return: 0, won: false, turns: 3, error: null },
  { envId: 'b', skill: 'Causal Inference', seed: 3, return: 0.5, won: true, turns: 1, error: null },
];
const record: EvalRecord = {
  epoch: 0,
  suite: 's',
  suiteSha256: 'x',
  afterEpochs: 1,
  trigger: 'schedule',
  playbook: false,
  lessonsShown: 0,
  seedsPerEnvironment: 2,
  ...summarizeEvaluation(plays),
  plays,
};

describe('spade verify: held-out evaluations', () => {
  it('accepts figures that follow from the plays', () => {
    const check = new Checker();
    checkEvaluations([record], check);
    expect(check.mismatches).toEqual([]);
    expect(check.checked).toBe(9);
  });

  it('reports a claimed win rate, a forged interval and a play marked won that was not', () => {
    const check = new Checker();
    const forged: EvalRecord = { ...record, winRate: 1, ci95: [0.9, 1], plays: plays.map((p, i) => (i === 1 ? { ...p, won: true } : p)) };
    checkEvaluations([forged], check);
    expect(check.mismatches.map((m) => m.field)).toEqual(['plays[1].won', 'winRate', 'ci95']);
    expect(check.mismatches[1]).toMatchObject({ file: 'evals.jsonl', id: 'eval0(after 1)', stored: 1, recomputed: 2 / 3 });
  });
});
