import type { AbortSignalLike, ChatModel, ChatRequest, ChatResult, ChatUsage } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import type { CorpusDoc } from './corpus.ts';
import { designSlot, type SlotDesign } from './design-slot.ts';
import type { SpadeEvent } from './events.ts';
import { hintEnvironment } from './hint-environment.ts';
import { rememberEnvironments, type MemoryRecord } from './memory.ts';
import { EnvironmentPlays } from './play-environment.ts';
import { effectiveConcurrency, lookAheadOf, Scheduler, type Gate } from './scheduler.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../records.ts';
import type { EvalRecord } from '../eval/eval-record.ts';
import { evaluateAgent } from '../eval/evaluate.ts';
import type { Suite, SuiteEnvironment } from '../eval/suite.ts';
import { shownLessons, type Lesson, type PlayTally } from '../playbook/lesson.ts';
import { creditEpoch, learnLesson, lessonSources } from '../playbook/learn-lessons.ts';
import { poolRecord, poolSlots } from './pool-slot.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import type { SkillAverages } from '../scoring/designer-reward.ts';
import { scoreEpoch, withLessonTokens } from '../scoring/score-epoch.ts';
import { clipEpochEpisodes } from './stored-episode.ts';
import type { FitListener } from '../budget/fit-request.ts';
import { wrapModel } from '../budget/wrapped-model.ts';
import { BudgetTally } from '../budget/budget-tally.ts';

/** What carries over from one epoch to the next: plain data. */
export interface RunState {
  /** Index of the next epoch to run. */
  epoch: number;
  memory: MemoryRecord[];
  skillAverages: Record<string, SkillAverages>;
  /** The model's `snapshot()` after the epoch and its evaluation (scripted models), restored on resume. */
  modelSnapshot?: unknown;
  /** The agent's playbook (runs that keep one; docs/method.md section 7). */
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
  /** Awaited before each unit of work (a slot's design, a hint, an episode, the scoring, a lesson); a run controller blocks here to pause or step, and hears when the unit is done. */
  gate?: Gate;
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

/** Stable id of the environment designed in a slot: epoch and slot counted from 0, as the run's files count them (every seed of the slot derives from it). */
export function environmentId(epoch: number, slot: number): string {
  return `e${String(epoch).padStart(4, '0')}-s${String(slot).padStart(2, '0')}`;
}

/** Where an environment sits in the words people read, which count epochs and slots from 1: `epoch 2, slot 3` for e0001-s02. */
export function environmentPlace(epoch: number, slot: number): string {
  return `epoch ${epoch + 1}, slot ${slot + 1}`;
}

/** The place of an environment id as `environmentId` writes it (`epoch 2, slot 3` for e0001-s02), or null for any other text (an imported pool's own ids). */
export function placeOfId(id: string): string | null {
  const match = /^e(\d{4,})-s(\d{2,})$/.exec(id);
  return match ? environmentPlace(Number(match[1]), Number(match[2])) : null;
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
 * each gets slots / skillsPerEpoch of them); without, round-robin over all skills, from the first
 * skill each epoch with `restartSkillCycle` (the reference), else continuing across epochs.
 */
export function planSlots(config: Config, epoch: number): Array<{ slot: number; skill: string }> {
  const active = activeSkills(config, epoch);
  const continuing = active.length === config.skills.length && !config.restartSkillCycle;
  const offset = continuing ? epoch * config.slotsPerEpoch : 0;
  return Array.from({ length: config.slotsPerEpoch }, (_, slot) => ({
    slot,
    skill: active[(offset + slot) % active.length]!,
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

// The model's time is the wall time with at least one call in flight, so concurrent calls are counted once.
// Its context window is the run's model's (asked once per model), and each request fitted to it is told to `fitted`.
function timedModel(model: ChatModel, clock: () => number, spent: { ms: number }, signal: AbortSignalLike | undefined, fitted: FitListener['onFitted']): ChatModel & FitListener {
  let inFlight = 0;
  let since = 0;
  const timed = wrapModel(
    model,
    async (request: ChatRequest): Promise<ChatResult> => {
      throwIfAborted(signal);
      if (inFlight++ === 0) since = clock();
      try {
        return await model.complete(signal ? { ...request, signal } : request);
      } finally {
        if (--inFlight === 0) spent.ms += clock() - since;
        throwIfAborted(signal);
      }
    },
    signal,
  );
  return fitted ? { ...timed, onFitted: fitted } : timed;
}

// The fixed order of an epoch's units (a sequential run's order): every design, then every hint, then the plays slot by slot.
const DESIGN_ORDER = 0;
const HINT_ORDER = 1;
const PLAY_ORDER = 2;

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

/** What the work of an epoch shares: the ports, the state it starts from, and the timed model. */
interface EpochWork {
  ports: EpochPorts;
  state: RunState;
  config: Config;
  model: ChatModel;
  emit: (event: SpadeEvent) => void;
  lessonsOf: (skill: string) => Lesson[];
}

/**
 * Designs every slot (SPADE's designer), or takes a fixed-pool run's environments in turn, and
 * hints and plays each valid environment, as units of work on `scheduler`: every slot's design is
 * ready at once; a slot's hint and unhinted plays as soon as it validates; its hinted plays once
 * the hint is in. Resolves with the slots' environments and their plays, in slot order.
 */
async function designHintAndPlay(work: EpochWork, scheduler: Scheduler): Promise<{ environments: EnvironmentRecord[]; plays: EnvironmentPlays[] }> {
  const { ports, state, config, model, emit } = work;
  const epoch = state.epoch;
  const environments: EnvironmentRecord[] = [];
  const plays: Array<EnvironmentPlays | undefined> = [];
  const start = (env: EnvironmentRecord) => {
    const runner = new EnvironmentPlays(
      env,
      model,
      ports.sandbox,
      config,
      emit,
      work.lessonsOf(env.skill).map((l) => l.text),
    );
    plays[env.slot] = runner;
    for (const unit of runner.units('nohint', [PLAY_ORDER, env.slot])) scheduler.add(unit);
    scheduler.add({
      stage: 'hint',
      order: [HINT_ORDER, env.slot],
      run: async () => {
        const hinted = await hintEnvironment(env, model, config, emit);
        env.hintMessages = hinted.messages;
        env.hintReply = hinted.reply;
        env.hint = hinted.hint;
        env.note = hinted.note;
        env.hintUsage = hinted.usage;
        emit({ type: 'hinted', epoch, envId: env.id, hint: env.hint, note: env.note });
        runner.setHint(env.hint !== null);
        if (env.hint !== null) for (const unit of runner.units('hint', [PLAY_ORDER, env.slot])) scheduler.add(unit);
      },
    });
  };
  if (ports.fixedPool && ports.fixedPool.length > 0) {
    const picks = poolSlots(ports.fixedPool, config, epoch);
    emit({ type: 'epoch_started', epoch, slots: picks.map(({ slot, skill }) => ({ slot, skill })) });
    for (const { slot, env } of picks) {
      const record = poolRecord(environmentId(epoch, slot), epoch, slot, env);
      environments[slot] = record;
      emit({ type: 'pool_environment', epoch, slot, envId: record.id, poolId: env.id, skill: env.skill });
    }
    for (const env of environments) start(env);
  } else {
    const slots = planSlots(config, epoch);
    emit({ type: 'epoch_started', epoch, slots });
    for (const { slot, skill } of slots) {
      scheduler.add({
        stage: 'design',
        order: [DESIGN_ORDER, slot],
        run: async () => {
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
            onReplied: (attempt) => emit({ type: 'design_replied', epoch, slot, attempt }),
            onValidated: (attempt, report) => emit({ type: 'validated', epoch, slot, attempt, report }),
          });
          const record = toRecord(epoch, slot, skill, design);
          environments[slot] = record;
          if (design.valid) start(record);
          else emit({ type: 'slot_rejected', epoch, slot, envId });
        },
      });
    }
  }
  try {
    await scheduler.drain();
  } finally {
    await Promise.all(plays.map((runner) => runner?.close()));
  }
  return { environments, plays: plays.filter((runner): runner is EnvironmentPlays => runner !== undefined) };
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
  gate: Gate,
): Promise<EvalRecord[]> {
  const suite = ports.evalSuite;
  if (!suite || config.evalEvery === 0 || afterEpochs % config.evalEvery !== 0) return [];
  const started = await gate('evaluate');
  emit({ type: 'eval_started', epoch, afterEpochs, total: suite.environments.length * config.evalSeeds });
  started?.();
  const record = await evaluateAgent(
    { model, sandbox: ports.sandbox, gate: () => gate('evaluate'), onPlay: (play, done, total) => emit({ type: 'eval_play', epoch, afterEpochs, play, done, total }) },
    { suite, config, playbook, afterEpochs, trigger: 'schedule' },
  );
  const carried = { ...record, epoch };
  emit({ type: 'eval_completed', epoch, record: carried });
  return [carried];
}

/**
 * One SPADE epoch (docs/method.md section 1), top to bottom: 0 (first epoch of a run that schedules
 * evaluations) evaluate the untrained agent, 1 design every slot (skills rotating) or take the
 * fixed pool's next environments, 2 hint every valid environment, 3 play K unhinted seeds and the
 * hinted ones, a fresh instance each (plus K unhinted plays per further rollout), with the
 * playbook's lessons of the skill when the run keeps one, 4 score, 5 credit and learn lessons,
 * 6 remember, 7 evaluate when due. Steps 1-3 overlap up to the run's concurrency (a slot's hint
 * and plays start as soon as it validates); their records come out in the same order at any concurrency.
 */
export async function runEpoch(ports: EpochPorts, state: RunState, config: Config): Promise<EpochResult> {
  const clock = ports.now ?? Date.now;
  const started = clock();
  const modelTime = { ms: 0 };
  const emit = ports.emit ?? (() => undefined);
  const tally = new BudgetTally();
  const model = timedModel(ports.model, clock, modelTime, ports.signal, (purpose, budget) => {
    tally.add(purpose, budget);
    emit({ type: 'prompt_fitted', epoch: state.epoch, purpose, budget });
  });
  const gate: Gate = async (stage) => {
    throwIfAborted(ports.signal);
    const done = await ports.gate?.(stage);
    if (ports.signal?.aborted) done?.();
    throwIfAborted(ports.signal);
    return done;
  };
  const epoch = state.epoch;
  const playbook = state.playbook ?? [];
  const evaluations = epoch === 0 ? await scheduledEvaluation(ports, config, model, playbook, 0, epoch, emit, gate) : [];
  const shown = new Map<string, Lesson[]>();
  const lessonsOf = (skill: string) => (config.usePlaybook ? (shown.get(skill) ?? shown.set(skill, shownLessons(playbook, skill, config.playbookSize)).get(skill)!) : []);
  const scheduler = new Scheduler(effectiveConcurrency(config.concurrency, ports.model), gate, lookAheadOf(ports.sandbox));
  const { environments, plays } = await designHintAndPlay({ ports, state, config, model, emit, lessonsOf }, scheduler);
  const episodes = clipEpochEpisodes(plays.flatMap((runner) => runner.episodes));

  const scoring = await gate('score');
  const scores = scoreEpoch(epoch, environments, episodes, config, state.skillAverages);
  for (const env of scores.environments) if (env.status !== 'rejected') emit({ type: 'scored', epoch, envId: env.id, stats: env.stats, note: env.note, scale: scores.scaleParts });
  scoring?.();
  const learning = config.usePlaybook ? await learnFromEpoch(state, scores.environments, scores.episodes, [...shown.values()].flat(), config, model, emit, gate) : null;
  const promptBudget = tally.summary();
  const metrics = { ...withLessonTokens(scores.metrics, learning?.usage ?? []), ...(promptBudget ? { promptBudget } : {}) };
  const learned: RunState = {
    epoch: epoch + 1,
    memory: rememberEnvironments(state.memory, scores.memoryRecords),
    skillAverages: scores.skillAverages,
    ...learning?.learned,
  };
  emit({ type: 'epoch_completed', epoch, metrics });
  evaluations.push(...(await scheduledEvaluation(ports, config, model, learned.playbook ?? playbook, epoch + 1, epoch, emit, gate)));
  // Taken after the evaluation, whose requests the model counts too, so a resumed run continues exactly.
  const nextState: RunState = ports.model.snapshot ? { ...learned, modelSnapshot: ports.model.snapshot() } : learned;
  const totalMs = clock() - started;
  return {
    epoch,
    environments: scores.environments,
    episodes: scores.episodes,
    rollouts: scores.rollouts,
    metrics,
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
  gate: Gate,
): Promise<{ learned: Pick<RunState, 'playbook' | 'skillTallies'>; usage: ChatUsage[] }> {
  const credited = creditEpoch(state.playbook ?? [], new Set(shown.map((l) => l.id)), environments, episodes, state.skillTallies ?? {});
  const playbook = [...credited.playbook];
  const usage: ChatUsage[] = [];
  for (const env of lessonSources(environments, episodes)) {
    const done = await gate('lesson');
    try {
      const outcome = await learnLesson(model, env, episodes, config);
      if (outcome.lesson) playbook.push(outcome.lesson);
      usage.push(outcome.usage);
      emit({ type: 'lesson', epoch: env.epoch, outcome });
    } finally {
      done?.();
    }
  }
  return { learned: { playbook, skillTallies: credited.skillTallies }, usage };
}
