import type { Config } from '../config.ts';
import type { ChatModel } from '../ports/chat-port.ts';
import { roleThinking } from '../thinking.ts';
import { constrainsAgent } from './agent-grammar.ts';
import type { EpisodeSpec } from './play-episode.ts';

/** What every agent play of a run shares, training and held-out alike. */
export type AgentSettings = Pick<
  EpisodeSpec,
  'maxTurns' | 'stepTimeoutMs' | 'sampling' | 'thinking' | 'template' | 'toolTemplate' | 'replyAids' | 'constrain' | 'crashesLose' | 'freeToolCalls' | 'toolUseMasks'
>;

/** A run's agent settings from its config: turn cap, call limit, sampling, thinking, templates, reply aids, the failure, tool-turn and mask rules, and a grammar when this model honours one. */
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
    freeToolCalls: config.freeToolCalls,
    toolUseMasks: config.toolUseMasks && config.setting === 'tool_use',
  };
}
