import { describe, expect, it } from 'vitest';
import { validateEnvironment, validationForBudget } from '../../../src/core/env/validate-env.ts';
import { ValidationBudget } from '../../../src/core/env/validation-budget.ts';
import type { EnvHandle, SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import { envError, type ValidationStage } from '../../../src/core/env/env-error.ts';

const CODE = 'class ClockEnv:\n    pass\n';

/**
 * A runtime on a fake clock: a load first waits `waitMs` for its interpreter (the clock moves, the
 * environment runs nothing), then every load, reset and step of the environment itself takes `callMs`.
 * A call whose limit is below `callMs` hangs until the limit and is killed.
 */
function clockRuntime(waitMs: number, callMs: number) {
  let clock = 0;
  const limits: number[] = [];
  const run = <T>(
    limit: number | undefined,
    code: 'load_timeout' | 'reset_timeout' | 'step_timeout',
    value: T,
    stage: ValidationStage = 'probe',
  ): Promise<T> => {
    limits.push(limit ?? Infinity);
    if (limit !== undefined && limit < callMs) {
      clock += limit;
      return Promise.reject(envError(code, stage, { expected: 'an answer', seen: 'none in time', fix: 'none' }));
    }
    clock += callMs;
    return Promise.resolve(value);
  };
  const runtime: SandboxRuntime = {
    warm: async () => undefined,
    checkSyntax: async () => {
      clock += 50;
      return { ok: true };
    },
    close: async () => undefined,
    async load(_code, options) {
      clock += waitMs;
      options.onRunning?.();
      await run(options.timeoutMs, 'load_timeout', null, 'load');
      const handle: EnvHandle = {
        className: 'ClockEnv',
        hasSolution: false,
        reset: (_seed, o) => run(o?.timeoutMs, 'reset_timeout', { observation: 'Say \\boxed{go}.', info: {} }),
        step: (_action, o) =>
          run(o?.timeoutMs, 'step_timeout', {
            observation: 'ok',
            reward: 0,
            terminated: false,
            truncated: false,
            info: {},
          }),
        renew: async () => undefined,
        toolFacts: async () => null,
        executeTool: async () => {
          throw new Error('this fake has no tools outside step');
        },
        solution: async () => null,
        dispose: async () => undefined,
      };
      return handle;
    },
  };
  return { runtime, now: () => clock, limits };
}

describe('the validation budget is charged with the environment time only', () => {
  it('a 20 s wait for an interpreter and the syntax checks cost the budget nothing', async () => {
    const { runtime, now } = clockRuntime(20_000, 100);
    const report = await validateEnvironment(CODE, runtime, {
      maxTurns: 12,
      totalTimeoutMs: 5000,
      callTimeoutMs: 2000,
      now,
    });
    expect(report).toMatchObject({ ok: true, className: 'ClockEnv' });
    // load, reset(42), inspect (free here), three steps, reset(123); the challenge: a reset, four
    // steps, a third reset and a step; determinism: reset(42) and the challenge's first seed again: 15 calls of 100 ms.
    expect(report.envMs).toBe(1500);
    expect(report.ms).toBeGreaterThan(20_000);
  });

  it('a run out budget names the stage, the call and the time the environment took', async () => {
    const { runtime, now } = clockRuntime(20_000, 1500);
    const report = await validateEnvironment(CODE, runtime, {
      maxTurns: 12,
      totalTimeoutMs: 5000,
      callTimeoutMs: 2000,
      now,
    });
    expect(report).toMatchObject({ ok: false, stage: 'probe', code: 'validation_timeout' });
    // load 1500 + reset 1500 + step 1500 = 4500 ms; the next step gets the 500 ms left and is killed there.
    expect(report.envMs).toBe(5000);
    expect(report.message).toContain('it ran for 5000 ms (load 1500 ms, probe 3500 ms)');
    expect(report.message).toContain('at the probe stage, at step("\\\\boxed{test}")');
    expect(report.message).toContain('waiting for the sandbox is not counted');
    expect(report.message).toContain('speed up the probe stage');
    expect(report.message).not.toContain('cheap');
  });

  it('a call that hangs at its own cap keeps its timeout code', async () => {
    const { runtime, now, limits } = clockRuntime(0, 3000);
    const report = await validateEnvironment(CODE, runtime, {
      maxTurns: 12,
      totalTimeoutMs: 5000,
      callTimeoutMs: 2000,
      now,
    });
    expect(report).toMatchObject({ ok: false, stage: 'load', code: 'load_timeout' });
    expect(limits).toEqual([2000]);
  });

  it('a call before any time is charged when nothing is left reports validation_timeout', () => {
    const budget = new ValidationBudget(100, 50, () => 0);
    budget.charge('load', 100);
    expect(() => budget.limit('determinism', 'reset(seed=42)')).toThrow(
      /ran for 100 ms \(load 100 ms\).*determinism stage, at reset\(seed=42\)/,
    );
  });
});

describe('validationForBudget', () => {
  it('keeps the tab per-call cap at the tab budget and raises it with a larger budget', () => {
    expect(validationForBudget(5000)).toMatchObject({ totalTimeoutMs: 5000, callTimeoutMs: 2000 });
    expect(validationForBudget(60_000)).toMatchObject({ totalTimeoutMs: 60_000, callTimeoutMs: 24_000 });
    expect(validationForBudget(1000)).toMatchObject({ totalTimeoutMs: 1000, callTimeoutMs: 1000 });
  });
});
