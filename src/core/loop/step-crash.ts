// The reference's failure rule for one play (docs/method.md section 1, "Failures"): an error the
// environment's own reset or step reported through a well-formed harness reply stays inside the
// play. A protocol error, a lost interpreter, an oversized output or a timeout is never one of
// these codes, so it still fails the play.
import type { ResetResult, StepResult } from '../env/contract.ts';
import { isEnvError, STEP_CONTRACT_CODES, type EnvErrorCode } from '../env/env-error.ts';
import type { CallOptions, EnvHandle } from '../ports/sandbox-port.ts';
import type { PlayCrash } from '../records.ts';

/** Step failures the reference's wrapper turns into a losing terminal step: an exception, or a return the contract refuses. */
export const STEP_CRASH_CODES: ReadonlySet<EnvErrorCode> = STEP_CONTRACT_CODES;

/**
 * Step refusals of the tab's contract that the reference's wrapper converts instead (`coerceStepReturns`):
 * a refused reward is one even though float() may fail on it, which the files cannot tell.
 */
export const CONVERTED_STEP_CODES: ReadonlySet<EnvErrorCode> = new Set([
  'step_bad_observation',
  'step_bad_reward',
  'step_bad_flags',
  'step_bad_info',
  'reward_not_finite',
  'reward_out_of_range',
]);

/**
 * Reset refusals of the tab's contract that the reference's wrapper converts instead (`coerceStepReturns`):
 * a refused return is one even though str() may fail on it, which the files cannot tell.
 */
export const CONVERTED_RESET_CODES: ReadonlySet<EnvErrorCode> = new Set([
  'reset_bad_return',
  'reset_empty_observation',
  'reset_bad_info',
]);

/** Reset failures after which the reference plays on from a fixed error observation (with `coerceStepReturns`, only an exception is left to fail). */
export const RESET_CRASH_CODES: ReadonlySet<EnvErrorCode> = new Set([
  'reset_exception',
  'reset_bad_return',
  'reset_empty_observation',
  'reset_bad_info',
]);

/** The first observation of a play whose reset failed under the reference's rule. */
export const RESET_CRASH_OBSERVATION = 'The environment failed to reset; the episode goes on from here.';

/** The reward of a step that crashed under the reference's rule. */
export const CRASH_REWARD = -1;

/** Where a play notes the first crash it kept. */
export interface CrashLog {
  crash?: PlayCrash;
}

function kept(error: unknown, codes: ReadonlySet<EnvErrorCode>, log: CrashLog, at: PlayCrash['at']): boolean {
  if (!isEnvError(error) || !codes.has(error.code)) return false;
  log.crash ??= { at, code: error.code, message: error.message };
  return true;
}

/** Resets; with `keepCrashes` a reset the environment broke gives RESET_CRASH_OBSERVATION instead of failing the play. */
export async function resetKeepingCrashes(
  env: EnvHandle,
  seed: number,
  options: CallOptions,
  keepCrashes: boolean,
  log: CrashLog,
): Promise<ResetResult> {
  try {
    return await env.reset(seed, options);
  } catch (error) {
    if (keepCrashes && kept(error, RESET_CRASH_CODES, log, 'reset'))
      return { observation: RESET_CRASH_OBSERVATION, info: {} };
    throw error;
  }
}

/** Steps; with `keepCrashes` a step the environment broke is a terminal step with reward -1 and the error as its observation. */
export async function stepKeepingCrashes(
  env: EnvHandle,
  action: string,
  options: CallOptions,
  keepCrashes: boolean,
  log: CrashLog,
): Promise<StepResult> {
  try {
    return await env.step(action, options);
  } catch (error) {
    if (keepCrashes && kept(error, STEP_CRASH_CODES, log, 'step')) {
      return {
        observation: `Error: ${(error as Error).message}`,
        reward: CRASH_REWARD,
        terminated: true,
        truncated: false,
        info: {},
      };
    }
    throw error;
  }
}
