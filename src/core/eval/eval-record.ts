import type { EnvErrorCode } from '../env/env-error.ts';
import { pooledRate, winRateInterval, type WinCount } from './bootstrap.ts';

/** Why an evaluation ran: on the run's schedule (every N epochs, and before the first) or on demand. */
export type EvalTrigger = 'schedule' | 'demand';

/** One unhinted play of a suite environment. */
export interface EvalPlay {
  envId: string;
  skill: string;
  seed: number;
  return: number;
  /** Return above zero, as SPADE counts a won play. */
  won: boolean;
  turns: number;
  /** Set when the environment crashed or hung (the play counts as lost). */
  error: EnvErrorCode | null;
}

/** A win rate with its 95% interval (bootstrap over environments with a Jeffreys floor: winRateInterval). */
export interface WinRateSummary {
  environments: number;
  episodes: number;
  wins: number;
  winRate: number;
  ci95: [number, number];
}

/** One held-out evaluation of the agent as it was after `afterEpochs` epochs. */
export interface EvalRecord extends WinRateSummary {
  /** The epoch whose commit carries it (`afterEpochs - 1`; -1 for an evaluation before any epoch on demand). */
  epoch: number;
  suite: string;
  suiteSha256: string;
  /** Epochs committed when the agent was evaluated (0: before any training). */
  afterEpochs: number;
  trigger: EvalTrigger;
  /** Whether the playbook's lessons were in the agent's prompts. */
  playbook: boolean;
  /** Lessons shown over all plays (each play counts the lessons of its skill). */
  lessonsShown: number;
  seedsPerEnvironment: number;
  perSkill: Record<string, WinRateSummary>;
  plays: EvalPlay[];
}

/** Seed of the bootstrap behind every interval (fixed, so intervals are reproducible). */
export const EVAL_BOOTSTRAP_SEED = 20240601;

/** Wins and plays per environment, in first-seen order. */
export function countsByEnvironment(plays: readonly EvalPlay[]): WinCount[] {
  const counts = new Map<string, WinCount>();
  for (const play of plays) {
    const count = counts.get(play.envId) ?? { wins: 0, plays: 0 };
    count.plays++;
    if (play.won) count.wins++;
    counts.set(play.envId, count);
  }
  return [...counts.values()];
}

/** Win rate, counts and 95% interval of some plays. */
export function summarizePlays(plays: readonly EvalPlay[]): WinRateSummary {
  const counts = countsByEnvironment(plays);
  return {
    environments: counts.length,
    episodes: plays.length,
    wins: plays.filter((p) => p.won).length,
    winRate: pooledRate(counts),
    ci95: winRateInterval(counts, EVAL_BOOTSTRAP_SEED),
  };
}

/** The overall and per-skill summaries of an evaluation's plays (skills in first-seen order). */
export function summarizeEvaluation(
  plays: readonly EvalPlay[],
): WinRateSummary & { perSkill: Record<string, WinRateSummary> } {
  const skills = [...new Set(plays.map((p) => p.skill))];
  return {
    ...summarizePlays(plays),
    perSkill: Object.fromEntries(
      skills.map((skill) => [skill, summarizePlays(plays.filter((p) => p.skill === skill))]),
    ),
  };
}
