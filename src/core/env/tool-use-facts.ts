import { envError, type ValidationStage } from './env-error.ts';
import { describeSeen } from './contract.ts';
import type { DescribedValue } from './harness-protocol.ts';

/** A message criterion evaluated on a state: its truth, or the text of the exception it raised. */
export type CriterionOutcome = boolean | string;

/** What the sandbox reports about a tool-use environment (one whose `get_tools()` lists tools) right after a call. */
export interface ToolFacts {
  /** Names `x` of the instance's callable `tool_x` methods. */
  methods: string[];
  /** What `get_tools()` returned (plain data), or null when it raised. */
  tools: unknown;
  /** The exception `get_tools()` raised, or null. */
  toolsError: string | null;
  /** `_user_messages` when it is a list (items as the sandbox rendered them), else null. */
  messages: unknown[] | null;
  /** Each `_message_criteria` entry called on `_state`, or null when there is no list of criteria. */
  criteria: CriterionOutcome[] | null;
  /** `_current_msg` as the sandbox rendered it. */
  current: unknown;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Reads the harness's `inspect` value: null for an environment that is not a tool-use one. */
export function checkToolFactsValue(value: DescribedValue, stage: ValidationStage): ToolFacts | null {
  if (value.t === 'NoneType') return null;
  const data = value.t === 'dict' && isRecord(value.v) ? value.v : null;
  const methods = data?.methods;
  if (!data || !Array.isArray(methods) || !methods.every((m) => typeof m === 'string')) {
    throw envError('inspect_exception', stage, {
      expected: 'the tool-use facts as a dict',
      seen: describeSeen(value),
      fix: 'do not replace the sandbox harness',
    });
  }
  const criteria = Array.isArray(data.criteria)
    ? data.criteria.map((c): CriterionOutcome => (typeof c === 'boolean' ? c : String(c)))
    : null;
  return {
    methods: methods as string[],
    tools: 'tools' in data ? data.tools : null,
    toolsError: typeof data.tools_error === 'string' ? data.tools_error : null,
    messages: Array.isArray(data.messages) ? data.messages : null,
    criteria,
    current: data.current,
  };
}

const SCHEMA_FIX =
  'give every tool in self._tools a description and a JSON-schema parameters object: {"type": "object", "properties": {...}, "required": [...]}';

function schemaProblem(tool: unknown, index: number): string | null {
  const where = `tool ${index + 1}`;
  if (!isRecord(tool) || tool.type !== 'function' || !isRecord(tool.function))
    return `${where} is not {"type": "function", "function": {...}}`;
  const { name, description, parameters } = tool.function;
  if (typeof name !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
    return `${where} has the name ${JSON.stringify(name)}, not an identifier`;
  if (typeof description !== 'string') return `tool ${name} has a description that is not a string`;
  if (!isRecord(parameters) || parameters.type !== 'object' || !isRecord(parameters.properties))
    return `tool ${name} has parameters that are not {"type": "object", "properties": {...}}`;
  for (const [key, property] of Object.entries(parameters.properties)) {
    if (!isRecord(property)) return `parameter ${key} of tool ${name} is not a schema object`;
    if ('enum' in property && (!Array.isArray(property.enum) || property.enum.length === 0))
      return `parameter ${key} of tool ${name} has an enum that is not a non-empty list`;
  }
  const required = parameters.required ?? [];
  if (
    !Array.isArray(required) ||
    !required.every((r) => typeof r === 'string' && r in (parameters.properties as object))
  ) {
    return `tool ${name} requires ${JSON.stringify(required)}, which is not a list of its own parameter names`;
  }
  return null;
}

/** Checks `get_tools()` is in the function-calling form, each name once, with a `tool_<name>` method behind every tool; returns the tool names in order. */
export function checkToolSchemas(facts: ToolFacts, stage: ValidationStage): string[] {
  const tools = facts.tools;
  const problem =
    facts.toolsError !== null
      ? `get_tools() raised ${facts.toolsError}`
      : !Array.isArray(tools) || tools.length === 0
        ? `get_tools() returned ${Array.isArray(tools) ? 'no tools' : 'something other than a list'}`
        : (tools.map(schemaProblem).find((p) => p !== null) ?? null);
  if (problem !== null) {
    throw envError('tool_schema_invalid', stage, {
      expected: 'get_tools() to list each tool as {"type": "function", "function": {name, description, parameters}}',
      seen: problem,
      fix: SCHEMA_FIX,
    });
  }
  const names = (tools as { function: { name: string } }[]).map((t) => t.function.name);
  const twice = names.find((name, i) => names.indexOf(name) !== i);
  if (twice !== undefined) {
    throw envError('tool_name_duplicate', stage, {
      expected: 'every tool in get_tools() to have its own name',
      seen: `the tool ${twice} listed ${names.filter((n) => n === twice).length} times`,
      fix: 'list each tool once in self._tools (a model cannot tell two functions of one name apart)',
    });
  }
  const missing = names.find((name) => !facts.methods.includes(name));
  if (missing !== undefined) {
    throw envError('tool_method_missing', stage, {
      expected: `a method tool_${missing} for the declared tool ${missing}`,
      seen: `the methods ${facts.methods.length > 0 ? facts.methods.map((m) => `tool_${m}`).join(', ') : '(none)'}`,
      fix: 'name each tool method tool_<name> with the exact name used in self._tools',
    });
  }
  return names;
}

/** Checks a multi-turn task's shape at reset: the observation gives the first instruction, one criterion per instruction. */
export function checkInstructions(facts: ToolFacts, firstObservation: string, stage: ValidationStage): void {
  const messages = facts.messages ?? [];
  if (messages.length === 0) return;
  const first = messages[0];
  if (
    typeof first !== 'string' ||
    first.trim() === '' ||
    !firstObservation.includes(first.trim()) ||
    facts.current !== 0
  ) {
    throw envError('tool_first_instruction', stage, {
      expected: 'reset() to set self._current_msg = 0 and return the first of self._user_messages as the observation',
      seen: `_current_msg ${JSON.stringify(facts.current)} and the observation ${JSON.stringify(firstObservation.slice(0, 80))}, while the first instruction is ${JSON.stringify(typeof first === 'string' ? first.slice(0, 80) : first)}`,
      fix: 'end reset with `self._current_msg = 0` and `return self._user_messages[0], {}`',
    });
  }
  if (facts.criteria === null || facts.criteria.length !== messages.length) {
    throw envError('criteria_count_mismatch', stage, {
      expected: `one entry in self._message_criteria per instruction (${messages.length})`,
      seen: facts.criteria === null ? 'no list of criteria' : `${facts.criteria.length} criteria`,
      fix: 'write one callable state -> bool for each instruction in self._user_messages, in the same order',
    });
  }
}
