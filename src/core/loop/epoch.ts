import type { AbortSignalLike, ChatModel, ChatRequest, ChatResult } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import type { CorpusDoc } from './corpus.ts';
import { designSlot, type SlotDesign } from './design-slot.ts';
import type { EpochStage, SpadeEvent } from './events.ts';
import { hintEnvironment } from './hint-environment.ts';
import { rememberEnvironments, type MemoryRecord } from './memory.ts';
import { playEnvironment } from './play-environment.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../records.ts';
import type { EvalRecord } from '../eval/eval-record.ts';
import { evaluateAgent } from '../eval/evaluate.ts';
import type { Suite, SuiteEnvironment } from '../eval/suite.ts';
import { shownLessons, type Lesson, type PlayTally } from '../playbook/lesson.ts';
import { creditEpoch, learnLesson, lessonSources } from '../playbook/learn-lessons.ts';
import { poolRecord, poolSlots } from './pool-slot.ts';
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
  /** The agent's playbook (runs that keep one; SPADE.md section 8). */
  playbook?: Lesson[];
  /** Each skill's unhinted plays in the last epoch that played it: the baseline of a lesson first shown next. */
  skillTallies?: Record<string, PlayTally>;
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
  /** The held-out suite the run's scheduled evaluations play (none scheduled without it). */
  evalSuite?: Suite;
  /** A fixed-pool run's environments (SPADE's `fixed_env` mode): played in turn instead of designed. */
  fixedPool?: readonly SuiteEnvironment[];
}

/** Everything one epoch produced, and the state for the next. */
export interface EpochResult {
  epoch: number;
  environments: EnvironmentRecord[];
  episodes: Episode[];
  rollouts: RolloutRow[];
  metrics: EpochMetrics;
  timings: EpochTimings;
  /** Held-out evaluations run in this epoch: before the first epoch, and after every `evalEvery` epochs. */
  evaluations: EvalRecord[];
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
    ...(design.domain !== undefined ? { domain: design.domain } : {}),
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

/** Designs every slot of the epoch (SPADE's designer), or takes a fixed-pool run's environments in turn. */
async function slotEnvironments(
  ports: EpochPorts,
  state: RunState,
  config: Config,
  model: ChatModel,
  emit: (event: SpadeEvent) => void,
  gate: (stage: EpochStage) => Promise<void>,
): Promise<EnvironmentRecord[]> {
  const epoch = state.epoch;
  if (ports.fixedPool && ports.fixedPool.length > 0) {
    const picks = poolSlots(ports.fixedPool, config, epoch);
    emit({ type: 'epoch_started', epoch, slots: picks.map(({ slot, skill }) => ({ slot, skill })) });
    return picks.map(({ slot, env }) => {
      const record = poolRecord(environmentId(epoch, slot), epoch, slot, env);
      emit({ type: 'pool_environment', epoch, slot, envId: record.id, poolId: env.id, skill: env.skill });
      return record;
    });
  }
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
  return environments;
}

/** Evaluates the agent on the run's held-out suite after `afterEpochs` epochs, when the run schedules evaluations. */
async function scheduledEvaluation(
  ports: EpochPorts,
  config: Config,
  model: ChatModel,
  playbook: readonly Lesson[],
  afterEpochs: number,
  epoch: number,
  emit: (event: SpadeEvent) => void,
  gate: (stage: EpochStage) => Promise<void>,
): Promise<EvalRecord[]> {
  const suite = ports.evalSuite;
  if (!suite || config.evalEvery === 0 || afterEpochs % config.evalEvery !== 0) return [];
  await gate('evaluate');
  emit({ type: 'eval_started', epoch, afterEpochs, total: suite.environments.length * config.evalSeeds });
  const record = await evaluateAgent(
    { model, sandbox: ports.sandbox, gate: () => gate('evaluate'), onPlay: (play, done, total) => emit({ type: 'eval_play', epoch, afterEpochs, play, done, total }) },
    { suite, config, playbook, afterEpochs, trigger: 'schedule' },
  );
  const carried = { ...record, epoch };
  emit({ type: 'eval_completed', epoch, record: carried });
  return [carried];
}

/**
 * One SPADE epoch (SPADE.md section 2), top to bottom: 0 (first epoch of a run that schedules
 * evaluations) evaluate the untrained agent, 1 design every slot (skills rotating) or take the
 * fixed pool's next environments, 2 hint every valid environment, 3 play K unhinted seeds and the
 * hinted ones, a fresh instance each (plus K unhinted plays per further rollout), with the
 * playbook's lessons of the skill when the run keeps one, 4 score, 5 credit and learn lessons,
 * 6 remember, 7 evaluate when due.
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
  const playbook = state.playbook ?? [];
  const evaluations = epoch === 0 ? await scheduledEvaluation(ports, config, model, playbook, 0, epoch, emit, gate) : [];
  const environments = await slotEnvironments(ports, state, config, model, emit, gate);

  for (const env of environments.filter((e) => e.status === 'valid')) {
    await gate('hint');
    const hinted = await hintEnvironment(env, model, config, emit);
    env.hintMessages = hinted.messages;
    env.hintReply = hinted.reply;
    env.hint = hinted.hint;
    env.note = hinted.note;
    emit({ type: 'hinted', epoch, envId: env.id, hint: env.hint, note: env.note });
  }

  const shown = new Map<string, Lesson[]>();
  const lessonsOf = (skill: string) => (config.usePlaybook ? (shown.get(skill) ?? shown.set(skill, shownLessons(playbook, skill, config.playbookSize)).get(skill)!) : []);
  const episodes: Episode[] = [];
  for (const env of environments.filter((e) => e.status === 'valid')) {
    const lessons = lessonsOf(env.skill).map((l) => l.text);
    episodes.push(...(await playEnvironment(env, model, ports.sandbox, config, emit, gate, lessons)));
  }

  await gate('score');
  const scores = scoreEpoch(epoch, environments, episodes, config, state.skillAverages);
  for (const env of scores.environments) if (env.stats) emit({ type: 'scored', epoch, envId: env.id, stats: env.stats, note: env.note });
  const learning = config.usePlaybook ? await learnFromEpoch(state, scores.environments, scores.episodes, [...shown.values()].flat(), config, model, emit, gate) : {};
  const nextState: RunState = {
    epoch: epoch + 1,
    memory: rememberEnvironments(state.memory, scores.memoryRecords),
    skillAverages: scores.skillAverages,
    ...(ports.model.snapshot ? { modelSnapshot: ports.model.snapshot() } : {}),
    ...learning,
  };
  emit({ type: 'epoch_completed', epoch, metrics: scores.metrics });
  evaluations.push(...(await scheduledEvaluation(ports, config, model, nextState.playbook ?? playbook, epoch + 1, epoch, emit, gate)));
  const totalMs = clock() - started;
  return {
    epoch,
    environments: scores.environments,
    episodes: scores.episodes,
    rollouts: scores.rollouts,
    metrics: scores.metrics,
    timings: { epoch, totalMs, modelMs: modelTime.ms, sandboxMs: Math.max(0, totalMs - modelTime.ms) },
    evaluations,
    nextState,
  };
}

/** The playbook step of an epoch: credit the lessons shown, then ask one lesson per skill where the hint won and the agent alone lost. */
async function learnFromEpoch(
  state: RunState,
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
  shown: readonly Lesson[],
  config: Config,
  model: ChatModel,
  emit: (event: SpadeEvent) => void,
  gate: (stage: EpochStage) => Promise<void>,
): Promise<Pick<RunState, 'playbook' | 'skillTallies'>> {
  const credited = creditEpoch(state.playbook ?? [], new Set(shown.map((l) => l.id)), environments, episodes, state.skillTallies ?? {});
  const playbook = [...credited.playbook];
  for (const env of lessonSources(environments, episodes)) {
    await gate('lesson');
    const outcome = await learnLesson(model, env, episodes, config);
    if (outcome.lesson) playbook.push(outcome.lesson);
    emit({ type: 'lesson', epoch: env.epoch, outcome });
  }
  return { playbook, skillTallies: credited.skillTallies };
}
