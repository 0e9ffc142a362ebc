import { DEFAULT_CONFIG } from '../../core/config.ts';
import { REWARD_VARIANTS, type RewardVariant } from '../../core/scoring/designer-reward.ts';
import { plateau } from '../../core/scoring/regret.ts';
import { scoreEpoch } from '../../core/scoring/score-epoch.ts';
import type { EnvironmentRecord, Episode } from '../../core/records.ts';

/** An illustrative environment: the returns of its plays, made up to explain the rewards, never taken from a run. */
export interface IllustrativeEnv {
  id: string;
  label: string;
  description: string;
  /** Returns of the K unhinted plays. */
  unhinted: readonly number[];
  /** Returns of the hinted plays on the same seeds. */
  hinted: readonly number[];
}

/** The illustrative environments "why regret" compares, all of one skill in one epoch. */
export const WHY_REGRET_ENVS: readonly IllustrativeEnv[] = [
  {
    id: 'too-hard',
    label: 'Too hard',
    description: 'never won, with or without the hint',
    unhinted: [0, 0, 0, 0],
    hinted: [0, 0, 0, 0],
  },
  {
    id: 'frontier',
    label: 'Frontier',
    description: 'won half the time alone, mostly with the hint',
    unhinted: [1, 0, 1, 0],
    hinted: [1, 1, 1, 0],
  },
  {
    id: 'coin-flip',
    label: 'Coin flip',
    description: 'won half the time, and the hint does not help: luck, not skill',
    unhinted: [0, 1, 1, 0],
    hinted: [1, 0, 0, 1],
  },
  {
    id: 'too-easy',
    label: 'Too easy',
    description: 'always won, hint or not',
    unhinted: [1, 1, 1, 1],
    hinted: [1, 1, 1, 1],
  },
];

/** One illustrative environment as the method scores it. */
export interface WhyRegretRow {
  env: IllustrativeEnv;
  rNoHint: number;
  rHint: number;
  regret: number;
  winRate: number;
  plateau: number;
  /** The designer reward under each variant. */
  rewards: Record<RewardVariant, number>;
}

/** The comparison: every row, the skill's slow average learning potential reads, and which rows each variant ranks first. */
export interface WhyRegret {
  /** The reward variants, in the order a run's settings list them. */
  variants: readonly RewardVariant[];
  rows: WhyRegretRow[];
  /** mu_slow of the skill after this epoch's update (the skill's first epoch, so it starts at the mean return). */
  muSlow: number;
  /** Ids of the rows with the highest reward under each variant. */
  best: Record<RewardVariant, string[]>;
}

const SKILL = 'Logical Deduction';
const NO_USAGE = { promptTokens: 0, completionTokens: 0 };

function record(env: IllustrativeEnv, slot: number): EnvironmentRecord {
  return {
    id: env.id,
    epoch: 0,
    slot,
    skill: SKILL,
    difficulty: 'medium',
    docId: null,
    status: 'valid',
    code: '',
    attempts: [],
    memoryShown: { positives: [], negative: null },
    hint: 'an illustrative hint',
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
  };
}

function episodes(env: IllustrativeEnv): Episode[] {
  const play = (arm: Episode['arm'], index: number, value: number): Episode => ({
    id: `${env.id}-${arm}-${index}`,
    envId: env.id,
    epoch: 0,
    rollout: 0,
    arm,
    index,
    seed: index,
    firstObservation: '',
    messages: [],
    turns: [],
    return: value,
    error: null,
    dropped: false,
    retried: false,
    usage: NO_USAGE,
    advantage: 0,
  });
  return [...env.unhinted.map((r, i) => play('nohint', i, r)), ...env.hinted.map((r, i) => play('hint', i, r))];
}

/**
 * Scores `envs` as one epoch of one skill with the loop's own `scoreEpoch`, once per reward
 * variant, so every number shown is what a run with that variant would compute.
 */
export function whyRegret(envs: readonly IllustrativeEnv[] = WHY_REGRET_ENVS): WhyRegret {
  const environments = envs.map(record);
  const plays = envs.flatMap(episodes);
  const k = Math.max(...envs.map((e) => e.unhinted.length));
  const scored = REWARD_VARIANTS.map((variant) => ({
    variant,
    scores: scoreEpoch(
      0,
      environments,
      plays,
      { ...DEFAULT_CONFIG, reward: variant, playsPerArm: k, hintPlays: k, rolloutsPerEpoch: 1 },
      {},
    ),
  }));
  const first = scored[0]!.scores;
  const rows = envs.map((env, i): WhyRegretRow => {
    const stats = first.environments[i]!.stats!;
    const rewards = Object.fromEntries(
      scored.map(({ variant, scores }) => [variant, scores.environments[i]!.stats!.designerReward]),
    ) as Record<RewardVariant, number>;
    return {
      env,
      rNoHint: stats.rNoHint,
      rHint: stats.rHint ?? 0,
      regret: stats.regret,
      winRate: stats.winRate,
      plateau: plateau(stats.winRate),
      rewards,
    };
  });
  const best = Object.fromEntries(
    REWARD_VARIANTS.map((variant) => {
      const top = Math.max(...rows.map((r) => r.rewards[variant]));
      return [variant, rows.filter((r) => r.rewards[variant] === top).map((r) => r.env.id)];
    }),
  ) as Record<RewardVariant, string[]>;
  return { variants: REWARD_VARIANTS, rows, muSlow: first.skillAverages[SKILL]!.slow, best };
}
