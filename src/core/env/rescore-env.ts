import { wrapModel } from '../budget/wrapped-model.ts';
import type { AbortSignalLike, ChatModel, ChatRequest } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { EpochAbortedError } from '../loop/epoch.ts';
import type { SpadeEvent } from '../loop/events.ts';
import { hintEnvironment } from '../loop/hint-environment.ts';
import { EnvironmentPlays } from '../loop/play-environment.ts';
import { effectiveConcurrency, lookAheadOf, Scheduler, type Gate } from '../loop/scheduler.ts';
import type { EnvironmentRecord, EnvStats, Episode } from '../records.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import type { SkillAverages } from '../scoring/designer-reward.ts';
import { scoreEpoch } from '../scoring/score-epoch.ts';

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

/** What re-scoring found: the hint used, the episodes of the first rollout and the environment's scores. */
export interface RescoreResult {
  hint: string | null;
  /** True when the environment had no hint and the model wrote one (as the epoch does). */
  hintGenerated: boolean;
  episodes: Episode[];
  stats: EnvStats;
}

/**
 * Plays one environment's first rollout (K unhinted plays and the hinted ones, on the original
 * episodes' seeds), then scores it alone with scoreEpoch. An environment without a hint gets one
 * from the model first, exactly as the epoch asks for it.
 */
export async function rescoreEnvironment(ports: RescorePorts, input: RescoreInput): Promise<RescoreResult> {
  const { signal } = ports;
  const config: Config = { ...input.config, rolloutsPerEpoch: 1 };
  const model = wrapModel(
    ports.model,
    (request: ChatRequest) => ports.model.complete(signal ? { ...request, signal } : request),
    signal,
  );
  const gate = async () => {
    if (signal?.aborted) throw new EpochAbortedError();
  };
  await gate();
  const emit = ports.emit ?? (() => undefined);
  const hintGenerated = input.env.hint === null;
  const hinted = hintGenerated ? await hintEnvironment({ ...input.env, code: input.code }, model, config, emit) : null;
  const hint = hinted ? hinted.hint : input.env.hint;
  const env: EnvironmentRecord = {
    ...input.env,
    code: input.code,
    status: 'valid',
    hint,
    note: hinted?.note ?? null,
    stats: null,
  };
  const played = await playEnvironment(env, model, ports.sandbox, config, emit, gate);
  await gate();
  const scores = scoreEpoch(env.epoch, [env], played, config, input.skillAverages ?? {});
  const scored = scores.environments[0]!;
  if (!scored.stats) throw new Error(`the environment got no scores: ${scored.note ?? scored.status}`);
  return { hint, hintGenerated, episodes: scores.episodes, stats: scored.stats };
}

// Plays one valid environment's schedule (see EnvironmentPlays), up to the run's concurrency at
// once: the unhinted plays and, when the environment has a hint, the hinted ones.
async function playEnvironment(
  env: EnvironmentRecord,
  model: ChatModel,
  sandbox: SandboxRuntime,
  config: Config,
  emit: (event: SpadeEvent) => void,
  gate: Gate,
  lessons: readonly string[] = [],
): Promise<Episode[]> {
  const plays = new EnvironmentPlays(env, model, sandbox, config, emit, lessons);
  const scheduler = new Scheduler(effectiveConcurrency(config.concurrency, model), gate, lookAheadOf(sandbox));
  plays.setHint(env.hint);
  try {
    await scheduler.all([
      plays.playArm('nohint', scheduler, []),
      ...(env.hint !== null ? [plays.playArm('hint', scheduler, [])] : []),
    ]);
  } finally {
    await plays.close();
  }
  return plays.episodes;
}
