import { describe, expect, it } from 'vitest';
import { bootstrapInterval } from '../../src/core/eval/bootstrap.ts';
import {
  countsByEnvironment,
  EVAL_BOOTSTRAP_SEED,
  summarizeEvaluation,
  type EvalPlay,
  type EvalRecord,
} from '../../src/core/eval/eval-record.ts';
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
    const forged: EvalRecord = {
      ...record,
      winRate: 1,
      ci95: [0.9, 1],
      plays: plays.map((p, i) => (i === 1 ? { ...p, won: true } : p)),
    };
    checkEvaluations([forged], check);
    expect(check.mismatches.map((m) => m.field)).toEqual(['plays[1].won', 'winRate', 'ci95']);
    expect(check.mismatches[1]).toMatchObject({
      file: 'evals.jsonl',
      id: 'eval0(after 1)',
      stored: 1,
      recomputed: 2 / 3,
    });
  });

  it('accepts an evaluation stored before the Jeffreys floor, whose intervals are the percentile bootstrap alone, and no other interval', () => {
    const earlier = (some: EvalPlay[]) => bootstrapInterval(countsByEnvironment(some), EVAL_BOOTSTRAP_SEED);
    const perSkill = Object.fromEntries(
      Object.entries(record.perSkill).map(([skill, s]) => [
        skill,
        { ...s, ci95: earlier(plays.filter((p) => p.skill === skill)) },
      ]),
    );
    const stored: EvalRecord = { ...record, ci95: earlier(plays), perSkill };
    expect(stored.ci95).not.toEqual(record.ci95);
    const check = new Checker();
    checkEvaluations([stored], check);
    expect(check.mismatches).toEqual([]);
    const forged = new Checker();
    checkEvaluations([{ ...stored, ci95: [stored.ci95[0], 0.99] }], forged);
    expect(forged.mismatches.map((m) => m.field)).toEqual(['ci95']);
  });
});
