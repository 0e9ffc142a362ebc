import type { ChatMessage, ChatUsage } from './ports/chat-port.ts';
import type { EnvErrorCode, ValidationStage } from './env/env-error.ts';
import type { JudgeRecord } from './env/solvability-judge.ts';
import type { CriterionOutcome } from './env/tool-use-facts.ts';
import type { PromptBudgetSummary } from './budget/budget-tally.ts';

/** A validation verdict as stored (timings live in EpochTimings so stored records stay reproducible). */
export interface ValidationVerdict {
  ok: boolean;
  stage: ValidationStage | null;
  code: EnvErrorCode | null;
  message: string | null;
  className: string | null;
  repairedLines: number[];
  /** Present (true) when the environment is a tool-use one (`get_tools()` lists tools); absent for a game. */
  toolUse?: true;
}

/** One designer attempt for a slot. */
export interface DesignAttempt {
  attempt: number;
  /** True when this attempt was the one-shot repair of the previous one. */
  repair: boolean;
  messages: ChatMessage[];
  reply: string;
  /** Extracted, brace-repaired code. */
  code: string;
  validation: ValidationVerdict;
  usage: ChatUsage;
  /** The solvability judge's question and answer, when the run asked it (tool use, after a passing validation). */
  judge?: JudgeRecord;
}

/** Scores of one valid environment for one epoch. */
export interface EnvStats {
  /** Mean return of the hinted plays; null when no usable hint came and the hint arm was not played. */
  rHint: number | null;
  /** Mean return of the kept unhinted plays of the first rollout (the regen step), or of the first later rollout that kept one when rollout 0 kept none. */
  rNoHint: number;
  /** rHint - rNoHint (not floored); 0 when there was no hint arm. */
  regret: number;
  /** Mean return over all kept unhinted plays of the epoch (every rollout): the window's win rate. */
  winRate: number;
  /** Fraction of r_nohint's plays with return > 0 (what memory stores, when they are rollout 0's). */
  fractionWon: number;
  designerReward: number;
  designerAdvantage: number;
  /** Scored (not quarantined) designs of this skill in the epoch: the designer advantage's group (1 means advantage 0 by construction). */
  designerGroupSize: number;
  /** True when a load, reset or step timed out during play (the `regret` reward's -0.5). */
  hung: boolean;
  /** Unhinted plays dropped because they failed twice or the environment hung (SPADE drops them). */
  droppedPlays: number;
  /** Mean number of turns of won unhinted plays; null when none was won. */
  turnsToWin: number | null;
}

/** One designed environment slot: valid (with hint and stats) or rejected after all attempts. */
export interface EnvironmentRecord {
  id: string;
  epoch: number;
  slot: number;
  skill: string;
  difficulty: string;
  docId: string | null;
  /** The everyday domain a tool-use environment's task is set in (one of TOOL_USE_DOMAINS); absent for cognitive games. */
  domain?: string;
  /** `quarantined`: valid at design time, but its plays kept failing; it gets no stats or rows and leaves the pool and the memory. */
  status: 'valid' | 'rejected' | 'quarantined';
  /** Final code (of the valid attempt, or the last attempt when rejected). */
  code: string;
  attempts: DesignAttempt[];
  memoryShown: { positives: string[]; negative: string | null };
  hint: string | null;
  hintMessages: ChatMessage[] | null;
  /** The last hint reply (of up to HINT_ATTEMPTS requests). */
  hintReply: string | null;
  /** Tokens of all the hint requests (counted in the epoch's tokens); absent when none was made and in records written before it was kept. */
  hintUsage?: ChatUsage;
  /** Why the environment has no hint arm (no usable hint came), or why it was quarantined; null otherwise. */
  note: string | null;
  stats: EnvStats | null;
  /** The pool environment a fixed-pool run played in this slot (absent for designed environments). */
  poolId?: string;
}

/** One turn of an episode. */
export interface Turn {
  reply: string;
  action: string;
  observation: string;
  reward: number;
  /** A reward JSON cannot hold (`coerceStepReturns` lets NaN and infinities through): which one, since `reward` is written as null. */
  nonfiniteReward?: 'nan' | 'inf' | '-inf';
  terminated: boolean;
  truncated: boolean;
  /** Where a multi-turn tool-use task stands after this step (absent for other environments and in runs recorded before it). */
  progress?: ToolProgress;
  /** Present (true) on a tool-use reply whose `<tool_call>` could not be read, under `toolUseMasks`: its training weight is 0. */
  malformedCall?: true;
}

/** A multi-turn tool-use task after a step, as the sandbox reports it: instructions done and each criterion on the state. */
export interface ToolProgress {
  /** `_current_msg` after the step: how many instructions are done (the next one, if any, has been revealed). */
  done: number;
  /** Each instruction's criterion called on `_state` after the step: its truth, or the text of what it raised. */
  criteria: CriterionOutcome[];
}

/** An error of the environment's own reset or step that a play kept under the reference's failure rule (`crashesLose`). */
export interface PlayCrash {
  /** `reset`: the play went on from a fixed observation; `step`: that step ended the play with reward -1. */
  at: 'reset' | 'step';
  code: EnvErrorCode;
  message: string;
}

/** Which arm an episode belongs to. */
export type Arm = 'nohint' | 'hint';

/** One played episode with its full transcript. */
export interface Episode {
  id: string;
  envId: string;
  epoch: number;
  rollout: number;
  arm: Arm;
  index: number;
  seed: number;
  firstObservation: string;
  /** A multi-turn tool-use task's instructions (`_user_messages` after reset), revealed one by one; absent otherwise. */
  instructions?: string[];
  messages: ChatMessage[];
  turns: Turn[];
  return: number;
  /** Set when the environment crashed or hung during this episode. */
  error: { code: EnvErrorCode; message: string } | null;
  /** The first crash the play kept instead of failing (`crashesLose`); absent otherwise and in runs recorded before it. */
  crash?: PlayCrash;
  /** True when SPADE drops this play: an unhinted play that failed (it is retried once) or that the environment's hang skipped. It counts in no return, group or row. */
  dropped: boolean;
  /** True for a failed first attempt of an unhinted play that was played again (the retry is the play's own record). */
  retried: boolean;
  usage: ChatUsage;
  advantage: number;
  /** Present (true) when some of its text was cut to the storage limits (docs/method.md section 2); scores never read text, so every number stays exact. */
  clipped?: true;
}

/** A message of a training row; `weight` 1 marks an assistant message the trainer learns from (0: context only). */
export interface RowMessage extends ChatMessage {
  weight?: 0 | 1;
}

/** One row for an RL trainer: the whole sample, with every trained assistant message weighted 1. */
export interface RolloutRow {
  role: 'designer' | 'agent';
  /** The whole sample: prompt messages and completions; for agents every assistant turn has weight 1. */
  messages: RowMessage[];
  reward: number;
  advantage: number;
  /** GRPO group: the environment and rollout for agents, the skill and epoch for designers. */
  group: string;
  envId: string;
  epoch: number;
  /** Present (true) on an agent row whose episode's text was cut to the storage limits: its messages are not all the model saw. */
  clipped?: true;
}

/** Per-epoch metrics. */
export interface EpochMetrics {
  epoch: number;
  slots: number;
  validEnvironments: number;
  attempts: number;
  validityRate: number;
  meanRegret: number;
  meanWinRate: number;
  meanDesignerReward: number;
  episodes: number;
  /** Unhinted plays dropped (failed twice, or skipped after a hang). */
  droppedEpisodes: number;
  /** Environments quarantined this epoch. */
  quarantined: number;
  designerScale: number;
  promptTokens: number;
  completionTokens: number;
  perSkill: Record<string, { environments: number; meanRegret: number; meanWinRate: number }>;
  /** Per role, the epoch's prompts against the model's context size (largest prompt, smallest max_tokens, requests trimmed); absent when the model does not report its context size, and in runs recorded before it was kept. */
  promptBudget?: PromptBudgetSummary;
}

/** Wall-clock figures of one epoch (kept apart from the reproducible records). */
export interface EpochTimings {
  epoch: number;
  totalMs: number;
  modelMs: number;
  sandboxMs: number;
}
