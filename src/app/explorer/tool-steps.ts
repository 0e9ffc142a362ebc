import { parseToolReply } from '../../core/prompts/tool-call-parse.ts';
import type { EnvironmentRecord, Episode, Turn } from '../../core/records.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { returnedReward } from './step-reward.ts';

/** An instruction of a multi-turn task, numbered from 1 as the replay shows it. */
export interface NumberedInstruction {
  number: number;
  text: string;
}

/** Where one criterion stands after a step. */
export interface CriterionRow extends NumberedInstruction {
  /** `met`: true on the state; `open`: false; `raised`: calling it raised (`detail` says what). */
  state: 'met' | 'open' | 'raised';
  detail: string | null;
}

/** One step of a tool-use episode as rows: what was sent, what came back, and what it did to the task. */
export interface ToolStepView {
  /** A tool call, a final answer, or text that is neither (the environment's format error answers it). */
  kind: 'call' | 'answer' | 'text';
  /** The tool called (a call only). */
  tool: string | null;
  /** The call's arguments as name and JSON value (a call only). */
  arguments: Array<{ name: string; value: string }>;
  /** The further calls the same reply ran, as `name(arguments JSON)` (with tool calls outside step, `freeToolCalls`; the result holds every output). */
  moreCalls: string[];
  /** The answer given, or the text sent (an answer or text only). */
  text: string | null;
  /** What the environment sent back, without the base class's "Tool result:" line. */
  result: string;
  /** The reward the environment returned, NaN and infinities included (null when the record holds no number). */
  reward: number | null;
  terminated: boolean;
  truncated: boolean;
  /** Instructions whose criterion this step met (the task moved past them). */
  met: NumberedInstruction[];
  /** The instruction this step revealed, or null. */
  revealed: NumberedInstruction | null;
  /** True when this step met the last instruction. */
  allDone: boolean;
  /** Each criterion on the state after the step (empty when the step's progress was not recorded). */
  criteria: CriterionRow[];
}

const RESULT_PREFIX = 'Tool result:\n';

/** The instructions of an episode when they are a list of strings (an imported record may hold anything), else []. */
export function episodeInstructions(episode: { instructions?: unknown }): string[] {
  const list: unknown = episode.instructions;
  return Array.isArray(list) && list.every((i) => typeof i === 'string') ? list : [];
}

/** What the step views read of a turn (an agent's, or one you played). */
export type StepRecord = Pick<
  Turn,
  'action' | 'observation' | 'reward' | 'nonfiniteReward' | 'terminated' | 'truncated' | 'progress'
>;

/** A played episode as the step views read it. */
export interface StepsSource {
  instructions?: unknown;
  turns: readonly StepRecord[];
}

/** A turn's instructions done, when its recorded progress is usable for `total` instructions; else null. */
export function doneAfter(turn: StepRecord, total: number): number | null {
  const done: unknown = (turn.progress as { done?: unknown } | undefined)?.done;
  return typeof done === 'number' && Number.isInteger(done) && done >= 0 && done <= total ? done : null;
}

/** Whether an environment's episodes are tool use: a tool-use run, a domain on the environment, or instructions or tool messages in a play. */
export function isToolUse(
  meta: Pick<RunMeta, 'config'>,
  env: Pick<EnvironmentRecord, 'domain'>,
  episodes: readonly Episode[],
): boolean {
  return (
    meta.config.setting === 'tool_use' ||
    env.domain !== undefined ||
    episodes.some((e) => episodeInstructions(e).length > 0 || e.messages.some((m) => m.role === 'tool'))
  );
}

function criteriaRows(turn: StepRecord, instructions: readonly string[]): CriterionRow[] {
  const outcomes: unknown = (turn.progress as { criteria?: unknown } | undefined)?.criteria;
  if (!Array.isArray(outcomes)) return [];
  return outcomes.slice(0, instructions.length).map((outcome: unknown, i) => ({
    number: i + 1,
    text: instructions[i]!,
    state: outcome === true ? 'met' : typeof outcome === 'string' ? 'raised' : 'open',
    detail: typeof outcome === 'string' ? outcome : null,
  }));
}

function callArguments(args: Record<string, unknown>): Array<{ name: string; value: string }> {
  return Object.entries(args).map(([name, value]) => ({ name, value: JSON.stringify(value) ?? String(value) }));
}

/** The steps of a tool-use episode as rows: each turn's call or answer, its result, and the instructions it met and revealed. */
export function toolSteps(episode: StepsSource): ToolStepView[] {
  const instructions = episodeInstructions(episode);
  const numbered = (index: number): NumberedInstruction => ({ number: index + 1, text: instructions[index]! });
  let before = 0;
  return episode.turns.map((turn) => {
    const reply = parseToolReply(turn.action);
    const call = reply.kind === 'calls' ? reply.calls[0]! : null;
    const after = doneAfter(turn, instructions.length);
    const met =
      after !== null && after > before ? Array.from({ length: after - before }, (_, k) => numbered(before + k)) : [];
    const revealed = met.length > 0 && after! < instructions.length ? numbered(after!) : null;
    const allDone = met.length > 0 && after === instructions.length;
    if (after !== null) before = after;
    return {
      kind: call ? 'call' : reply.kind === 'answer' ? 'answer' : 'text',
      tool: call?.name ?? null,
      arguments: call ? callArguments(call.arguments) : [],
      moreCalls:
        reply.kind === 'calls' ? reply.calls.slice(1).map((c) => `${c.name}(${JSON.stringify(c.arguments)})`) : [],
      text: reply.kind === 'calls' ? null : reply.text,
      result: turn.observation.startsWith(RESULT_PREFIX)
        ? turn.observation.slice(RESULT_PREFIX.length)
        : turn.observation,
      reward: returnedReward(turn),
      terminated: turn.terminated,
      truncated: turn.truncated,
      met,
      revealed,
      allDone,
      criteria: criteriaRows(turn, instructions),
    };
  });
}

/** Each instruction's place after `turns` steps: done, revealed (the current one) or not yet shown. */
export function instructionTimeline(
  episode: StepsSource,
  turns: number,
): Array<NumberedInstruction & { state: 'done' | 'current' | 'hidden' }> {
  const instructions = episodeInstructions(episode);
  let done = 0;
  for (const turn of episode.turns.slice(0, turns)) done = doneAfter(turn, instructions.length) ?? done;
  return instructions.map((text, i) => ({
    number: i + 1,
    text,
    state: i < done ? 'done' : i === done ? 'current' : 'hidden',
  }));
}
