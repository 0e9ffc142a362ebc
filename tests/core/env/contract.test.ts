import { describe, expect, it } from 'vitest';
import {
  checkResetValue,
  checkSolutionValue,
  checkStepValue,
  failureToEnvError,
} from '../../../src/core/env/contract.ts';
import { EnvError } from '../../../src/core/env/env-error.ts';
import type { DescribedValue } from '../../../src/core/env/harness-protocol.ts';

const str = (v: string): DescribedValue => ({ t: 'str', v });
const num = (v: number, t: 'int' | 'float' = 'float'): DescribedValue => ({ t, v });
const bool = (v: boolean): DescribedValue => ({ t: 'bool', v });
const dict = (v: Record<string, unknown> = {}): DescribedValue => ({ t: 'dict', v });
const tuple = (...items: DescribedValue[]): DescribedValue => ({ t: 'tuple', items });

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(EnvError);
    expect((error as EnvError).message).toMatch(/^Expected .*\. Saw .*\. Fix: .*\.$/s);
    return (error as EnvError).code;
  }
  return 'passed';
}

describe('checkResetValue', () => {
  it('accepts (str, dict) and a bare str', () => {
    expect(checkResetValue(tuple(str('hi'), dict({ a: 1 })), 'probe')).toEqual({ observation: 'hi', info: { a: 1 } });
    expect(checkResetValue(str('bare'), 'probe')).toEqual({ observation: 'bare', info: {} });
  });
  it.each<[string, DescribedValue, string]>([
    ['int', num(3, 'int'), 'reset_bad_return'],
    ['3-tuple', tuple(str('a'), dict(), dict()), 'reset_bad_return'],
    ['(int, dict)', tuple(num(1, 'int'), dict()), 'reset_bad_return'],
    ['empty observation', tuple(str(''), dict()), 'reset_empty_observation'],
    ['empty bare str', str(''), 'reset_empty_observation'],
    ['(str, list)', tuple(str('a'), { t: 'other', name: 'list', repr: '[]' }), 'reset_bad_info'],
    ['None', { t: 'NoneType' }, 'reset_bad_return'],
    ['a class named str', { t: 'other', name: 'str', repr: 'fake' }, 'reset_bad_return'],
  ])('%s -> %s', (_name, value, code) => {
    expect(codeOf(() => checkResetValue(value, 'probe'))).toBe(code);
  });
  it('after the harness converted a return (coerceStepReturns), lets an empty observation through and still checks the types', () => {
    expect(checkResetValue(tuple(str(''), dict()), 'play', true)).toEqual({ observation: '', info: {} });
    expect(codeOf(() => checkResetValue(tuple(num(1, 'int'), dict()), 'play', true))).toBe('reset_bad_return');
    expect(codeOf(() => checkResetValue(tuple(str('a'), { t: 'other', name: 'list', repr: '[]' }), 'play', true))).toBe(
      'reset_bad_info',
    );
  });
});

describe('checkStepValue', () => {
  const ok = [str('obs'), num(0.5), bool(false), bool(true), dict()];
  it('accepts a well-formed 5-tuple, ints and bools as rewards', () => {
    expect(checkStepValue(tuple(...ok), 'probe')).toEqual({
      observation: 'obs',
      reward: 0.5,
      terminated: false,
      truncated: true,
      info: {},
    });
    expect(checkStepValue(tuple(str('o'), num(-10, 'int'), bool(true), bool(false), dict()), 'probe').reward).toBe(-10);
    expect(checkStepValue(tuple(str('o'), bool(true), bool(true), bool(false), dict()), 'probe').reward).toBe(1);
  });
  const replace = (index: number, value: DescribedValue) => tuple(...ok.map((item, i) => (i === index ? value : item)));
  it.each([
    ['3-tuple', tuple(str('a'), num(0), bool(false)), 'step_bad_return'],
    ['a bare str', str('a'), 'step_bad_return'],
    ['observation int', replace(0, num(1, 'int')), 'step_bad_observation'],
    ['reward str', replace(1, str('1.0')), 'step_bad_reward'],
    ['reward None', replace(1, { t: 'NoneType' }), 'step_bad_reward'],
    ['reward nan', replace(1, { t: 'float', nonfinite: 'nan' }), 'reward_not_finite'],
    ['reward -inf', replace(1, { t: 'float', nonfinite: '-inf' }), 'reward_not_finite'],
    ['reward 10.5', replace(1, num(10.5)), 'reward_out_of_range'],
    ['reward -50', replace(1, num(-50, 'int')), 'reward_out_of_range'],
    ['terminated int', replace(2, num(1, 'int')), 'step_bad_flags'],
    ['truncated None', replace(3, { t: 'NoneType' }), 'step_bad_flags'],
    ['terminated of a class named bool', replace(2, { t: 'other', name: 'bool', repr: 'True' }), 'step_bad_flags'],
    ['observation of a class named str', replace(0, { t: 'other', name: 'str', repr: 'x' }), 'step_bad_observation'],
    ['info None', replace(4, { t: 'NoneType' }), 'step_bad_info'],
  ])('%s -> %s', (_name, value, code) => {
    expect(codeOf(() => checkStepValue(value, 'probe'))).toBe(code);
  });

  it('after the harness converted a return (coerceStepReturns), lets NaN, infinities and rewards beyond ±10 through', () => {
    const rewardOf = (value: DescribedValue) => checkStepValue(replace(1, value), 'play', true).reward;
    expect([
      rewardOf({ t: 'float', nonfinite: 'nan' }),
      rewardOf({ t: 'float', nonfinite: 'inf' }),
      rewardOf({ t: 'float', nonfinite: '-inf' }),
      rewardOf(num(11)),
      rewardOf(num(-50)),
    ]).toEqual([Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 11, -50]);
  });

  it.each([
    ['reward str', replace(1, str('1.0')), 'step_bad_reward'],
    ['reward None', replace(1, { t: 'NoneType' }), 'step_bad_reward'],
    ['observation None', replace(0, { t: 'NoneType' }), 'step_bad_observation'],
    ['terminated int', replace(2, num(1, 'int')), 'step_bad_flags'],
    ['info list', replace(4, { t: 'other', name: 'list', repr: '[]' }), 'step_bad_info'],
    ['a bare str', str('a'), 'step_bad_return'],
  ])(
    'after the harness converted a return, still refuses what it would not have sent: %s -> %s',
    (_name, value, code) => {
      expect(codeOf(() => checkStepValue(value, 'play', true))).toBe(code);
    },
  );
});

describe('checkSolutionValue', () => {
  it('accepts str and None, rejects others', () => {
    expect(checkSolutionValue(str('go left'), 'play')).toBe('go left');
    expect(checkSolutionValue({ t: 'NoneType' }, 'play')).toBeNull();
    expect(codeOf(() => checkSolutionValue(num(1, 'int'), 'play'))).toBe('solution_exception');
  });
});

describe('failureToEnvError', () => {
  it.each([
    ['syntax', 'load', 'syntax_error'],
    ['import', 'load', 'import_error'],
    ['exec', 'load', 'module_exception'],
    ['init', 'load', 'init_exception'],
    ['no_class', 'load', 'no_env_class'],
    ['missing_method', 'load', 'missing_method'],
    ['exception', 'reset', 'reset_exception'],
    ['exception', 'step', 'step_exception'],
    ['exception', 'solution', 'solution_exception'],
    ['exit', 'reset', 'process_exit'],
    ['memory', 'step', 'memory_exhausted'],
    ['too_large', 'step', 'output_too_large'],
  ] as const)('%s during %s -> %s', (kind, call, code) => {
    const error = failureToEnvError(
      { ok: false, error: kind, type: 'ValueError', msg: 'boom', line: 7 },
      call,
      'probe',
    );
    expect(error.code).toBe(code);
    expect(error.stage).toBe('probe');
    expect(error.message).toContain('Fix:');
  });
  it('names the exception and the line in the message', () => {
    const error = failureToEnvError(
      { ok: false, error: 'exception', type: 'ZeroDivisionError', msg: 'division by zero', line: 14 },
      'step',
      'play',
    );
    expect(error.message).toContain('ZeroDivisionError: division by zero at line 14');
  });
});
