import type { ChatModel } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { envError, isEnvError } from '../env/env-error.ts';
import { FreshInstances, HANG_CODES } from '../loop/fresh-instances.ts';
import { playEpisode } from '../loop/play-episode.ts';
import { deriveSeed } from '../loop/random.ts';
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
  /** Awaited before each play (a run controller pauses here). */
  gate?: () => Promise<void>;
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
  return request.config.usePlaybook ? shownLessons(request.playbook, skill, request.config.playbookSize).map((l) => l.text) : [];
}

async function playEnvironment(ports: EvaluationPorts, request: EvaluationRequest, env: SuiteEnvironment, record: (play: EvalPlay) => void): Promise<void> {
  const { config } = request;
  const instances = new FreshInstances(ports.sandbox, env.code, config);
  const lessons = lessonsFor(request, env.skill);
  let hung = false;
  try {
    for (let index = 0; index < config.evalSeeds; index++) {
      await ports.gate?.();
      const seed = evalSeed(env.id, index);
      const base = { envId: env.id, skill: env.skill, seed, return: 0, won: false, turns: 0 };
      if (hung) {
        record({ ...base, error: envError('env_hung', 'play', { expected: 'the environment to answer in time', seen: 'an earlier play hung', fix: 'make every reset and step return quickly' }).code });
        continue;
      }
      try {
        const handle = await instances.take();
        const played = await playEpisode(ports.model, handle, {
          seed,
          hint: null,
          lessons,
          maxTurns: config.maxTurns,
          stepTimeoutMs: config.stepTimeoutMs,
          sampling: config.agent,
          template: config.prompts.agent,
          toolTemplate: config.prompts.toolAgent,
          modelSeedKey: `eval:${env.id}:${index}`,
        });
        if (played.error) await instances.discard();
        hung = played.error !== null && HANG_CODES.has(played.error.code);
        record({ ...base, return: played.return, won: played.error === null && played.return > 0, turns: played.turns.length, error: played.error?.code ?? null });
      } catch (error) {
        if (!isEnvError(error)) throw error;
        await instances.discard();
        hung = HANG_CODES.has(error.code);
        record({ ...base, error: error.code });
      }
    }
  } finally {
    await instances.discard();
  }
}

/**
 * Evaluates the agent as it was after `afterEpochs` epochs on a held-out suite: `evalSeeds` unhinted plays of every environment on
 * fixed seeds, with the playbook's lessons when the run uses it. A play whose environment crashes
 * or hangs counts as lost; after a hang the environment's remaining plays are lost unplayed.
 */
export async function evaluateAgent(ports: EvaluationPorts, request: EvaluationRequest): Promise<EvalRecord> {
  const plays: EvalPlay[] = [];
  const total = request.suite.environments.length * request.config.evalSeeds;
  const record = (play: EvalPlay) => {
    plays.push(play);
    ports.onPlay?.(play, plays.length, total);
  };
  for (const env of request.suite.environments) await playEnvironment(ports, request, env, record);
  const lessonsShown = request.suite.environments.reduce((n, env) => n + lessonsFor(request, env.skill).length * request.config.evalSeeds, 0);
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
