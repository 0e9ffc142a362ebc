import type { ChatUsage } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { openEpoch, type EpochContext, type EpochPorts } from './epoch-context.ts';
import { rememberEnvironments } from './memory.ts';
import { planEpoch, runSlot } from './run-slot.ts';
import type { RunState } from './run-state.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../records.ts';
import type { EvalRecord } from '../eval/eval-record.ts';
import { evaluateAgent } from '../eval/evaluate.ts';
import type { Lesson } from '../playbook/lesson.ts';
import { creditEpoch, learnLesson, lessonSources } from '../playbook/learn-lessons.ts';
import { scoreEpoch, withLessonTokens } from '../scoring/score-epoch.ts';
import { clipEpochEpisodes } from './stored-episode.ts';

export { EpochAbortedError, type EpochPorts } from './epoch-context.ts';
export { INITIAL_RUN_STATE, type RunState } from './run-state.ts';
export { activeSkills, environmentId, environmentPlace, placeOfId, planSlots } from './slot-plan.ts';

/**
 * One epoch, in the order of docs/method.md section 1 (the held-out evaluation and the playbook are
 * section 7): evaluate the untrained agent first when the run schedules evaluations; 1 plan the
 * slots; then every slot runs its own script (`runSlot`): 2-3 design and validate, 4 hint beside
 * the unhinted plays, 5-6 the hinted plays; 7 score; credit the playbook's lessons and learn new
 * ones; remember; evaluate when due. The slots' steps share the scheduler, up to the run's
 * concurrency; their records come out the same at any concurrency. Resolves with the epoch's
 * records and the state the next epoch starts from (committing them is the caller's step 7).
 */
export async function runEpoch(ports: EpochPorts, state: RunState, config: Config): Promise<EpochResult> {
  const ctx = openEpoch(ports, state, config);
  const { epoch, emit } = ctx;
  const playbook = state.playbook ?? [];
  const evaluations = epoch === 0 ? await evaluateWhenDue(ctx, playbook, 0) : [];

  const slots = await ctx.scheduler.all(planEpoch(ctx).map((planned) => runSlot(ctx, planned)));
  const environments = slots.map((slot) => slot.environment);
  const episodes = clipEpochEpisodes(slots.flatMap((slot) => slot.episodes));

  const scoring = await ctx.gate('score');
  const scores = scoreEpoch(epoch, environments, episodes, config, state.skillAverages);
  for (const env of scores.environments)
    if (env.status !== 'rejected')
      emit({ type: 'scored', epoch, envId: env.id, stats: env.stats, note: env.note, scale: scores.scaleParts });
  scoring?.();

  const learning = config.usePlaybook ? await learnFromEpoch(ctx, scores.environments, scores.episodes) : null;
  const promptBudget = ctx.promptBudget();
  const metrics = {
    ...withLessonTokens(scores.metrics, learning?.usage ?? []),
    ...(promptBudget ? { promptBudget } : {}),
  };
  const learned: RunState = {
    epoch: epoch + 1,
    memory: rememberEnvironments(state.memory, scores.memoryRecords),
    skillAverages: scores.skillAverages,
    ...learning?.learned,
  };
  emit({ type: 'epoch_completed', epoch, metrics });

  evaluations.push(...(await evaluateWhenDue(ctx, learned.playbook ?? playbook, epoch + 1)));
  // Taken after the evaluation, whose requests the model counts too, so a resumed run continues exactly.
  const nextState: RunState = ports.model.snapshot ? { ...learned, modelSnapshot: ports.model.snapshot() } : learned;
  return {
    epoch,
    environments: scores.environments,
    episodes: scores.episodes,
    rollouts: scores.rollouts,
    metrics,
    timings: ctx.timings(),
    evaluations,
    nextState,
  };
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

// Evaluates the agent on the run's held-out suite after `afterEpochs` epochs, when the run schedules evaluations then.
async function evaluateWhenDue(
  ctx: EpochContext,
  playbook: readonly Lesson[],
  afterEpochs: number,
): Promise<EvalRecord[]> {
  const { ports, config, epoch, emit, gate } = ctx;
  const suite = ports.evalSuite;
  if (!suite || config.evalEvery === 0 || afterEpochs % config.evalEvery !== 0) return [];
  const started = await gate('evaluate');
  emit({ type: 'eval_started', epoch, afterEpochs, total: suite.environments.length * config.evalSeeds });
  started?.();
  const record = await evaluateAgent(
    {
      model: ctx.model,
      sandbox: ports.sandbox,
      gate: () => gate('evaluate'),
      onPlay: (play, done, total) => emit({ type: 'eval_play', epoch, afterEpochs, play, done, total }),
    },
    { suite, config, playbook, afterEpochs, trigger: 'schedule' },
  );
  const carried = { ...record, epoch };
  emit({ type: 'eval_completed', epoch, record: carried });
  return [carried];
}

// The playbook step: credit the lessons shown, then ask one lesson per skill where the hint won and the agent alone lost.
async function learnFromEpoch(
  ctx: EpochContext,
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
): Promise<{ learned: Pick<RunState, 'playbook' | 'skillTallies'>; usage: ChatUsage[] }> {
  const { state } = ctx;
  const credited = creditEpoch(
    state.playbook ?? [],
    new Set(ctx.shown().map((l) => l.id)),
    environments,
    episodes,
    state.skillTallies ?? {},
  );
  const playbook = [...credited.playbook];
  const usage: ChatUsage[] = [];
  for (const env of lessonSources(environments, episodes)) {
    const done = await ctx.gate('lesson');
    try {
      const outcome = await learnLesson(ctx.model, env, episodes, ctx.config);
      if (outcome.lesson) playbook.push(outcome.lesson);
      usage.push(outcome.usage);
      ctx.emit({ type: 'lesson', epoch: env.epoch, outcome });
    } finally {
      done?.();
    }
  }
  return { learned: { playbook, skillTallies: credited.skillTallies }, usage };
}
