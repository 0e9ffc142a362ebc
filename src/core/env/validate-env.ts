import type { EnvHandle, SandboxRuntime } from '../ports/sandbox-port.ts';
import { EnvError, envError, isEnvError, type EnvErrorCode, type ValidationStage } from './env-error.ts';
import { extractCode, isProse } from './extract-code.ts';
import { repairFStringBraces } from './fstring-repair.ts';
import { probeToolUse, resetGate } from './validate-tool-use.ts';
import { checkToolSchemas } from './tool-use-facts.ts';
import { ValidationBudget } from './validation-budget.ts';
import { baseClassError, cutOffError, splitBlocksError } from './repair-hints.ts';
import { missingEnvName, syntaxFailure } from './static-checks.ts';
import {
  challengeProbe,
  challengeSeed,
  checkSameReset,
  drawChallenge,
  type ValidationChallenge,
} from './validation-challenge.ts';

export { drawChallenge, type ValidationChallenge } from './validation-challenge.ts';

/** Knobs of one validation run. */
export interface ValidationOptions {
  /** Turn cap given to the environment class. */
  maxTurns: number;
  /** Budget for the whole validation, in milliseconds (SPADE: 60 000; tab default 5 000). */
  totalTimeoutMs: number;
  /** Limit for any single load, reset or step, in milliseconds (tab default 2 000). */
  callTimeoutMs: number;
  /** Probe actions sent after `reset(seed=42)`, stopping at the first terminal step. */
  probeActions?: readonly string[];
  /** Unpredictable extra checks (drawn from the run's seed in a run); when absent, drawn from the code's hash and `nonce`. */
  challenge?: ValidationChallenge;
  /** Mixed into the code's hash when no challenge is given (a per-process random number outside runs; 0 when absent). */
  nonce?: number;
  /** Clock in milliseconds (injectable for tests). */
  now?: () => number;
  /** Reject an environment that is not a tool-use one: `get_tools()` non-empty after reset (a tool-use run's designs). */
  requireToolUse?: boolean;
  /** The tab's extra tool-use checks (default on): the first-instruction and criteria-count checks, the three tool probes, and the reset gate's already-true rule; off: the reference's (tool schemas are checked either way). */
  extraToolChecks?: boolean;
  /** Run the reset gate on a tool-use environment (default on); the reference runs it from its second regeneration step on. */
  resetGate?: boolean;
  /** Extract a reply's code leniently (default: any python fence, `<think>` stripped); false: the reference's exact ```python fence (reply aids off). */
  lenientExtraction?: boolean;
  /** Load designs with the tab's aided ToolUseBaseEnv (default) or, when false, the reference's own (the `toolBaseAids` knob). */
  toolBaseAids?: boolean;
  /** The reply stopped at the token limit (finish reason `length`): a reply that cannot be read is reported as cut off. */
  stoppedAtLimit?: boolean;
  /** Refuse code with no `Env` anywhere in its text before running it (imports: such a file costs no interpreter). */
  requireEnvName?: boolean;
  /** What is validated: a model `reply` (default: fenced block extracted, `<think>` stripped, f-string braces repaired) or `code` (a file or edited code, run verbatim). */
  source?: 'reply' | 'code';
}

/** One stage's outcome. */
export interface StageOutcome {
  stage: ValidationStage;
  ok: boolean;
  ms: number;
}

/** Everything a validation found: the verdict, the first failure and per-stage timings. */
export interface ValidationReport {
  ok: boolean;
  /** Stage of the first failure, null when valid. */
  stage: ValidationStage | null;
  /** Stable code of the first failure, null when valid. */
  code: EnvErrorCode | null;
  /** Expected / seen / fix message of the first failure, null when valid. */
  message: string | null;
  /** Wall time of the whole validation. */
  ms: number;
  /** Time the environment's own code ran (what the budget is charged with), in milliseconds. */
  envMs: number;
  /** The code that was validated (extracted and brace-repaired). */
  source: string;
  /** Lines the f-string repair rewrote (1-based). */
  repairedLines: number[];
  /** Environment class found, when loading got that far. */
  className: string | null;
  /** First observation of `reset(seed=42)`, when probing got that far. */
  firstObservation: string | null;
  /** True when the environment is a tool-use one (`get_tools()` gave tools at the probe, as the reference decides); false or absent otherwise. */
  toolUse?: boolean;
  stages: StageOutcome[];
}

/** SPADE's probe actions. */
export const PROBE_ACTIONS = ['\\boxed{1}', '\\boxed{test}', '\\boxed{42}'] as const;
/** Seed of the first probe reset. */
export const PROBE_SEED = 42;
/** Seed of the replay reset. */
export const REPLAY_SEED = 123;

/** Tab defaults for validation (docs/method.md section 3). */
export const DEFAULT_VALIDATION: ValidationOptions = { maxTurns: 12, totalTimeoutMs: 5000, callTimeoutMs: 2000 };

/**
 * Validation options for a budget given alone (the CLI's --timeout-ms): the per-call cap keeps the
 * tab's ratio (2 000 ms of 5 000), never below the tab's 2 000 ms nor above the budget, so a larger
 * budget also allows longer single calls.
 */
export function validationForBudget(totalTimeoutMs: number): ValidationOptions {
  const { callTimeoutMs: call, totalTimeoutMs: total } = DEFAULT_VALIDATION;
  return {
    ...DEFAULT_VALIDATION,
    totalTimeoutMs,
    callTimeoutMs: Math.min(totalTimeoutMs, Math.max(call, Math.round((totalTimeoutMs * call) / total))),
  };
}

/**
 * The per-call cap inside a run's validation of `totalTimeoutMs`: the cap `spade validate` uses for
 * that budget (validationForBudget), never below the run's step limit nor above the budget, so a
 * larger validation budget allows longer single calls in `spade run` as in `spade validate`.
 */
export function validationCallCap(totalTimeoutMs: number, stepTimeoutMs: number): number {
  return Math.min(totalTimeoutMs, Math.max(stepTimeoutMs, validationForBudget(totalTimeoutMs).callTimeoutMs));
}

// SPADE's probe; a tool-use environment also gets its own probe after the first reset and the reset gate at the end.
async function probe(
  handle: EnvHandle,
  budget: ValidationBudget,
  actions: readonly string[],
  options: ValidationOptions,
  report: ValidationReport,
): Promise<string> {
  const extra = options.extraToolChecks !== false;
  const timeout = () => budget.limit('probe', 'the tool checks');
  const first = await handle.reset(PROBE_SEED, { stage: 'probe' });
  const facts = await handle.toolFacts({ stage: 'probe' });
  report.toolUse = facts !== null;
  if (!facts && options.requireToolUse === true) {
    throw envError('not_tool_use', 'probe', {
      expected: 'a tool-use environment: get_tools() returning at least one tool after reset',
      seen: `${handle.className}, whose get_tools() is missing or empty`,
      fix: 'write "class SomethingEnv(ToolUseBaseEnv):" (ToolUseBaseEnv is already defined; do not import it) whose reset fills self._tools, with tool_<name> methods and solution',
    });
  }
  if (facts && extra) await probeToolUse(handle, facts, { seed: PROBE_SEED, observation: first.observation }, timeout);
  else if (facts) checkToolSchemas(facts, 'probe');
  for (const action of actions) {
    const step = await handle.step(action, { stage: 'probe' });
    if (step.terminated || step.truncated) break;
  }
  try {
    await handle.reset(REPLAY_SEED, { stage: 'probe' });
  } catch (error) {
    if (isEnvError(error) && error.code === 'reset_exception') {
      throw new EnvError(
        'replay_reset_exception',
        'probe',
        error.message.replace('Expected reset(seed)', 'Expected a second reset(seed=123)'),
      );
    }
    throw error;
  }
  if (facts && options.resetGate !== false) await resetGate(handle, timeout, extra);
  return first.observation;
}

/**
 * A reply without a fenced block is taken whole, as SPADE does; when it has no line of code either
 * (no class, function or import) and does not parse, it is prose, and the failure is the missing
 * block, not a syntax error in the prose. Bare code with a syntax error still fails at load.
 */
async function requireParsingProse(code: string, runtime: SandboxRuntime): Promise<void> {
  const check = await runtime.checkSyntax(code, 'exec');
  if (check.ok) return;
  const where = check.line === null ? '' : ` at line ${check.line}`;
  throw envError('no_code_block', 'extract', {
    expected: 'the complete environment in a ```python fenced block',
    seen: `no python code block found: the reply has no fenced block and no class, function or import, and taken whole it is not Python (${check.message}${where})`,
    fix: 'reply with the complete environment in one fenced python block, and nothing but prose outside it',
  });
}

// A failure whose usual message points the wrong way, told as what happened (the verdict is the same).
function explainFailure(failure: EnvError, reply: string, source: string, options: ValidationOptions): EnvError {
  const fromReply = options.source !== 'code';
  return (
    (fromReply ? cutOffError(reply, options.stoppedAtLimit === true, failure) : null) ??
    (fromReply ? splitBlocksError(reply, failure) : null) ??
    baseClassError(source, failure) ??
    failure
  );
}

/**
 * Validates a designer reply (or plain code) in SPADE's order: extract and repair, load (a syntax
 * error, and code without `Env` when `requireEnvName` asks, is found before any interpreter is taken), probe
 * (SPADE's fixed probe, then the unpredictable challenge), determinism (seed 42 and the challenge's
 * first seed), then the environment's own close() when it has one, as the reference calls it. The
 * first failure is reported with its stage, stable code and message.
 */
export async function validateEnvironment(
  reply: string,
  runtime: SandboxRuntime,
  options: ValidationOptions = DEFAULT_VALIDATION,
): Promise<ValidationReport> {
  const now = options.now ?? Date.now;
  await runtime.warm();
  const started = now();
  const budget = new ValidationBudget(options.totalTimeoutMs, options.callTimeoutMs, now);
  const stages: StageOutcome[] = [];
  const report: ValidationReport = {
    ok: false,
    stage: null,
    code: null,
    message: null,
    ms: 0,
    envMs: 0,
    source: '',
    repairedLines: [],
    className: null,
    firstObservation: null,
    toolUse: false,
    stages,
  };
  let stage: ValidationStage = 'extract';
  let stageStart = started;
  const enter = (next: ValidationStage) => {
    stages.push({ stage, ok: true, ms: now() - stageStart });
    stage = next;
    stageStart = now();
  };
  let handle: EnvHandle | null = null;
  try {
    const isCode = options.source === 'code';
    const extracted = isCode ? reply : extractCode(reply, options.lenientExtraction !== false);
    if (extracted.trim().length === 0) {
      throw envError(
        'no_code',
        'extract',
        isCode
          ? { expected: 'Python code', seen: 'empty code', fix: 'put the complete environment in the file' }
          : {
              expected: 'Python code in a ```python fenced block',
              seen: 'an empty reply',
              fix: 'reply with the complete environment in one fenced python block',
            },
      );
    }
    const repaired = isCode
      ? { code: extracted, repairedLines: [] }
      : await repairFStringBraces(extracted, runtime.checkSyntax);
    if (!isCode && isProse(reply)) await requireParsingProse(repaired.code, runtime);
    report.source = repaired.code;
    report.repairedLines = repaired.repairedLines;
    enter('load');
    const code = repaired.code;
    const unrunnable =
      (options.requireEnvName === true ? missingEnvName(code) : null) ?? (await syntaxFailure(code, runtime));
    if (unrunnable) throw unrunnable;
    handle = await budget.run('load', 'loading the module', (timeoutMs, onRunning) =>
      runtime.load(code, {
        maxTurns: options.maxTurns,
        timeoutMs,
        stage: 'load',
        onRunning,
        toolBaseAids: options.toolBaseAids !== false,
      }),
    );
    report.className = handle.className;
    const env = budget.track(handle);
    enter('probe');
    report.firstObservation = await probe(env, budget, options.probeActions ?? PROBE_ACTIONS, options, report);
    const challenge = options.challenge ?? drawChallenge(challengeSeed(code, options.nonce ?? 0));
    const challengeObservation = await challengeProbe(env, challenge);
    enter('determinism');
    await checkSameReset(env, PROBE_SEED, report.firstObservation);
    await checkSameReset(env, challenge.seeds[0], challengeObservation);
    await env.close?.({ stage: 'determinism' });
    stages.push({ stage, ok: true, ms: now() - stageStart });
    report.ok = true;
  } catch (error) {
    stages.push({ stage, ok: false, ms: now() - stageStart });
    const raw = isEnvError(error)
      ? error
      : new EnvError(
          'sandbox_crashed',
          stage,
          `Expected the sandbox to answer. Saw ${String(error)}. Fix: retry; if it repeats, report a bug.`,
        );
    const failure = explainFailure(raw, reply, report.source, options);
    report.stage = failure.stage;
    report.code = failure.code;
    report.message = failure.message;
  } finally {
    await handle?.dispose().catch(() => undefined);
  }
  report.ms = now() - started;
  report.envMs = budget.usedMs;
  return report;
}
