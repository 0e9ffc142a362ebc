import type { ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { envError, isEnvError } from '../env/env-error.ts';
import { FreshInstances, HANG_CODES } from '../loop/fresh-instances.ts';
import { effectiveConcurrency, lookAheadOf, Scheduler, type UnitDone, type WorkUnit } from '../loop/scheduler.ts';
import { playEpisode } from '../loop/play-episode.ts';
import { deriveSeed } from '../loop/random.ts';
import { agentSettings } from '../loop/agent-settings.ts';
import type { SandboxRuntime } from '../ports/sandbox-port.ts';
import { shownLessons, type Lesson } from '../playbook/lesson.ts';
import { summarizeEvaluation, type EvalPlay, type EvalRecord, type EvalTrigger } from './eval-record.ts';
import type { Suite, SuiteEnvironment } from './suite.ts';

/** What an evaluation runs against. */
export interface EvaluationPorts {
  model: ChatModel;
  sandbox: SandboxRuntime;
  /** Hears of each play as it ends (for a live view). */
  onPlay?: (play: EvalPlay, done: number, total: number) => void;
  /** Awaited before each play starts (a run controller pauses here); may resolve to a function called when that play is done. */
  gate?: () => Promise<UnitDone | void>;
}

/** What to evaluate: the suite, and the agent as it is now (the run's config and playbook). */
export interface EvaluationRequest {
  suite: Suite;
  config: Config;
  playbook: readonly Lesson[];
  afterEpochs: number;
  trigger: EvalTrigger;
}

/**
 * The seed of a suite environment's i-th evaluation play: derived from the environment's id only,
 * so every run and every evaluation plays the same instances.
 */
export function evalSeed(envId: string, index: number): number {
  return deriveSeed('eval', envId, index);
}

/** The lessons an evaluation play of `skill` shows (none with the playbook off). */
function lessonsFor(request: EvaluationRequest, skill: string): string[] {
  return request.config.usePlaybook
    ? shownLessons(request.playbook, skill, request.config.playbookSize).map((l) => l.text)
    : [];
}

type PlayOutcome = { play: EvalPlay; hung: boolean } | 'not run';

/** One suite environment's plays as units of work: a play after the first hang (in seed order) is lost, even if it ran. */
function environmentUnits(
  ports: EvaluationPorts,
  request: EvaluationRequest,
  env: SuiteEnvironment,
  position: number,
  final: (play: EvalPlay) => void,
): { units: WorkUnit[]; instances: FreshInstances } {
  const { config } = request;
  const instances = new FreshInstances(ports.sandbox, env.code, config);
  const lessons = lessonsFor(request, env.skill);
  const outcomes: Array<PlayOutcome | undefined> = [];
  let firstHang = Infinity;
  let cursor = 0;
  let hung = false;
  const base = (index: number) => ({
    envId: env.id,
    skill: env.skill,
    seed: evalSeed(env.id, index),
    return: 0,
    won: false,
    turns: 0,
  });
  const flush = () => {
    for (; cursor < config.evalSeeds && (hung || outcomes[cursor] !== undefined); cursor++) {
      const outcome = outcomes[cursor]!;
      if (hung || outcome === 'not run') {
        final({
          ...base(cursor),
          error: envError('env_hung', 'play', {
            expected: 'the environment to answer in time',
            seen: 'an earlier play hung',
            fix: 'make every reset and step return quickly',
          }).code,
        });
        continue;
      }
      final(outcome.play);
      hung = outcome.hung;
    }
    if (cursor === config.evalSeeds && outcomes.filter((o) => o !== undefined).length === config.evalSeeds)
      void instances.close().catch(() => undefined);
  };
  const play = async (index: number): Promise<{ play: EvalPlay; hung: boolean }> => {
    try {
      const played = await instances.play((handle) =>
        playEpisode(ports.model, handle, {
          seed: evalSeed(env.id, index),
          hint: null,
          lessons,
          ...agentSettings(config, ports.model),
          modelSeedKey: `eval:${env.id}:${index}`,
        }),
      );
      const record = {
        ...base(index),
        return: played.return,
        won: played.error === null && played.return > 0,
        turns: played.turns.length,
        error: played.error?.code ?? null,
      };
      return { play: record, hung: played.error !== null && HANG_CODES.has(played.error.code) };
    } catch (error) {
      if (!isEnvError(error)) throw error;
      return { play: { ...base(index), error: error.code }, hung: HANG_CODES.has(error.code) };
    }
  };
  // Each seed is played in an interpreter of its own, reserved ahead of its turn.
  const units = Array.from({ length: config.evalSeeds }, (_, index): WorkUnit =>
    instances.reserving({
      stage: 'evaluate',
      order: [position, index],
      run: async () => {
        const outcome: PlayOutcome = index > firstHang ? 'not run' : await play(index);
        if (outcome !== 'not run' && outcome.hung) firstHang = Math.min(firstHang, index);
        outcomes[index] = outcome;
        flush();
      },
    }),
  );
  return { units, instances };
}

/**
 * Evaluates the agent as it was after `afterEpochs` epochs on a held-out suite: `evalSeeds` unhinted plays of every environment on
 * fixed seeds, with the playbook's lessons when the run uses it. A play whose environment crashes
 * or hangs counts as lost; after a hang the environment's remaining plays (in seed order) are lost,
 * unplayed. Every play runs in an interpreter of its own; plays run up to the run's concurrency at
 * once.
 */
export async function evaluateAgent(ports: EvaluationPorts, request: EvaluationRequest): Promise<EvalRecord> {
  const total = request.suite.environments.length * request.config.evalSeeds;
  const perEnvironment = request.suite.environments.map((): EvalPlay[] => []);
  const opened: FreshInstances[] = [];
  let done = 0;
  const scheduler = new Scheduler(
    effectiveConcurrency(request.config.concurrency, ports.model),
    () => ports.gate?.() ?? Promise.resolve(),
    lookAheadOf(ports.sandbox),
  );
  request.suite.environments.forEach((env, position) => {
    const final = (play: EvalPlay) => {
      perEnvironment[position]!.push(play);
      ports.onPlay?.(play, ++done, total);
    };
    const { units, instances } = environmentUnits(ports, request, env, position, final);
    opened.push(instances);
    for (const unit of units) scheduler.add(unit);
  });
  try {
    await scheduler.drain();
  } finally {
    await Promise.all(opened.map((instances) => instances.close()));
  }
  const plays = perEnvironment.flat();
  const lessonsShown = request.suite.environments.reduce(
    (n, env) => n + lessonsFor(request, env.skill).length * request.config.evalSeeds,
    0,
  );
  return {
    epoch: request.afterEpochs - 1,
    suite: request.suite.name,
    suiteSha256: request.suite.sha256,
    afterEpochs: request.afterEpochs,
    trigger: request.trigger,
    playbook: request.config.usePlaybook,
    lessonsShown,
    seedsPerEnvironment: request.config.evalSeeds,
    ...summarizeEvaluation(plays),
    plays,
  };
}
