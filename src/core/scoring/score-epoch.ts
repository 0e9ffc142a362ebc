import type { Config } from '../config.ts';
import type { ChatUsage } from '../ports/chat-port.ts';
import type { SkillAverages } from './designer-reward.ts';
import { designerReward, updateSkillAverages } from './designer-reward.ts';
import { designerAdvantages, designerScale, groupAdvantages, type DesignerScaleParts } from './advantages.ts';
import { fractionWon, hintRegret, mean, winRate } from './regret.ts';
import type { MemoryRecord } from '../loop/memory.ts';
import { HANG_CODES } from '../loop/fresh-instances.ts';
import type {
  DesignAttempt,
  EnvironmentRecord,
  EnvStats,
  Episode,
  EpochMetrics,
  RolloutRow,
  RowMessage,
} from '../records.ts';

/** Everything scoring produces for one epoch. */
export interface EpochScores {
  environments: EnvironmentRecord[];
  episodes: Episode[];
  rollouts: RolloutRow[];
  metrics: EpochMetrics;
  memoryRecords: MemoryRecord[];
  skillAverages: Record<string, SkillAverages>;
  /** The designer scale and its parts (the live score card shows them). */
  scaleParts: DesignerScaleParts;
}

/** An environment is quarantined when at least this share of its planned unhinted plays was dropped. */
export const QUARANTINE_SHARE = 0.5;

const kept = (e: Episode) => !e.dropped;
const unhinted = (e: Episode) => e.arm === 'nohint' && !e.dropped;

/** Agent advantages per GRPO group: the kept unhinted plays of one scored environment in one rollout; hinted plays and a quarantined environment's plays are never trained on. */
function withAgentAdvantages(episodes: readonly Episode[], quarantined: ReadonlySet<string>): Episode[] {
  const groups = new Map<string, Episode[]>();
  for (const e of episodes.filter((e) => unhinted(e) && !quarantined.has(e.envId))) {
    const key = `${e.envId}:${e.rollout}`;
    groups.set(key, [...(groups.get(key) ?? []), e]);
  }
  const advantage = new Map<string, number>();
  for (const group of groups.values()) {
    groupAdvantages(group.map((e) => e.return)).forEach((a, i) => advantage.set(group[i]!.id, a));
  }
  return episodes.map((e) => ({ ...e, advantage: advantage.get(e.id) ?? 0 }));
}

/** The kept unhinted plays of the earliest rollout that has any: rollout 0 unless every one of its plays was dropped (docs/method.md section 2). */
function firstMeasured(plays: readonly Episode[]): Episode[] {
  if (plays.length === 0) return [];
  const rollout = Math.min(...plays.map((e) => e.rollout));
  return plays.filter((e) => e.rollout === rollout);
}

/** Unhinted plays that failed for good (a retried first attempt is not counted twice). */
function droppedPlays(own: readonly Episode[]): number {
  return own.filter((e) => e.arm === 'nohint' && e.dropped && !e.retried).length;
}

/**
 * An agent row's messages: every assistant message weighted 1, or with tool-use masks (the
 * reference's compact filter and malformed-call mask) 0 on every reply of an episode that did not
 * terminate and on each reply flagged `malformedCall`; the row stays, so its group's mean is unchanged.
 */
function agentMessages(e: Episode, masks: boolean): RowMessage[] {
  const unfinished = e.turns.at(-1)?.terminated !== true;
  let reply = 0;
  return e.messages.map((m) => {
    if (m.role !== 'assistant') return { ...m };
    const masked = masks && (unfinished || e.turns[reply]?.malformedCall === true);
    reply += 1;
    return { ...m, weight: masked ? (0 as const) : (1 as const) };
  });
}

function agentRow(e: Episode, masks: boolean): RolloutRow {
  const messages = agentMessages(e, masks);
  return {
    role: 'agent',
    messages,
    reward: e.return,
    advantage: e.advantage,
    group: `${e.envId}:rollout${e.rollout}`,
    envId: e.envId,
    epoch: e.epoch,
    ...(e.clipped ? { clipped: true } : {}),
  };
}

/** The design sample SPADE trains: the valid attempt, or for a repaired design the first turn it repaired. */
function trainedAttempt(env: EnvironmentRecord): DesignAttempt | null {
  const valid = env.attempts.find((a) => a.validation.ok);
  if (!valid) return null;
  return valid.repair ? (env.attempts.find((a) => a.attempt === valid.attempt - 1) ?? valid) : valid;
}

function designerRow(env: EnvironmentRecord, epoch: number): RolloutRow[] {
  const attempt = trainedAttempt(env);
  if (!env.stats || !attempt) return [];
  const messages: RowMessage[] = [
    ...attempt.messages.map((m) => ({ ...m })),
    { role: 'assistant', content: attempt.reply, weight: 1 },
  ];
  return [
    {
      role: 'designer',
      messages,
      reward: env.stats.designerReward,
      advantage: env.stats.designerAdvantage,
      group: `epoch${epoch}:${env.skill}`,
      envId: env.id,
      epoch,
    },
  ];
}

function metricsOf(
  epoch: number,
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
  scale: number,
): EpochMetrics {
  const scored = environments.filter((e) => e.stats);
  const stats = scored.map((e) => e.stats!);
  const attempts = environments.flatMap((e) => e.attempts);
  const perSkill: EpochMetrics['perSkill'] = Object.fromEntries(
    [...new Set(scored.map((e) => e.skill))].map((skill) => {
      const bucket = scored.filter((e) => e.skill === skill).map((e) => e.stats!);
      return [
        skill,
        {
          environments: bucket.length,
          meanRegret: mean(bucket.map((s) => s.regret)),
          meanWinRate: mean(bucket.map((s) => s.winRate)),
        },
      ];
    }),
  );
  // Every model call of the epoch's designer side (designs, repairs, judge calls), hints and agent
  // side; the playbook's lesson requests come after scoring and are added then (withLessonTokens).
  const usage = [
    ...attempts.flatMap((a) => (a.judge?.usage ? [a.usage, a.judge.usage] : [a.usage])),
    ...environments.flatMap((e) => (e.hintUsage ? [e.hintUsage] : [])),
    ...episodes.map((e) => e.usage),
  ];
  return {
    epoch,
    slots: environments.length,
    validEnvironments: scored.length,
    attempts: attempts.length,
    validityRate: attempts.length === 0 ? 0 : attempts.filter((a) => a.validation.ok).length / attempts.length,
    meanRegret: mean(stats.map((s) => s.regret)),
    meanWinRate: mean(stats.map((s) => s.winRate)),
    meanDesignerReward: mean(stats.map((s) => s.designerReward)),
    episodes: episodes.length,
    droppedEpisodes: episodes.filter((e) => e.dropped).length,
    quarantined: environments.filter((e) => e.status === 'quarantined').length,
    designerScale: scale,
    promptTokens: usage.reduce((n, u) => n + u.promptTokens, 0),
    completionTokens: usage.reduce((n, u) => n + u.completionTokens, 0),
    perSkill,
  };
}

/** Updates each skill's averages once with the mean of its kept unhinted returns this epoch. */
function updatedAverages(
  valid: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
  averages: Readonly<Record<string, SkillAverages>>,
): Record<string, SkillAverages> {
  const next = new Map(Object.entries(averages));
  for (const skill of new Set(valid.map((e) => e.skill))) {
    const ids = new Set(valid.filter((e) => e.skill === skill).map((e) => e.id));
    const returns = episodes.filter((e) => ids.has(e.envId) && unhinted(e)).map((e) => e.return);
    if (returns.length > 0) next.set(skill, updateSkillAverages(next.get(skill), mean(returns)));
  }
  return Object.fromEntries(next);
}

function quarantineNote(dropped: number, planned: number): string {
  return `Quarantined: ${dropped} of its ${planned} unhinted plays failed (crashed twice or hung), so it gets no scores or rows and leaves the pool and the memory.`;
}

/** What the memory remembers of a scored environment: rollout 0's share of plays won and the regret (0 under learning potential, which measures none); nothing when rollout 0 kept no play. */
function memoryRecord(
  env: EnvironmentRecord,
  rolloutZeroPlays: readonly Episode[],
  config: Config,
  epoch: number,
): MemoryRecord[] {
  if (rolloutZeroPlays.length === 0) return [];
  const regret = config.reward === 'learning_potential' ? 0 : env.stats!.regret;
  return [
    {
      envId: env.id,
      skill: env.skill,
      code: env.code,
      winRate: fractionWon(rolloutZeroPlays.map((e) => e.return)),
      regret,
      epoch,
    },
  ];
}

/**
 * Scores an epoch (docs/method.md sections 1-2). An environment with at least half of its planned
 * unhinted plays dropped is quarantined first and then counts nowhere: no stats, reward, rows,
 * memory, skill average, advantage group or epoch figure. The others get matched regret on the
 * first rollout that kept a play, the window's win rate over every kept unhinted play, per-skill
 * learning-potential averages updated once per epoch before they are read, agent groups of
 * unhinted plays only, the designer scale from rollout 0's unhinted plays, and memory from
 * rollout 0.
 */
export function scoreEpoch(
  epoch: number,
  environments: readonly EnvironmentRecord[],
  rawEpisodes: readonly Episode[],
  config: Config,
  averages: Readonly<Record<string, SkillAverages>>,
): EpochScores {
  const planned = config.playsPerArm * config.rolloutsPerEpoch;
  const ownOf = (env: EnvironmentRecord) => rawEpisodes.filter((e) => e.envId === env.id);
  const quarantined = new Set(
    environments
      .filter((env) => env.status === 'valid' && droppedPlays(ownOf(env)) >= planned * QUARANTINE_SHARE)
      .map((env) => env.id),
  );
  const episodes = withAgentAdvantages(rawEpisodes, quarantined);
  const valid = environments.filter((e) => e.status === 'valid' && !quarantined.has(e.id));
  const skillAverages = updatedAverages(valid, episodes, averages);
  const groupSize = (skill: string) => valid.filter((e) => e.skill === skill).length;
  const scored = environments.map((env): EnvironmentRecord => {
    if (env.status !== 'valid') return env;
    const own = episodes.filter((e) => e.envId === env.id);
    if (quarantined.has(env.id)) {
      return {
        ...env,
        status: 'quarantined',
        note: [env.note, quarantineNote(droppedPlays(own), planned)].filter(Boolean).join(' '),
        stats: null,
      };
    }
    const windowReturns = own.filter(unhinted).map((e) => e.return);
    const first = firstMeasured(own.filter(unhinted)).map((e) => e.return);
    const hinted = own.filter((e) => e.arm === 'hint' && kept(e)).map((e) => e.return);
    const rHint = env.hint === null || hinted.length === 0 ? null : mean(hinted);
    const regret = rHint === null ? 0 : hintRegret(hinted, first);
    const hung = own.some(
      (e) => e.error !== null && HANG_CODES.has(e.error.code) && (!config.crashesLose || e.rollout === 0),
    );
    const w = winRate(windowReturns);
    const won = own.filter((e) => unhinted(e) && e.return > 0);
    const stats: EnvStats = {
      rHint,
      rNoHint: mean(first),
      regret,
      winRate: w,
      fractionWon: fractionWon(first),
      designerReward: designerReward(config.reward, {
        regret,
        rHint,
        winRate: w,
        windowPlays: windowReturns.length,
        baseline: skillAverages[env.skill]?.slow ?? 0,
        hung,
      }),
      designerAdvantage: 0,
      designerGroupSize: groupSize(env.skill),
      hung,
      droppedPlays: droppedPlays(own),
      turnsToWin: won.length === 0 ? null : mean(won.map((e) => e.turns.length)),
    };
    return { ...env, stats };
  });
  const designs = scored.filter((e) => e.stats);
  const firstRolloutPlays = episodes.filter((e) => unhinted(e) && e.rollout === 0 && !quarantined.has(e.envId)).length;
  const scale = designerScale(firstRolloutPlays, designs.length, config.rolloutsPerEpoch);
  const advantages = designerAdvantages(
    designs.map((e) => ({ skill: e.skill, reward: e.stats!.designerReward })),
    scale,
  );
  const advantageOf = new Map(designs.map((e, i) => [e.id, advantages[i]!]));
  const finalEnvs = scored.map((e) =>
    e.stats ? { ...e, stats: { ...e.stats, designerAdvantage: advantageOf.get(e.id)! } } : e,
  );
  const rolloutZero = (env: EnvironmentRecord) =>
    episodes.filter((e) => e.envId === env.id && unhinted(e) && e.rollout === 0);
  return {
    environments: finalEnvs,
    episodes,
    rollouts: [
      ...finalEnvs.flatMap((e) => designerRow(e, epoch)),
      ...episodes
        .filter((e) => unhinted(e) && !quarantined.has(e.envId))
        .map((e) => agentRow(e, config.toolUseMasks && config.setting === 'tool_use')),
    ],
    metrics: metricsOf(epoch, finalEnvs, episodes, scale),
    memoryRecords: finalEnvs
      .filter((e) => e.status === 'valid' && e.stats)
      .flatMap((e) => memoryRecord(e, rolloutZero(e), config, epoch)),
    skillAverages,
    scaleParts: { agentPlays: firstRolloutPlays, designs: designs.length, rollouts: config.rolloutsPerEpoch, scale },
  };
}

/** The epoch's metrics with the playbook's lesson requests added to its tokens (they are asked after scoring). */
export function withLessonTokens(metrics: EpochMetrics, usage: readonly ChatUsage[]): EpochMetrics {
  if (usage.length === 0) return metrics;
  return {
    ...metrics,
    promptTokens: usage.reduce((n, u) => n + u.promptTokens, metrics.promptTokens),
    completionTokens: usage.reduce((n, u) => n + u.completionTokens, metrics.completionTokens),
  };
}
