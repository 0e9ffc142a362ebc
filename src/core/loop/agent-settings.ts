import type { Config, SamplingConfig } from '../config.ts';
import type { ChatModel } from '../ports/chat-port.ts';
import type { Turn } from '../records.ts';
import { roleThinking, type RoleThinking } from '../thinking.ts';
import { constrainsAgent } from './agent-grammar.ts';

/** What one episode needs. */
export interface EpisodeSpec {
  seed: number;
  hint: string | null;
  maxTurns: number;
  stepTimeoutMs: number;
  sampling: SamplingConfig;
  /** The agent's thinking switch and budget. */
  thinking: RoleThinking;
  /** The run's agent template (`{observation}` is the first observation). */
  template: string;
  /** The run's tool-use agent template, for a tool-use environment (default: the default one). */
  toolTemplate?: string;
  /** Read replies with the small-model aids (method.md section 5); absent: the reference's rules. */
  replyAids?: boolean;
  /** Playbook lessons shown before the template (none when absent). */
  lessons?: readonly string[];
  /** Seed material for the model's per-turn seeds. */
  modelSeedKey: string;
  /** Constrain each reply to the action format with a grammar (the run's `constrainAgent`, when the model honours grammars). */
  constrain?: boolean;
  /** The reference's failure rule (`crashesLose`): a step the environment breaks ends the play with -1, a broken reset plays on. */
  crashesLose?: boolean;
  /** The reference's game wrapper (`coerceStepReturns`): a reset return and a 5-tuple step return are converted as the reference converts them, not refused. */
  coerceStepReturns?: boolean;
  /** Tool use by the reference's turn rule (`freeToolCalls`): calls run through `execute_tool` and cost no step. */
  freeToolCalls?: boolean;
  /** Tool use with the reference's masks (`toolUseMasks`): a reply with an unreadable `<tool_call>` is flagged and its feedback carries a format line. */
  toolUseMasks?: boolean;
  onToken?: (delta: string) => void;
  onTurn?: (turnIndex: number, turn: Turn) => void;
}

/** What every agent play of a run shares, training and held-out alike. */
export type AgentSettings = Pick<
  EpisodeSpec,
  | 'maxTurns'
  | 'stepTimeoutMs'
  | 'sampling'
  | 'thinking'
  | 'template'
  | 'toolTemplate'
  | 'replyAids'
  | 'constrain'
  | 'crashesLose'
  | 'coerceStepReturns'
  | 'freeToolCalls'
  | 'toolUseMasks'
>;

/** A run's agent settings from its config: turn cap, call limit, sampling, thinking, templates, reply aids, the failure, step-conversion, tool-turn and mask rules, and a grammar when this model honours one. */
export function agentSettings(config: Config, model: Pick<ChatModel, 'grammars'>): AgentSettings {
  return {
    maxTurns: config.maxTurns,
    stepTimeoutMs: config.stepTimeoutMs,
    sampling: config.agent,
    thinking: roleThinking(config, 'agent'),
    template: config.prompts.agent,
    toolTemplate: config.prompts.toolAgent,
    replyAids: config.replyAids,
    constrain: constrainsAgent(config, model),
    crashesLose: config.crashesLose,
    coerceStepReturns: config.coerceStepReturns,
    freeToolCalls: config.freeToolCalls,
    toolUseMasks: config.toolUseMasks && config.setting === 'tool_use',
  };
}
