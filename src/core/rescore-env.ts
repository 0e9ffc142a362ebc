import type { AbortSignalLike, ChatModel, ChatRequest } from './chat-port.ts';
import type { Config } from './config.ts';
import { EpochAbortedError, playEnvironment } from './epoch.ts';
import type { SpadeEvent } from './events.ts';
import { buildHintPrompt, parseHint } from './prompts/hint-prompt.ts';
import { deriveSeed } from './random.ts';
import type { EnvironmentRecord, EnvStats, Episode } from './records.ts';
import type { SandboxRuntime } from './sandbox-port.ts';
import type { SkillAverages } from './scoring/designer-reward.ts';
import { scoreEpoch } from './score-epoch.ts';

/** What re-scoring one environment runs against. */
export interface RescorePorts {
  model: ChatModel;
  sandbox: SandboxRuntime;
  /** Receives the plays' progress events (turns, episodes, tokens). */
  emit?: (event: SpadeEvent) => void;
  /** Stops before the next play; the call then rejects with EpochAbortedError. */
  signal?: AbortSignalLike;
}

/** One environment to re-score, possibly with edited code. */
export interface RescoreInput {
  env: EnvironmentRecord;
  /** The code to play (the stored code, or an edited version). */
  code: string;
  /** The run's config: seed, K, turn cap, step limit, sampling and reward variant. */
  config: Config;
  /** Per-skill moving averages (only the learning_potential reward reads them). */
  skillAverages?: Readonly<Record<string, SkillAverages>>;
}

/** What re-scoring found: the hint used, the K + K episodes and the environment's scores. */
export interface RescoreResult {
  hint: string | null;
  /** True when the environment had no hint and the model wrote one (as the epoch does). */
  hintGenerated: boolean;
  episodes: Episode[];
  stats: EnvStats;
}

/**
 * Plays one environment K times without and K times with its hint on the run's seeds (rollout 0
 * of playSchedule, so the seeds are the original episodes' seeds), then scores it alone with
 * scoreEpoch. An environment without a hint gets one from the model first, with the epoch's prompt.
 */
export async function rescoreEnvironment(ports: RescorePorts, input: RescoreInput): Promise<RescoreResult> {
  const { signal } = ports;
  const config: Config = { ...input.config, rolloutsPerEpoch: 1 };
  const model: ChatModel = {
    id: ports.model.id,
    complete: (request: ChatRequest) => ports.model.complete(signal ? { ...request, signal } : request),
  };
  const gate = async () => {
    if (signal?.aborted) throw new EpochAbortedError();
  };
  await gate();
  let hint = input.env.hint;
  const hintGenerated = hint === null;
  if (hint === null) {
    const reply = await model.complete({ messages: buildHintPrompt(input.code), ...config.hint, seed: deriveSeed(config.seed, input.env.id, 'hint'), purpose: 'hint' });
    hint = parseHint(reply.text);
  }
  const env: EnvironmentRecord = { ...input.env, code: input.code, status: 'valid', hint, stats: null };
  const played = await playEnvironment(env, model, ports.sandbox, config, ports.emit ?? (() => undefined), gate);
  await gate();
  const scores = scoreEpoch(env.epoch, [env], played, config.reward, 1, input.skillAverages ?? {});
  return { hint, hintGenerated, episodes: scores.episodes, stats: scores.environments[0]!.stats! };
}
