/** Validation stages, in the order SPADE runs them (docs/method.md section 1, "Validate"). */
export type ValidationStage = 'extract' | 'load' | 'probe' | 'determinism' | 'judge' | 'play';

/** Stable error codes; each names one way an environment can fail the contract. */
export type EnvErrorCode =
  | 'no_code'
  | 'no_code_block'
  | 'syntax_error'
  | 'import_error'
  | 'module_exception'
  | 'no_env_class'
  | 'env_class_is_base'
  | 'reply_cut_off'
  | 'init_exception'
  | 'missing_method'
  | 'reset_exception'
  | 'reset_bad_return'
  | 'reset_empty_observation'
  | 'reset_bad_info'
  | 'step_exception'
  | 'step_bad_return'
  | 'step_bad_observation'
  | 'step_bad_reward'
  | 'reward_not_finite'
  | 'reward_out_of_range'
  | 'step_bad_flags'
  | 'step_bad_info'
  | 'solution_exception'
  | 'replay_reset_exception'
  | 'nondeterministic_reset'
  | 'tool_schema_invalid'
  | 'tool_method_missing'
  | 'tool_name_duplicate'
  | 'tool_first_instruction'
  | 'tool_probe_malformed_action'
  | 'tool_probe_unknown_tool'
  | 'tool_probe_wrong_arguments'
  | 'criteria_count_mismatch'
  | 'criteria_raise_at_reset'
  | 'criteria_true_at_reset'
  | 'not_tool_use'
  | 'judge_unsolvable'
  | 'inspect_exception'
  | 'tool_exception'
  | 'tool_bad_result'
  | 'close_exception'
  | 'output_too_large'
  | 'memory_exhausted'
  | 'process_exit'
  | 'load_timeout'
  | 'reset_timeout'
  | 'step_timeout'
  | 'solution_timeout'
  | 'inspect_timeout'
  | 'tool_timeout'
  | 'close_timeout'
  | 'validation_timeout'
  | 'sandbox_crashed'
  | 'env_lost'
  | 'env_hung'
  | 'bad_harness_reply';

/** A contract failure: a stable code, the stage it happened in, and a message saying expected, seen and fix. */
export class EnvError extends Error {
  override readonly name = 'EnvError';
  constructor(
    readonly code: EnvErrorCode,
    readonly stage: ValidationStage,
    message: string,
  ) {
    super(message);
  }
}

/** Builds an EnvError whose message reads "Expected ... Saw ... Fix: ...". */
export function envError(
  code: EnvErrorCode,
  stage: ValidationStage,
  parts: { expected: string; seen: string; fix: string },
): EnvError {
  return new EnvError(code, stage, `Expected ${parts.expected}. Saw ${parts.seen}. Fix: ${parts.fix}.`);
}

/** True when the value is an EnvError (also across realms, by shape). */
export function isEnvError(value: unknown): value is EnvError {
  return (
    value instanceof EnvError ||
    (typeof value === 'object' && value !== null && (value as { name?: unknown }).name === 'EnvError')
  );
}

/** Failures of one step that the environment itself reported: an exception, or a return the contract refuses (never a timeout or a lost sandbox). */
export const STEP_CONTRACT_CODES: ReadonlySet<EnvErrorCode> = new Set([
  'step_exception',
  'step_bad_return',
  'step_bad_observation',
  'step_bad_reward',
  'reward_not_finite',
  'reward_out_of_range',
  'step_bad_flags',
  'step_bad_info',
]);
