import type { EnvironmentRecord, Episode, RolloutRow, RowMessage } from '../core/records.ts';
import type { Checker } from './checker.ts';
import { keptUnhinted, type EpochRecomputation } from './recompute-epoch.ts';

const ROLLOUTS = 'rollouts.jsonl';

/**
 * An agent row's expected messages: the episode's, with weight 1 on every assistant message; with
 * tool-use masks, weight 0 on all of them when the last turn did not terminate, and on the n-th
 * reply when the n-th turn is flagged `malformedCall`.
 */
export function trainedMessages(episode: Episode, masks = false): RowMessage[] {
  const finished = episode.turns.length > 0 && episode.turns[episode.turns.length - 1]!.terminated;
  const replies = episode.messages.filter((m) => m.role === 'assistant');
  return episode.messages.map((m) => {
    if (m.role !== 'assistant') return { ...m };
    const turn = episode.turns[replies.indexOf(m)];
    return { ...m, weight: masks && (!finished || turn?.malformedCall === true) ? 0 : 1 };
  });
}

/**
 * Checks one epoch's training rows: one designer row per scored environment that was designed (a
 * fixed pool's environments have no design to train) with its recomputed reward and advantage, one
 * agent row per kept unhinted episode of a scored (not quarantined) environment (in order) with its return, advantage, rollout group and
 * weighted messages, and no other rows.
 */
export function checkRows(
  epoch: number,
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
  rows: readonly RolloutRow[],
  done: EpochRecomputation,
  check: Checker,
  masks = false,
): void {
  const designers = rows.filter((row) => row.role === 'designer');
  const agents = rows.filter((row) => row.role === 'agent');
  const kept = episodes.filter((e) => keptUnhinted(e) && !done.quarantined.has(e.envId));
  const designed = (env: EnvironmentRecord) => env.attempts.some((a) => a.validation.ok);
  check.value(
    ROLLOUTS,
    `epoch${epoch}`,
    'designer rows',
    designers.length,
    environments.filter((env) => designed(env) && done.stats.has(env.id)).length,
  );
  check.value(ROLLOUTS, `epoch${epoch}`, 'agent rows', agents.length, kept.length);
  check.value(ROLLOUTS, `epoch${epoch}`, 'other rows', rows.length - designers.length - agents.length, 0);
  // A reply flagged as an unreadable call (weight 0) needs the masks on and a <tool_call> tag in it.
  for (const e of episodes) {
    e.turns.forEach((turn, i) => {
      if (turn.malformedCall !== undefined)
        check.value(
          'episodes.jsonl',
          `${e.id}/turn${i}`,
          'malformedCall',
          masks && turn.reply.includes('<tool_call>'),
          true,
        );
    });
  }
  for (const env of environments) {
    const mine = designers.filter((row) => row.envId === env.id);
    const expected = designed(env) ? done.stats.get(env.id) : undefined;
    check.value(ROLLOUTS, `designer/${env.id}`, 'count', mine.length, expected ? 1 : 0);
    if (mine.length === 1 && expected) {
      check.value(ROLLOUTS, `designer/${env.id}`, 'reward', mine[0]!.reward, expected.stats.designerReward);
      check.value(ROLLOUTS, `designer/${env.id}`, 'advantage', mine[0]!.advantage, expected.stats.designerAdvantage);
      const last = mine[0]!.messages.at(-1);
      check.value(
        ROLLOUTS,
        `designer/${env.id}`,
        'last message trained',
        last?.role === 'assistant' && last.weight === 1,
        true,
      );
    }
    const plays = kept.filter((e) => e.envId === env.id);
    const own = agents.filter((row) => row.envId === env.id);
    if (own.length !== plays.length) check.value(ROLLOUTS, `agent/${env.id}`, 'count', own.length, plays.length);
    plays.forEach((e, i) => {
      const row = own[i];
      if (!row) return;
      const id = `agent/${e.id}`;
      check.value(ROLLOUTS, id, 'reward', row.reward, done.returns.get(e.id));
      check.value(ROLLOUTS, id, 'advantage', row.advantage, done.advantages.get(e.id));
      check.value(ROLLOUTS, id, 'group', row.group, `${e.envId}:rollout${e.rollout}`);
      check.value(ROLLOUTS, id, 'messages', row.messages, trainedMessages(e, masks));
    });
  }
}
