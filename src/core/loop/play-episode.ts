import type { ChatMessage, ChatModel, ChatUsage } from '../ports/chat-port.ts';
import { isEnvError } from '../env/env-error.ts';
import type { EnvHandle } from '../ports/sandbox-port.ts';
import { storedStep } from './stored-episode.ts';
import { agentFirstMessage, parseAction, withHint } from '../prompts/agent-prompt.ts';
import { historyLadder } from '../prompts/history-ladder.ts';
import { deriveSeed } from './random.ts';
import { completeFitted, historyWithoutThoughts } from './complete-thinking.ts';
import { episodeReturn } from '../scoring/episode-return.ts';
import type { Episode, Turn } from '../records.ts';
import { playToolTurns, type ToolEpisodeLog } from './play-tool-episode.ts';
import { withActionGrammar } from './agent-grammar.ts';
import { resetKeepingCrashes, stepKeepingCrashes } from './step-crash.ts';
import type { EpisodeSpec } from './agent-settings.ts';

/** A finished episode, before it is given ids and advantages. */
export type PlayedEpisode = Pick<
  Episode,
  'firstObservation' | 'instructions' | 'messages' | 'turns' | 'return' | 'error' | 'usage' | 'crash'
>;

/**
 * Plays one episode: reset with the seed, append the hint once to the first observation, then
 * alternate agent replies (each request carries the history with earlier thoughts dropped, and
 * leaves earlier turns out only when the model's context makes the budget do so; the episode
 * keeps the replies whole) and environment steps
 * until the episode ends or the turn cap; a tool-use environment plays its turns with tools
 * (play-tool-episode.ts). A crash or hang ends it with its error (and return 0):
 * the caller applies SPADE's rule (drop and retry an unhinted play, score a hinted one 0). With
 * `crashesLose`, errors of the environment's own reset and step stay in the play (step-crash.ts).
 */
export async function playEpisode(model: ChatModel, env: EnvHandle, spec: EpisodeSpec): Promise<PlayedEpisode> {
  const usage: ChatUsage = { promptTokens: 0, completionTokens: 0 };
  const messages: ChatMessage[] = [];
  const turns: Turn[] = [];
  const log: ToolEpisodeLog = { messages, turns, usage };
  let firstObservation = '';
  try {
    const reset = await resetKeepingCrashes(
      env,
      spec.seed,
      { timeoutMs: spec.stepTimeoutMs, coerce: spec.coerceStepReturns === true },
      spec.crashesLose === true,
      log,
    );
    firstObservation = spec.hint ? withHint(reset.observation, spec.hint) : reset.observation;
    const facts = await env.toolFacts({ timeoutMs: spec.stepTimeoutMs });
    if (facts) await playToolTurns(model, env, spec, facts, firstObservation, log);
    else await playGameTurns(model, env, spec, firstObservation, log);
  } catch (error) {
    if (!isEnvError(error)) throw error;
    return {
      firstObservation,
      ...instructionsField(log),
      messages,
      turns,
      return: 0,
      error: { code: error.code, message: error.message },
      usage,
    };
  }
  return {
    firstObservation,
    ...instructionsField(log),
    messages,
    turns,
    return: episodeReturn(turns),
    error: null,
    usage,
    ...(log.crash ? { crash: log.crash } : {}),
  };
}

const instructionsField = (log: ToolEpisodeLog) => (log.instructions ? { instructions: log.instructions } : {});

// The turns of a cognitive game: the agent template's first message, then one boxed action per reply (read with the aids when on).
async function playGameTurns(
  model: ChatModel,
  env: EnvHandle,
  spec: EpisodeSpec,
  firstObservation: string,
  log: ToolEpisodeLog,
): Promise<void> {
  const { messages, turns, usage } = log;
  const first = (withPlaybook: boolean) =>
    agentFirstMessage(firstObservation, spec.template, withPlaybook ? spec.lessons : [], spec.replyAids);
  messages.push(first(true));
  for (let turnIndex = 0; turnIndex < spec.maxTurns; turnIndex++) {
    const history = {
      first,
      hasPlaybook: (spec.lessons?.length ?? 0) > 0,
      turns: historyWithoutThoughts(messages).slice(1),
      toolUse: false,
    };
    const reply = await completeFitted(
      model,
      {
        ...spec.sampling,
        seed: deriveSeed(spec.modelSeedKey, turnIndex),
        purpose: 'agent',
        ...(spec.onToken ? { onToken: spec.onToken } : {}),
      },
      historyLadder(history),
      spec.thinking,
      spec.constrain ? withActionGrammar : undefined,
    );
    usage.promptTokens += reply.usage.promptTokens;
    usage.completionTokens += reply.usage.completionTokens;
    messages.push({ role: 'assistant', content: reply.text });
    const action = parseAction(reply.text, spec.replyAids);
    const step = await stepKeepingCrashes(
      env,
      action,
      { timeoutMs: spec.stepTimeoutMs, coerce: spec.coerceStepReturns === true },
      spec.crashesLose === true,
      log,
    );
    const turn: Turn = { reply: reply.text, action, ...storedStep(step) };
    turns.push(turn);
    spec.onTurn?.(turnIndex, turn);
    if (step.terminated || step.truncated) break;
    messages.push({ role: 'user', content: step.observation });
  }
}
