import type { AbortSignalLike, ChatModel, ChatRequest, ChatResult } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import type { CorpusDoc } from './corpus.ts';
import { designSlot, type SlotDesign } from './design-slot.ts';
import type { EpochStage, SpadeEvent } from './events.ts';
import { hintEnvironment } from './hint-environment.ts';
import { rememberEnvironments, type MemoryRecord } from './memory.ts';
import { playEnvironment } from './play-environment.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../records.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import type { SkillAverages } from '../scoring/designer-reward.ts';
import { scoreEpoch } from '../scoring/score-epoch.ts';

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

/**
 * The skills active in an epoch: a window of `skillsPerEpoch` that advances by its own size each
 * epoch (SPADE's skill rotation); all skills when the window covers them.
 */
export function activeSkills(config: Config, epoch: number): string[] {
  const n = config.skills.length;
  const k = config.skillsPerEpoch;
  if (k >= n) return [...config.skills];
  const start = (epoch * k) % n;
  return Array.from({ length: k }, (_, j) => config.skills[(start + j) % n]!);
}

/**
 * Plans an epoch's slots: with rotation, slots go round-robin over the epoch's active skills (so
 * each gets slots / skillsPerEpoch of them); without, round-robin over all skills, continuing
 * across epochs.
 */
export function planSlots(config: Config, epoch: number): Array<{ slot: number; skill: string }> {
  const active = activeSkills(config, epoch);
  const rotating = active.length < config.skills.length;
  return Array.from({ length: config.slotsPerEpoch }, (_, slot) => ({
    slot,
    skill: rotating ? active[slot % active.length]! : config.skills[(epoch * config.slotsPerEpoch + slot) % config.skills.length]!,
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
    epoch,
    slot,
    skill,
    difficulty: design.difficulty,
    docId: design.docId,
    status: design.valid ? 'valid' : 'rejected',
    code: chosen?.code ?? '',
    attempts: design.attempts,
    memoryShown: design.memoryShown,
    hint: null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
  };
}

/**
 * One SPADE epoch (SPADE.md section 2), top to bottom:
 * 1 design every slot (skills rotating), 2 hint every valid environment, 3 play K unhinted seeds
 * and the hinted ones, a fresh instance each (plus K unhinted plays per further rollout), 4 score,
 * 5 remember.
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
      epoch,
      slot,
      skill,
      envId,
      config,
      corpus: ports.corpus,
      memory: state.memory,
      model,
      sandbox: ports.sandbox,
      onAttemptStart: (attempt, docId, repair) => emit({ type: 'design_started', epoch, slot, attempt, skill, docId, repair }),
      onToken: (delta) => emit({ type: 'token', epoch, source: { purpose: 'designer', slot, envId }, delta }),
      onValidated: (attempt, report) => emit({ type: 'validated', epoch, slot, attempt, report }),
    });
    environments.push(toRecord(epoch, slot, skill, design));
    if (!design.valid) emit({ type: 'slot_rejected', epoch, slot, envId });
  }

  for (const env of environments.filter((e) => e.status === 'valid')) {
    await gate('hint');
    const hinted = await hintEnvironment(env, model, config, emit);
    env.hintMessages = hinted.messages;
    env.hintReply = hinted.reply;
    env.hint = hinted.hint;
    env.note = hinted.note;
    emit({ type: 'hinted', epoch, envId: env.id, hint: env.hint, note: env.note });
  }

  const episodes: Episode[] = [];
  for (const env of environments.filter((e) => e.status === 'valid')) {
    episodes.push(...(await playEnvironment(env, model, ports.sandbox, config, emit, gate)));
  }

  await gate('score');
  const scores = scoreEpoch(epoch, environments, episodes, config, state.skillAverages);
  for (const env of scores.environments) if (env.stats) emit({ type: 'scored', epoch, envId: env.id, stats: env.stats, note: env.note });
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
