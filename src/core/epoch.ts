import type { AbortSignalLike, ChatModel, ChatRequest, ChatResult } from './chat-port.ts';
import type { Config } from './config.ts';
import type { CorpusDoc } from './corpus.ts';
import { designSlot, type SlotDesign } from './design-slot.ts';
import { isEnvError } from './env/env-error.ts';
import type { EpochStage, SpadeEvent } from './events.ts';
import { rememberEnvironments, type MemoryRecord } from './memory.ts';
import { playEpisode } from './play-episode.ts';
import { buildHintPrompt, parseHint } from './prompts/hint-prompt.ts';
import { deriveSeed } from './random.ts';
import type { Arm, EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from './records.ts';
import type { EnvHandle, SandboxRuntime } from './sandbox-port.ts';
import type { SkillAverages } from './scoring/designer-reward.ts';
import { scoreEpoch } from './score-epoch.ts';

/** What carries over from one epoch to the next: plain data. */
export interface RunState {
  /** Index of the next epoch to run. */
  epoch: number;
  memory: MemoryRecord[];
  skillAverages: Record<string, SkillAverages>;
  /** The model's `snapshot()` after the epoch (scripted models), restored on resume. */
  modelSnapshot?: unknown;
}

/** The initial state of a run. */
export const INITIAL_RUN_STATE: RunState = { epoch: 0, memory: [], skillAverages: {} };

/** The outside world an epoch runs against. */
export interface EpochPorts {
  model: ChatModel;
  sandbox: SandboxRuntime;
  corpus: readonly CorpusDoc[];
  /** Receives progress events. */
  emit?: (event: SpadeEvent) => void;
  /** Awaited before each unit of work (a slot's design, a hint, an episode, the scoring); a run controller blocks here to pause or step. */
  gate?: (stage: EpochStage) => Promise<void>;
  /** Aborts the epoch: model calls are interrupted and the epoch rejects with EpochAbortedError. */
  signal?: AbortSignalLike;
  /** Wall clock in milliseconds, for timings only. */
  now?: () => number;
}

/** Everything one epoch produced, and the state for the next. */
export interface EpochResult {
  epoch: number;
  environments: EnvironmentRecord[];
  episodes: Episode[];
  rollouts: RolloutRow[];
  metrics: EpochMetrics;
  timings: EpochTimings;
  nextState: RunState;
}

/** Stable id of the environment designed in a slot. */
export function environmentId(epoch: number, slot: number): string {
  return `e${String(epoch).padStart(4, '0')}-s${String(slot).padStart(2, '0')}`;
}

/** Plans an epoch's slots: skills round-robin over the active skills, continuing across epochs. */
export function planSlots(config: Config, epoch: number): Array<{ slot: number; skill: string }> {
  return Array.from({ length: config.slotsPerEpoch }, (_, slot) => ({
    slot,
    skill: config.skills[(epoch * config.slotsPerEpoch + slot) % config.skills.length]!,
  }));
}

/** Thrown when an epoch is aborted; nothing of the epoch should be kept. */
export class EpochAbortedError extends Error {
  override readonly name = 'EpochAbortedError';
  constructor() {
    super('The epoch was aborted; nothing of it was kept.');
  }
}

function throwIfAborted(signal: AbortSignalLike | undefined): void {
  if (signal?.aborted) throw new EpochAbortedError();
}

function timedModel(model: ChatModel, clock: () => number, spent: { ms: number }, signal: AbortSignalLike | undefined): ChatModel {
  return {
    id: model.id,
    async complete(request: ChatRequest): Promise<ChatResult> {
      throwIfAborted(signal);
      const start = clock();
      try {
        return await model.complete(signal ? { ...request, signal } : request);
      } finally {
        spent.ms += clock() - start;
        throwIfAborted(signal);
      }
    },
  };
}

function toRecord(epoch: number, slot: number, skill: string, design: SlotDesign): EnvironmentRecord {
  const chosen = design.valid ?? design.attempts[design.attempts.length - 1];
  return {
    id: environmentId(epoch, slot),
    epoch, slot, skill,
    difficulty: design.difficulty,
    docId: design.docId,
    status: design.valid ? 'valid' : 'rejected',
    code: chosen?.code ?? '',
    attempts: design.attempts,
    memoryShown: design.memoryShown,
    hint: null, hintMessages: null, hintReply: null, stats: null,
  };
}

/**
 * One SPADE epoch (SPADE.md section 2), top to bottom:
 * 1 design every slot, 2 hint every valid environment, 3 play K seeds without and with the hint
 * (plus unhinted plays for further rollouts), 4 score, 5 remember.
 */
export async function runEpoch(ports: EpochPorts, state: RunState, config: Config): Promise<EpochResult> {
  const clock = ports.now ?? Date.now;
  const started = clock();
  const modelTime = { ms: 0 };
  const model = timedModel(ports.model, clock, modelTime, ports.signal);
  const emit = ports.emit ?? (() => undefined);
  const gate = async (stage: EpochStage) => {
    throwIfAborted(ports.signal);
    await ports.gate?.(stage);
    throwIfAborted(ports.signal);
  };
  const epoch = state.epoch;
  const slots = planSlots(config, epoch);
  emit({ type: 'epoch_started', epoch, slots });

  const environments: EnvironmentRecord[] = [];
  for (const { slot, skill } of slots) {
    await gate('design');
    const envId = environmentId(epoch, slot);
    const design = await designSlot({
      epoch, slot, skill, envId, config, corpus: ports.corpus, memory: state.memory, model, sandbox: ports.sandbox,
      onAttemptStart: (attempt, docId, repair) => emit({ type: 'design_started', epoch, slot, attempt, skill, docId, repair }),
      onToken: (delta) => emit({ type: 'token', epoch, source: { purpose: 'designer', slot, envId }, delta }),
      onValidated: (attempt, report) => emit({ type: 'validated', epoch, slot, attempt, report }),
    });
    environments.push(toRecord(epoch, slot, skill, design));
    if (!design.valid) emit({ type: 'slot_rejected', epoch, slot, envId });
  }

  for (const env of environments.filter((e) => e.status === 'valid')) {
    await gate('hint');
    env.hintMessages = buildHintPrompt(env.code);
    const reply = await model.complete({
      messages: env.hintMessages,
      ...config.hint,
      seed: deriveSeed(config.seed, env.id, 'hint'),
      purpose: 'hint',
      onToken: (delta) => emit({ type: 'token', epoch, source: { purpose: 'hint', slot: env.slot, envId: env.id }, delta }),
    });
    env.hintReply = reply.text;
    env.hint = parseHint(reply.text);
    emit({ type: 'hinted', epoch, envId: env.id, hint: env.hint });
  }

  const episodes: Episode[] = [];
  for (const env of environments.filter((e) => e.status === 'valid')) {
    episodes.push(...(await playEnvironment(env, model, ports.sandbox, config, emit, gate)));
  }

  await gate('score');
  const scores = scoreEpoch(epoch, environments, episodes, config.reward, config.rolloutsPerEpoch, state.skillAverages);
  for (const env of scores.environments) if (env.stats) emit({ type: 'scored', epoch, envId: env.id, stats: env.stats });
  const nextState: RunState = {
    epoch: epoch + 1,
    memory: rememberEnvironments(state.memory, scores.memoryRecords),
    skillAverages: scores.skillAverages,
    ...(ports.model.snapshot ? { modelSnapshot: ports.model.snapshot() } : {}),
  };
  emit({ type: 'epoch_completed', epoch, metrics: scores.metrics });
  const totalMs = clock() - started;
  return {
    epoch,
    environments: scores.environments,
    episodes: scores.episodes,
    rollouts: scores.rollouts,
    metrics: scores.metrics,
    timings: { epoch, totalMs, modelMs: modelTime.ms, sandboxMs: Math.max(0, totalMs - modelTime.ms) },
    nextState,
  };
}

/** The arms and seeds played for one environment: rollout 0 has both arms on the same K seeds. */
export function playSchedule(config: Config, envId: string): Array<{ rollout: number; arm: Arm; index: number; seed: number }> {
  const schedule: Array<{ rollout: number; arm: Arm; index: number; seed: number }> = [];
  for (let rollout = 0; rollout < config.rolloutsPerEpoch; rollout++) {
    const arms: Arm[] = rollout === 0 ? ['nohint', 'hint'] : ['nohint'];
    for (const arm of arms) {
      for (let index = 0; index < config.playsPerArm; index++) {
        schedule.push({ rollout, arm, index, seed: deriveSeed(config.seed, envId, 'play', rollout, index) });
      }
    }
  }
  return schedule;
}

/** Plays one valid environment's schedule (playSchedule) with one sandbox handle; a crash ends that episode with return -1. */
export async function playEnvironment(
  env: EnvironmentRecord,
  model: ChatModel,
  sandbox: SandboxRuntime,
  config: Config,
  emit: (event: SpadeEvent) => void,
  gate: (stage: EpochStage) => Promise<void>,
): Promise<Episode[]> {
  const episodes: Episode[] = [];
  let handle: EnvHandle | null = null;
  try {
    for (const play of playSchedule(config, env.id)) {
      await gate('play');
      const id = `${env.id}-r${play.rollout}-${play.arm}-${play.index}`;
      handle ??= await sandbox.load(env.code, { maxTurns: config.maxTurns, timeoutMs: config.stepTimeoutMs, stage: 'play' }).catch((error: unknown) => {
        if (isEnvError(error)) return null;
        throw error;
      });
      const played = handle
        ? await playEpisode(model, handle, {
            seed: play.seed,
            hint: play.arm === 'hint' ? env.hint : null,
            maxTurns: config.maxTurns,
            stepTimeoutMs: config.stepTimeoutMs,
            sampling: config.agent,
            modelSeedKey: `${config.seed}:${id}`,
            onToken: (delta) => emit({ type: 'token', epoch: env.epoch, source: { purpose: 'agent', slot: env.slot, envId: env.id, arm: play.arm, playIndex: play.index, rollout: play.rollout }, delta }),
            onTurn: (turnIndex, turn) => emit({ type: 'turn', epoch: env.epoch, envId: env.id, arm: play.arm, playIndex: play.index, rollout: play.rollout, turnIndex, turn }),
          })
        : { firstObservation: '', messages: [], turns: [], return: -1, error: { code: 'env_lost' as const, message: 'The environment could not be loaded again for play.' }, usage: { promptTokens: 0, completionTokens: 0 } };
      if (played.error) {
        await handle?.dispose();
        handle = null;
      }
      const episode: Episode = { id, envId: env.id, epoch: env.epoch, ...play, ...played, advantage: 0 };
      episodes.push(episode);
      emit({ type: 'episode', epoch: env.epoch, episode });
    }
  } finally {
    await handle?.dispose();
  }
  return episodes;
}
