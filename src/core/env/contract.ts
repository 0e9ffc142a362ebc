import { envError, type EnvError, type EnvErrorCode, type ValidationStage } from './env-error.ts';
import type { DescribedValue, HarnessFailure } from './harness-protocol.ts';

/** What `reset` gives once it passes the contract. */
export interface ResetResult {
  observation: string;
  info: Record<string, unknown>;
}

/** What `step` gives once it passes the contract. */
export interface StepResult {
  observation: string;
  reward: number;
  terminated: boolean;
  truncated: boolean;
  info: Record<string, unknown>;
}

/** The environment call a harness reply answers (`inspect`: the tool-use facts validation reads; `tool`: `execute_tool`; `close`: the environment's own close()). */
export type EnvCall = 'load' | 'reset' | 'step' | 'solution' | 'inspect' | 'tool' | 'close';

/** Largest absolute step reward the contract allows. */
export const MAX_ABS_REWARD = 10;

const NUMERIC = new Set(['int', 'float', 'bool']);

/** Describes a harness value in words, for "Saw ..." messages. */
export function describeSeen(value: DescribedValue): string {
  if (value.t === 'tuple')
    return `a tuple of ${value.items?.length ?? 0} items (${(value.items ?? []).map((i) => (i.t === 'other' ? `class ${i.name ?? '?'}` : i.t)).join(', ')})`;
  if (value.t === 'other')
    return `an instance of class ${JSON.stringify(value.name ?? '?')}${value.repr ? ` (${value.repr})` : ''}`;
  if (value.t === 'NoneType') return 'None';
  if (value.t === 'str') return `a str of ${String(value.v ?? '').length} characters`;
  if (value.nonfinite) return `${value.t} ${value.nonfinite}`;
  if (value.v !== undefined && value.t !== 'dict') return `${value.t} ${JSON.stringify(value.v)}`;
  return `a ${value.t}${value.repr ? ` ${value.repr}` : ''}`;
}

function describeException(failure: HarnessFailure): string {
  const where = typeof failure.line === 'number' ? ` at line ${failure.line}` : '';
  return `${failure.type ?? 'an exception'}: ${failure.msg ?? ''}${where}`.trim();
}

const EXCEPTION_CODE: Record<EnvCall, EnvErrorCode> = {
  load: 'module_exception',
  reset: 'reset_exception',
  step: 'step_exception',
  solution: 'solution_exception',
  inspect: 'inspect_exception',
  tool: 'tool_exception',
  close: 'close_exception',
};

const CALL_TEXT: Record<EnvCall, string> = {
  load: 'the module to run and the environment class to construct',
  reset: 'reset(seed) to return (observation, info)',
  step: 'step(action) to return (observation, reward, terminated, truncated, info)',
  solution: 'solution() to return a string',
  inspect: 'get_tools() and the message criteria to be readable after reset',
  tool: 'execute_tool(name, arguments) to return its output',
  close: 'close() to return without raising',
};

/** Converts a harness failure of one call into the matching contract error. */
export function failureToEnvError(failure: HarnessFailure, call: EnvCall, stage: ValidationStage): EnvError {
  const seen = describeException(failure);
  switch (failure.error) {
    case 'syntax':
      return envError('syntax_error', stage, {
        expected: 'valid Python 3 source',
        seen: `SyntaxError: ${failure.msg ?? ''}${typeof failure.line === 'number' ? ` at line ${failure.line}` : ''}`,
        fix: 'correct the syntax on that line; in f-strings double literal braces ({{ and }})',
      });
    case 'import':
      return envError('import_error', stage, {
        expected: 'only Python standard-library imports',
        seen,
        fix: 'remove the import or use the standard library (numpy and other packages are not available)',
      });
    case 'exec':
      return envError('module_exception', stage, {
        expected: 'the module body to run without raising',
        seen,
        fix: 'make top-level code only define classes, functions and constants',
      });
    case 'init':
      return envError('init_exception', stage, {
        expected: `${failure.cls ?? 'the environment class'}() or (max_turns=N) to construct without raising`,
        seen,
        fix: 'initialise every attribute in __init__ with defaults and accept max_turns as an optional keyword',
      });
    case 'no_class':
      return envError('no_env_class', stage, {
        expected: "a module-level class whose name ends in 'Env'",
        seen: `classes ${JSON.stringify(failure.classes ?? [])}`,
        fix: "name the environment class like 'MazeEnv'",
      });
    case 'missing_method':
      return envError('missing_method', stage, {
        expected: `${failure.cls ?? 'the class'} to define reset and step`,
        seen: `no ${(failure.missing ?? []).join(' or ')}`,
        fix: 'implement reset(self, seed=None) and step(self, action)',
      });
    case 'exit':
      return envError('process_exit', stage, {
        expected: `${CALL_TEXT[call]} without exiting`,
        seen: `SystemExit ${failure.msg ?? ''}`.trim(),
        fix: 'never call sys.exit, exit or quit; return a terminal step instead',
      });
    case 'memory':
      return envError('memory_exhausted', stage, {
        expected: `${CALL_TEXT[call]} within the sandbox memory`,
        seen: 'MemoryError',
        fix: 'keep state small; do not build huge lists or strings',
      });
    case 'too_large':
      return envError('output_too_large', stage, {
        expected: `the ${failure.what ?? 'output'} to be at most ${failure.limit ?? '?'} characters`,
        seen: `${failure.size ?? '?'} characters`,
        fix: 'keep observations short: describe the state, do not dump it',
      });
    default:
      return envError(EXCEPTION_CODE[call], stage, {
        expected: `${CALL_TEXT[call]} without raising`,
        seen,
        fix: 'handle every input, including garbage actions, and always return the documented tuple',
      });
  }
}

function isDict(value: DescribedValue | undefined): boolean {
  return value?.t === 'dict' && typeof value.v === 'object' && value.v !== null;
}

/**
 * Checks a described `reset` return against the contract (a bare string is tolerated); `coerced` when the
 * harness already converted it as the reference's wrapper does, which lets an empty observation through.
 */
export function checkResetValue(value: DescribedValue, stage: ValidationStage, coerced = false): ResetResult {
  const pair = value.t === 'tuple' ? (value.items ?? []) : null;
  const obsValue = pair ? pair[0] : value;
  if ((pair && pair.length !== 2) || obsValue?.t !== 'str') {
    throw envError('reset_bad_return', stage, {
      expected: 'reset() to return (observation: str, info: dict) or a str',
      seen: describeSeen(value),
      fix: 'end reset with `return observation, {}`',
    });
  }
  const observation = String(obsValue.v ?? '');
  if (observation.length === 0 && !coerced) {
    throw envError('reset_empty_observation', stage, {
      expected: 'a non-empty observation string from reset()',
      seen: 'an empty string',
      fix: 'describe the goal, the state and the available actions in the first observation',
    });
  }
  if (pair && !isDict(pair[1])) {
    throw envError('reset_bad_info', stage, {
      expected: 'info to be a dict',
      seen: describeSeen(pair[1]!),
      fix: 'return {} (or a dict of extra facts) as the second item',
    });
  }
  return { observation, info: pair ? (pair[1]!.v as Record<string, unknown>) : {} };
}

const NONFINITE_REWARD: Readonly<Record<string, number>> = {
  nan: Number.NaN,
  inf: Number.POSITIVE_INFINITY,
  '-inf': Number.NEGATIVE_INFINITY,
};

function checkReward(value: DescribedValue, stage: ValidationStage, coerced: boolean): number {
  if (!NUMERIC.has(value.t)) {
    throw envError('step_bad_reward', stage, {
      expected: 'a numeric reward (int or float)',
      seen: describeSeen(value),
      fix: 'return a float reward such as 0.0 or 1.0',
    });
  }
  if (coerced && value.t === 'float') {
    const number = value.nonfinite ? NONFINITE_REWARD[value.nonfinite] : value.v;
    if (typeof number === 'number') return number;
  }
  if (value.nonfinite || (typeof value.v !== 'number' && typeof value.v !== 'boolean')) {
    throw envError('reward_not_finite', stage, {
      expected: 'a finite reward',
      seen: describeSeen(value),
      fix: 'never return nan or inf; clamp rewards into [-10, 10]',
    });
  }
  const reward = Number(value.v);
  if (Math.abs(reward) > MAX_ABS_REWARD) {
    throw envError('reward_out_of_range', stage, {
      expected: `a reward within [-${MAX_ABS_REWARD}, ${MAX_ABS_REWARD}]`,
      seen: `reward ${reward}`,
      fix: "use 1.0 for a win and 0.0 otherwise (only the last step's reward counts)",
    });
  }
  return reward;
}

/**
 * Checks a described `step` return against the contract; `coerced` when the harness already converted it
 * as the reference's wrapper does, which lets a non-finite float reward and one beyond ±10 through.
 */
export function checkStepValue(value: DescribedValue, stage: ValidationStage, coerced = false): StepResult {
  const items = value.t === 'tuple' ? (value.items ?? []) : [];
  if (items.length !== 5) {
    throw envError('step_bad_return', stage, {
      expected: 'step() to return a 5-tuple (observation, reward, terminated, truncated, info)',
      seen: describeSeen(value),
      fix: 'return all five values on every path, including invalid actions',
    });
  }
  const [obs, reward, terminated, truncated, info] = items as [
    DescribedValue,
    DescribedValue,
    DescribedValue,
    DescribedValue,
    DescribedValue,
  ];
  if (obs.t !== 'str') {
    throw envError('step_bad_observation', stage, {
      expected: 'the observation to be a str',
      seen: describeSeen(obs),
      fix: 'build the observation with an f-string or str()',
    });
  }
  const checkedReward = checkReward(reward, stage, coerced);
  for (const [name, flag] of [
    ['terminated', terminated],
    ['truncated', truncated],
  ] as const) {
    if (flag.t !== 'bool') {
      throw envError('step_bad_flags', stage, {
        expected: `${name} to be a real bool`,
        seen: describeSeen(flag),
        fix: `return True or False for ${name} (wrap it in bool(...))`,
      });
    }
  }
  if (!isDict(info)) {
    throw envError('step_bad_info', stage, {
      expected: 'info to be a dict',
      seen: describeSeen(info),
      fix: 'return {} (or a dict of extra facts) as the fifth item',
    });
  }
  return {
    observation: String(obs.v ?? ''),
    reward: checkedReward,
    terminated: terminated.v === true,
    truncated: truncated.v === true,
    info: info.v as Record<string, unknown>,
  };
}

/** Checks a described `execute_tool` return: a str is the output, a dict gives its `output` (as text; '' when absent), anything else fails with `tool_bad_result`. */
export function checkToolResultValue(value: DescribedValue, stage: ValidationStage): string {
  if (value.t === 'str') return String(value.v ?? '');
  if (isDict(value)) {
    const output = (value.v as Record<string, unknown>).output;
    if (output === undefined || output === null) return '';
    return typeof output === 'string' ? output : JSON.stringify(output);
  }
  throw envError('tool_bad_result', stage, {
    expected: 'execute_tool to return a str or a dict with an "output"',
    seen: describeSeen(value),
    fix: 'return the tool\'s result text (or {"output": text, "returncode": 0})',
  });
}

/** Checks a described `solution` return: a str, or null when the environment has none. */
export function checkSolutionValue(value: DescribedValue, stage: ValidationStage): string | null {
  if (value.t === 'NoneType') return null;
  if (value.t === 'str') return String(value.v ?? '');
  throw envError('solution_exception', stage, {
    expected: 'solution() to return a str',
    seen: describeSeen(value),
    fix: 'return the reference answer or strategy as text',
  });
}
