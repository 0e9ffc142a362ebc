// Odd `step` returns under the reference preset's failure rule (docs/method.md section 5, "Failed
// plays"): each return the contract refuses ends the play with a kept -1, never a dropped play.
// Beside each case, what the reference's game wrapper makes of it, read by hand from its step():
// a non-5-tuple is "Invalid game response" at -1, an exception is "Error: ..." at -1, and
// otherwise the observation goes through str(), the reward through float(), the flags through
// bool() and a non-dict info becomes {}, with no range or finiteness check.
import { describe, expect, it } from 'vitest';
import { checkStepValue } from '../../../src/core/env/contract.ts';
import type { DescribedValue } from '../../../src/core/env/harness-protocol.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { CRASH_REWARD, STEP_CRASH_CODES, stepKeepingCrashes, type CrashLog } from '../../../src/core/loop/step-crash.ts';

const str = (v: string): DescribedValue => ({ t: 'str', v });
const num = (v: number, t: 'int' | 'float' = 'float'): DescribedValue => ({ t, v });
const bool = (v: boolean): DescribedValue => ({ t: 'bool', v });
const NONE: DescribedValue = { t: 'NoneType' };
const OK = [str('obs'), num(1), bool(true), bool(false), { t: 'dict', v: {} } as DescribedValue];
const tuple = (...items: DescribedValue[]): DescribedValue => ({ t: 'tuple', items });
const replace = (index: number, value: DescribedValue) => tuple(...OK.map((item, i) => (i === index ? value : item)));

/** A handle whose step returns `value` through the host's contract check, as the sandbox runtime does. */
function handle(value: DescribedValue): EnvHandle {
  return { step: async () => checkStepValue(value, 'play') } as unknown as EnvHandle;
}

// [case, the return, the refusal code here, the reference wrapper's (reward, terminated)]
const CASES: Array<[string, DescribedValue, string, [number, boolean]]> = [
  ['a 4-tuple', tuple(...OK.slice(0, 4)), 'step_bad_return', [-1, true]],
  ['a bare str', str('done'), 'step_bad_return', [-1, true]],
  ['a reward float() cannot read', replace(1, str('win')), 'step_bad_reward', [-1, true]],
  ['a numeric string reward', replace(1, str('1.0')), 'step_bad_reward', [1, true]],
  ['a None reward', replace(1, NONE), 'step_bad_reward', [0, true]],
  ['a None observation', replace(0, NONE), 'step_bad_observation', [1, true]],
  ['an int observation', replace(0, num(5, 'int')), 'step_bad_observation', [1, true]],
  ['an int terminated flag', replace(2, num(0, 'int')), 'step_bad_flags', [1, false]],
  ['a None truncated flag', replace(3, NONE), 'step_bad_flags', [1, true]],
  ['a list info', replace(4, { t: 'other', name: 'list', repr: '[]' }), 'step_bad_info', [1, true]],
  ['a NaN reward', replace(1, { t: 'float', nonfinite: 'nan' }), 'reward_not_finite', [Number.NaN, true]],
  ['a reward of 11', replace(1, num(11)), 'reward_out_of_range', [11, true]],
];

describe("odd step returns under the reference preset's failure rule", () => {
  it.each(CASES)('%s is refused (%s) and kept as a terminal -1', async (_name, value, code) => {
    const log: CrashLog = {};
    const step = await stepKeepingCrashes(handle(value), 'go', { timeoutMs: 1000 }, true, log);
    expect([step.reward, step.terminated, step.truncated, log.crash?.at, log.crash?.code]).toEqual([CRASH_REWARD, true, false, 'step', code]);
    expect(STEP_CRASH_CODES.has(log.crash!.code)).toBe(true);
    // Under the tab's rule the same return fails the play instead.
    const failed = await stepKeepingCrashes(handle(value), 'go', { timeoutMs: 1000 }, false, {}).catch((error: unknown) => error);
    expect(isEnvError(failed) && failed.code === code).toBe(true);
  });

  it('agrees with the reference on the returns its wrapper turns into -1, and differs (as the table says) on those it coerces', () => {
    const agrees = CASES.filter(([, , , [reward, terminated]]) => reward === CRASH_REWARD && terminated).map(([name]) => name);
    expect(agrees).toEqual(['a 4-tuple', 'a bare str', 'a reward float() cannot read']);
    expect(CASES.length - agrees.length).toBe(9);
  });
});
