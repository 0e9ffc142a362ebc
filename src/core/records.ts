import type { ChatMessage, ChatUsage } from './chat-port.ts';
import type { EnvErrorCode, ValidationStage } from './env/env-error.ts';

/** A validation verdict as stored (timings live in EpochTimings so stored records stay reproducible). */
export interface ValidationVerdict {
  ok: boolean;
  stage: ValidationStage | null;
  code: EnvErrorCode | null;
  message: string | null;
  className: string | null;
  repairedLines: number[];
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
}

/** Scores of one valid environment for one epoch. */
export interface EnvStats {
  /** Mean return of the hinted plays. */
  rHint: number;
  /** Mean return of the matched unhinted plays. */
  rNoHint: number;
  /** rHint - rNoHint (not floored). */
  regret: number;
  /** Mean return over all unhinted plays of the epoch (every rollout). */
  winRate: number;
  /** Fraction of unhinted plays with return > 0 (what memory stores). */
  fractionWon: number;
  designerReward: number;
  designerAdvantage: number;
  /** True when a play crashed or hung. */
  hung: boolean;
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
  status: 'valid' | 'rejected';
  /** Final code (of the valid attempt, or the last attempt when rejected). */
  code: string;
  attempts: DesignAttempt[];
  memoryShown: { positives: string[]; negative: string | null };
  hint: string | null;
  hintMessages: ChatMessage[] | null;
  hintReply: string | null;
  stats: EnvStats | null;
}

/** One turn of an episode. */
export interface Turn {
  reply: string;
  action: string;
  observation: string;
  reward: number;
  terminated: boolean;
  truncated: boolean;
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
  messages: ChatMessage[];
  turns: Turn[];
  return: number;
  /** Set when the environment crashed or hung during this episode. */
  error: { code: EnvErrorCode; message: string } | null;
  usage: ChatUsage;
  advantage: number;
}

/** One row for an RL trainer. */
export interface RolloutRow {
  role: 'designer' | 'agent';
  /** Prompt messages; for agent episodes, the whole conversation before the last reply. */
  messages: ChatMessage[];
  completion: string;
  reward: number;
  advantage: number;
  /** GRPO group: the environment and rollout for agents, the skill and epoch for designers. */
  group: string;
  envId: string;
  epoch: number;
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
  designerScale: number;
  promptTokens: number;
  completionTokens: number;
  perSkill: Record<string, { environments: number; meanRegret: number; meanWinRate: number }>;
}

/** Wall-clock figures of one epoch (kept apart from the reproducible records). */
export interface EpochTimings {
  epoch: number;
  totalMs: number;
  modelMs: number;
  sandboxMs: number;
}
