import type { RewardVariant, SkillAverages } from './scoring/designer-reward.ts';
import { designerReward, updateSkillAverages } from './scoring/designer-reward.ts';
import { designerAdvantages, designerScale, groupAdvantages } from './scoring/advantages.ts';
import { fractionWon, hintRegret, mean, winRate } from './scoring/regret.ts';
import type { MemoryRecord } from './memory.ts';
import type { EnvironmentRecord, EnvStats, Episode, EpochMetrics, RolloutRow } from './records.ts';

/** Everything scoring produces for one epoch. */
export interface EpochScores {
  environments: EnvironmentRecord[];
  episodes: Episode[];
  rollouts: RolloutRow[];
  metrics: EpochMetrics;
  memoryRecords: MemoryRecord[];
  skillAverages: Record<string, SkillAverages>;
}

function returnsOf(episodes: readonly Episode[], arm: 'hint' | 'nohint', rollout?: number): number[] {
  return episodes.filter((e) => e.arm === arm && (rollout === undefined || e.rollout === rollout)).map((e) => e.return);
}

function turnsToWin(episodes: readonly Episode[]): number | null {
  const won = episodes.filter((e) => e.arm === 'nohint' && e.return > 0);
  return won.length === 0 ? null : mean(won.map((e) => e.turns.length));
}

/** Agent advantages per GRPO group: the plays of one environment in one rollout. */
function withAgentAdvantages(episodes: readonly Episode[]): Episode[] {
  const groups = new Map<string, Episode[]>();
  for (const e of episodes) groups.set(`${e.envId}:${e.rollout}`, [...(groups.get(`${e.envId}:${e.rollout}`) ?? []), e]);
  const advantage = new Map<string, number>();
  for (const group of groups.values()) {
    groupAdvantages(group.map((e) => e.return)).forEach((a, i) => advantage.set(group[i]!.id, a));
  }
  return episodes.map((e) => ({ ...e, advantage: advantage.get(e.id) ?? 0 }));
}

function agentRow(e: Episode): RolloutRow {
  const last = e.messages.length > 0 && e.messages[e.messages.length - 1]!.role === 'assistant' ? e.messages.length - 1 : e.messages.length;
  return {
    role: 'agent',
    messages: e.messages.slice(0, last),
    completion: last < e.messages.length ? e.messages[last]!.content : '',
    reward: e.return,
    advantage: e.advantage,
    group: `${e.envId}:rollout${e.rollout}`,
    envId: e.envId,
    epoch: e.epoch,
  };
}

function metricsOf(epoch: number, environments: readonly EnvironmentRecord[], episodes: readonly Episode[], scale: number): EpochMetrics {
  const valid = environments.filter((e) => e.stats);
  const stats = valid.map((e) => e.stats!);
  const attempts = environments.flatMap((e) => e.attempts);
  const perSkill: EpochMetrics['perSkill'] = {};
  for (const env of valid) {
    const bucket = valid.filter((e) => e.skill === env.skill).map((e) => e.stats!);
    perSkill[env.skill] = { environments: bucket.length, meanRegret: mean(bucket.map((s) => s.regret)), meanWinRate: mean(bucket.map((s) => s.winRate)) };
  }
  const usage = [...attempts.map((a) => a.usage), ...episodes.map((e) => e.usage)];
  return {
    epoch,
    slots: environments.length,
    validEnvironments: valid.length,
    attempts: attempts.length,
    validityRate: attempts.length === 0 ? 0 : attempts.filter((a) => a.validation.ok).length / attempts.length,
    meanRegret: mean(stats.map((s) => s.regret)),
    meanWinRate: mean(stats.map((s) => s.winRate)),
    meanDesignerReward: mean(stats.map((s) => s.designerReward)),
    episodes: episodes.length,
    designerScale: scale,
    promptTokens: usage.reduce((n, u) => n + u.promptTokens, 0),
    completionTokens: usage.reduce((n, u) => n + u.completionTokens, 0),
    perSkill,
  };
}

/**
 * Scores an epoch (SPADE.md sections 5-7): returns, regret on rollout 0's matched plays, win rate
 * over all unhinted plays, the designer reward, agent and designer advantages, memory records and
 * the per-skill learning-potential averages (updated in slot order).
 */
export function scoreEpoch(
  epoch: number,
  environments: readonly EnvironmentRecord[],
  rawEpisodes: readonly Episode[],
  variant: RewardVariant,
  rollouts: number,
  averages: Readonly<Record<string, SkillAverages>>,
): EpochScores {
  const episodes = withAgentAdvantages(rawEpisodes);
  const skillAverages = { ...averages };
  const scored = environments.map((env) => {
    if (env.status !== 'valid') return env;
    const own = episodes.filter((e) => e.envId === env.id);
    const unhinted = returnsOf(own, 'nohint');
    const regret = hintRegret(returnsOf(own, 'hint', 0), returnsOf(own, 'nohint', 0));
    const meanReturn = winRate(unhinted);
    const hung = own.some((e) => e.error !== null);
    const reward = designerReward(variant, { regret, winRate: meanReturn, meanReturn, skillAverages: skillAverages[env.skill], hung });
    skillAverages[env.skill] = updateSkillAverages(skillAverages[env.skill], meanReturn);
    const stats: EnvStats = {
      rHint: mean(returnsOf(own, 'hint', 0)),
      rNoHint: mean(returnsOf(own, 'nohint', 0)),
      regret,
      winRate: meanReturn,
      fractionWon: fractionWon(unhinted),
      designerReward: reward,
      designerAdvantage: 0,
      hung,
      turnsToWin: turnsToWin(own),
    };
    return { ...env, stats };
  });
  const valid = scored.filter((e) => e.stats);
  const scale = designerScale(episodes.length, valid.length, rollouts);
  const advantages = designerAdvantages(valid.map((e) => ({ skill: e.skill, reward: e.stats!.designerReward })), scale);
  const advantageOf = new Map(valid.map((e, i) => [e.id, advantages[i]!]));
  const finalEnvs = scored.map((e) => (e.stats ? { ...e, stats: { ...e.stats, designerAdvantage: advantageOf.get(e.id)! } } : e));
  const designerRows: RolloutRow[] = finalEnvs.flatMap((e) => {
    const chosen = e.stats ? e.attempts.find((a) => a.validation.ok) : undefined;
    if (!e.stats || !chosen) return [];
    return [{ role: 'designer' as const, messages: chosen.messages, completion: chosen.reply, reward: e.stats.designerReward, advantage: e.stats.designerAdvantage, group: `epoch${epoch}:${e.skill}`, envId: e.id, epoch }];
  });
  return {
    environments: finalEnvs,
    episodes,
    rollouts: [...designerRows, ...episodes.map(agentRow)],
    metrics: metricsOf(epoch, finalEnvs, episodes, scale),
    memoryRecords: finalEnvs.filter((e) => e.stats).map((e) => ({ envId: e.id, skill: e.skill, code: e.code, winRate: e.stats!.fractionWon, regret: e.stats!.regret, epoch })),
    skillAverages,
  };
}
