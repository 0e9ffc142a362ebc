import type { EnvHandle } from '../ports/sandbox-port.ts';
import {
  EnvError,
  envError,
  isEnvError,
  STEP_CONTRACT_CODES,
  type EnvErrorCode,
  type ValidationStage,
} from './env-error.ts';
import { checkInstructions, checkToolSchemas, type CriterionOutcome, type ToolFacts } from './tool-use-facts.ts';

// Seeds the reset gate evaluates the message criteria at.
const RESET_GATE_SEEDS = [0, 1, 2] as const;

// The tool the unknown-tool probe calls, and the argument the wrong-arguments probe passes to the first declared tool.
const PROBE_UNKNOWN_TOOL = 'spade_probe_no_such_tool';
const PROBE_WRONG_ARGUMENT = 'spade_probe_unexpected_argument';

const STAGE: ValidationStage = 'probe';

interface ToolProbe {
  code: EnvErrorCode;
  what: string;
  action: string;
  fix: string;
}

function toolProbes(firstTool: string): ToolProbe[] {
  return [
    {
      code: 'tool_probe_malformed_action',
      what: 'a reply with neither a tool call nor an answer',
      action: 'I will think about it first.',
      fix: 'let the base class handle step (a malformed action earns the -0.1 format error), or return that format error yourself',
    },
    {
      code: 'tool_probe_unknown_tool',
      what: 'a call to a tool that does not exist',
      action: `<tool_call>{"name": "${PROBE_UNKNOWN_TOOL}", "arguments": {}}</tool_call>`,
      fix: 'let the base class dispatch tool calls (an unknown tool becomes an error text), or answer an unknown name with an error text',
    },
    {
      code: 'tool_probe_wrong_arguments',
      what: `a call to ${firstTool} with an argument it does not take`,
      action: `<tool_call>{"name": "${firstTool}", "arguments": {"${PROBE_WRONG_ARGUMENT}": 1}}</tool_call>`,
      fix: 'let the base class dispatch tool calls (an exception in a tool becomes an error text), or catch the TypeError of a bad call',
    },
  ];
}

// The "Saw ..." part of a contract error, so a probe can name what broke in its own words.
function seenPart(error: EnvError): string {
  return /\bSaw (.*?)\. Fix: /s.exec(error.message)?.[1] ?? error.message;
}

/**
 * Checks a tool-use environment right after its first reset: its tools, the first instruction, and
 * that a malformed action, an unknown tool and a call with wrong arguments each get the 5-tuple.
 */
export async function probeToolUse(
  handle: EnvHandle,
  facts: ToolFacts,
  first: { seed: number; observation: string },
  timeoutMs: () => number,
): Promise<void> {
  const tools = checkToolSchemas(facts, STAGE);
  checkInstructions(facts, first.observation, STAGE);
  for (const probe of toolProbes(tools[0]!)) {
    try {
      const step = await handle.step(probe.action, { stage: STAGE, timeoutMs: timeoutMs() });
      if (step.terminated || step.truncated) await handle.reset(first.seed, { stage: STAGE, timeoutMs: timeoutMs() });
    } catch (error) {
      if (!isEnvError(error) || !STEP_CONTRACT_CODES.has(error.code)) throw error;
      throw envError(probe.code, STAGE, {
        expected: `step() to answer ${probe.what} with (observation, reward, terminated, truncated, info)`,
        seen: `${seenPart(error)} for the action ${JSON.stringify(probe.action)}`,
        fix: probe.fix,
      });
    }
  }
}

function describeOutcomes(
  seed: number,
  outcomes: readonly CriterionOutcome[],
  pick: (o: CriterionOutcome) => boolean,
): string {
  const index = outcomes.findIndex(pick);
  const outcome = outcomes[index];
  return `at seed ${seed} criterion ${index + 1} ${typeof outcome === 'string' ? `raised ${outcome}` : 'was already true'}`;
}

/**
 * The reset gate: resets at seeds 0, 1 and 2 and evaluates every message criterion on the fresh
 * state. Rejects an environment when some criterion raises at every seed (a criterion that can
 * never be evaluated) or, with `rejectAlreadyTrue` (the tab's rule), when one criterion is already
 * true at every seed (a step that completes without being done). Single-task environments (no
 * criteria) pass.
 */
export async function resetGate(handle: EnvHandle, timeoutMs: () => number, rejectAlreadyTrue = true): Promise<void> {
  const perSeed: { seed: number; outcomes: CriterionOutcome[] }[] = [];
  for (const seed of RESET_GATE_SEEDS) {
    await handle.reset(seed, { stage: STAGE, timeoutMs: timeoutMs() });
    const facts = await handle.toolFacts({ stage: STAGE, timeoutMs: timeoutMs() });
    const outcomes = facts?.criteria ?? [];
    if (outcomes.length === 0) return;
    perSeed.push({ seed, outcomes });
  }
  const raises = (o: CriterionOutcome) => typeof o === 'string';
  if (perSeed.every(({ outcomes }) => outcomes.some(raises))) {
    throw envError('criteria_raise_at_reset', STAGE, {
      expected: 'every message criterion to evaluate on the state reset() builds, at one seed of 0, 1 and 2 at least',
      seen: perSeed.map(({ seed, outcomes }) => describeOutcomes(seed, outcomes, raises)).join('; '),
      fix: 'make each criterion read self._state with the keys and types reset() and the tools really write (use .get for keys that appear later)',
    });
  }
  if (!rejectAlreadyTrue) return;
  const width = Math.min(...perSeed.map(({ outcomes }) => outcomes.length));
  const free = Array.from({ length: width }, (_, i) => i).find((i) =>
    perSeed.every(({ outcomes }) => outcomes[i] === true),
  );
  if (free !== undefined) {
    throw envError('criteria_true_at_reset', STAGE, {
      expected: 'every message criterion to be false on the state reset() builds',
      seen: `criterion ${free + 1} true at seeds ${RESET_GATE_SEEDS.join(', ')}`,
      fix: 'make each criterion check the change its instruction asks for (or a flag the tool sets when it runs), not a fact that already holds',
    });
  }
}
