import type { ChatModel } from '../../core/ports/chat-port.ts';
import { playSchedule } from '../../core/loop/play-environment.ts';
import type { SpadeEvent } from '../../core/loop/events.ts';
import type { MemoryRecord } from '../../core/loop/memory.ts';
import type { EnvironmentRecord, Episode } from '../../core/records.ts';
import { rescoreEnvironment, type RescoreResult } from '../../core/env/rescore-env.ts';
import type { SandboxRuntime } from '../../core/ports/sandbox-port.ts';
import type { RunState } from '../../core/loop/epoch.ts';
import type { RunMeta, RunStore } from '../../core/ports/store-port.ts';
import { nonfiniteRewardNote, returnedReward } from './step-reward.ts';

/** Everything the environment page shows, read from the store. */
export interface EnvPageData {
  meta: RunMeta;
  env: EnvironmentRecord;
  /** The environment's episodes in play order. */
  episodes: Episode[];
  /** The run's state after its last committed epoch (memory, moving averages, model snapshot). */
  state: RunState;
}

/** Reads one environment with its episodes and its run (null when either is missing). */
export async function loadEnvPage(store: RunStore, runId: string, envId: string): Promise<EnvPageData | null> {
  const [loaded, env, episodes] = await Promise.all([
    store.loadRun(runId),
    store.getEnvironment(runId, envId),
    store.episodesOf(runId, envId),
  ]);
  if (!loaded || !env) return null;
  return { meta: loaded.meta, env, episodes, state: loaded.state };
}

/** The plays of one seed: the unhinted and the hinted episode (rollout 0), side by side. */
export interface EpisodePair {
  /** Play index within the arm. */
  index: number;
  seed: number;
  nohint: Episode | null;
  hint: Episode | null;
}

/** Pairs rollout 0's plays by index (same seed in both arms); later rollouts' unhinted plays come back apart. */
export function pairEpisodes(episodes: readonly Episode[]): { pairs: EpisodePair[]; extra: Episode[] } {
  const byIndex = new Map<number, EpisodePair>();
  const extra: Episode[] = [];
  for (const e of episodes) {
    if (e.rollout !== 0) {
      extra.push(e);
      continue;
    }
    const pair = byIndex.get(e.index) ?? { index: e.index, seed: e.seed, nohint: null, hint: null };
    pair[e.arm] = e;
    byIndex.set(e.index, pair);
  }
  return { pairs: [...byIndex.values()].sort((a, b) => a.index - b.index), extra };
}

/** One step of a replay: the start (turn 0) or the state after turn `turn`. */
export interface ReplayFrame {
  turn: number;
  /** The agent's reply of this turn (null at the start). */
  reply: string | null;
  /** The action parsed from the reply and sent to the environment. */
  action: string | null;
  /** The step's reward as the environment returned it, NaN and infinities included (null at the start, or when the record holds no number). */
  reward: number | null;
  /** How a non-finite reward counted in the return (null for a finite one and at the start). */
  rewardNote: string | null;
  /** The observation the agent sees next (at the start: the first observation, with the hint when hinted). */
  observation: string;
  terminated: boolean;
  truncated: boolean;
}

/** An episode as frames to step through: the first observation, then one frame per turn. */
export function replayFrames(episode: Episode): ReplayFrame[] {
  const start: ReplayFrame = {
    turn: 0,
    reply: null,
    action: null,
    reward: null,
    rewardNote: null,
    observation: episode.firstObservation,
    terminated: false,
    truncated: false,
  };
  const failed = Boolean(episode.error);
  return [
    start,
    ...episode.turns.map((t, i) => ({
      turn: i + 1,
      reply: t.reply,
      action: t.action,
      reward: returnedReward(t),
      rewardNote: nonfiniteRewardNote(episode.turns, i, failed),
      observation: t.observation,
      terminated: t.terminated,
      truncated: t.truncated,
    })),
  ];
}

/** Clamps a replay position to an episode's frames. */
export function clampTurn(turn: number, frames: number): number {
  return Math.max(0, Math.min(frames - 1, turn));
}

/** One environment the designer was shown from memory when it wrote this one. */
export interface MemorySource {
  envId: string;
  role: 'positive' | 'negative';
  /** The record as memory holds it now (null when it has since left memory). */
  record: MemoryRecord | null;
}

/** What memory fed the designer for this environment, and whether the environment is in memory now. */
export function memoryProvenance(
  env: EnvironmentRecord,
  memory: readonly MemoryRecord[],
): { shown: MemorySource[]; inMemory: MemoryRecord | null } {
  const find = (id: string) => memory.find((r) => r.envId === id) ?? null;
  const shown: MemorySource[] = env.memoryShown.positives.map((envId) => ({
    envId,
    role: 'positive' as const,
    record: find(envId),
  }));
  if (env.memoryShown.negative)
    shown.push({ envId: env.memoryShown.negative, role: 'negative', record: find(env.memoryShown.negative) });
  return { shown, inMemory: find(env.id) };
}

/** Seeds to play yourself: the seeds of the environment's rollout-0 plays (its episodes' seeds, or the run's schedule when it has none). */
export function playSeeds(data: Pick<EnvPageData, 'meta' | 'env' | 'episodes'>): number[] {
  const fromEpisodes = data.episodes.filter((e) => e.rollout === 0).map((e) => e.seed);
  const seeds =
    fromEpisodes.length > 0
      ? fromEpisodes
      : playSchedule(data.meta.config, data.env.id)
          .filter((p) => p.rollout === 0)
          .map((p) => p.seed);
  return [...new Set(seeds)];
}

/** What re-scoring needs from the app. */
export interface RescoreDeps {
  /** The run's model (RunController.modelFor). */
  model: (meta: RunMeta) => Promise<ChatModel>;
  sandbox: SandboxRuntime;
}

/**
 * Re-scores the environment with `code` using the run's current model (restored to the run's
 * last snapshot, as a resumed run would be): the first rollout's unhinted and hinted plays on the
 * original seeds, scored alone. Nothing is written to the store. `onEpisode` gets (done, total).
 */
export async function rescoreWithRunModel(
  deps: RescoreDeps,
  data: EnvPageData,
  code: string,
  onEpisode: (done: number, total: number) => void,
  signal?: AbortSignal,
): Promise<RescoreResult> {
  const model = await deps.model(data.meta);
  if (data.state.modelSnapshot !== undefined) model.restore?.(data.state.modelSnapshot);
  const total = data.meta.config.playsPerArm + data.meta.config.hintPlays;
  let done = 0;
  const emit = (event: SpadeEvent) => {
    if (event.type === 'episode') onEpisode(++done, total);
  };
  return rescoreEnvironment(
    { model, sandbox: deps.sandbox, emit, ...(signal ? { signal } : {}) },
    { env: data.env, code, config: data.meta.config, skillAverages: data.state.skillAverages },
  );
}
