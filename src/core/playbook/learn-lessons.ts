import type { ChatModel, ChatUsage } from '../ports/chat-port.ts';
import type { Config } from '../config.ts';
import { deriveSeed } from '../loop/random.ts';
import { completeThinking } from '../loop/complete-thinking.ts';
import { roleThinking } from '../thinking.ts';
import { buildLessonPrompt, parseLesson } from '../prompts/lesson-prompt.ts';
import type { EnvironmentRecord, Episode } from '../records.ts';
import { skillDescription } from '../skills.ts';
import { creditLessons, type Lesson, type PlayTally } from './lesson.ts';

/** What asking for one lesson produced (kept with the epoch's events, shown in the playbook panel). */
export interface LessonOutcome {
  envId: string;
  skill: string;
  lesson: Lesson | null;
  reply: string;
  /** Why no lesson was kept; null when one was. */
  problem: string | null;
  /** Tokens of the lesson request (counted in the epoch's tokens). */
  usage: ChatUsage;
}

const unhintedKept = (e: Episode) => e.arm === 'nohint' && !e.dropped;

/** Each skill's unhinted kept plays in an epoch, and how many of them were won (return above zero). */
export function skillTallies(
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
): Record<string, PlayTally> {
  const skillOf = new Map(environments.map((env) => [env.id, env.skill]));
  const tallies: Record<string, PlayTally> = {};
  for (const episode of episodes.filter(unhintedKept)) {
    const skill = skillOf.get(episode.envId);
    if (skill === undefined) continue;
    const tally = (tallies[skill] ??= { plays: 0, wins: 0 });
    tally.plays++;
    if (episode.return > 0) tally.wins++;
  }
  return tallies;
}

/**
 * The environment of each skill a lesson is asked from: scored, with a hint arm whose mean beat the
 * matched unhinted plays and at least one hinted play won; the highest regret, then the first slot.
 */
export function lessonSources(
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
): EnvironmentRecord[] {
  const wonHinted = new Set(episodes.filter((e) => e.arm === 'hint' && !e.dropped && e.return > 0).map((e) => e.envId));
  const best = new Map<string, EnvironmentRecord>();
  for (const env of environments) {
    const stats = env.stats;
    if (
      env.status !== 'valid' ||
      !stats ||
      env.hint === null ||
      stats.rHint === null ||
      stats.rHint <= stats.rNoHint ||
      !wonHinted.has(env.id)
    )
      continue;
    const current = best.get(env.skill);
    if (!current || stats.regret > current.stats!.regret) best.set(env.skill, env);
  }
  return [...best.values()];
}

/** The first observation the agent saw without the hint (rollout 0's first kept unhinted play). */
function unhintedObservation(env: EnvironmentRecord, episodes: readonly Episode[]): string {
  return (
    episodes.find((e) => e.envId === env.id && unhintedKept(e) && e.firstObservation !== '')?.firstObservation ?? ''
  );
}

/** Asks the model for one lesson from an environment; the lesson, or why none was kept. */
export async function learnLesson(
  model: ChatModel,
  env: EnvironmentRecord,
  episodes: readonly Episode[],
  config: Config,
): Promise<LessonOutcome> {
  const observation = unhintedObservation(env, episodes);
  const messages = buildLessonPrompt({
    skill: env.skill,
    skillDescription: skillDescription(env.skill),
    observation,
    hint: env.hint ?? '',
  });
  const { text: reply, usage } = await completeThinking(
    model,
    { messages, ...config.hint, seed: deriveSeed(config.seed, env.id, 'lesson'), purpose: 'lesson' },
    roleThinking(config, 'lesson'),
  );
  const parsed = parseLesson(reply, observation);
  if (parsed.lesson === null)
    return { envId: env.id, skill: env.skill, lesson: null, reply, problem: parsed.problem, usage };
  const lesson: Lesson = {
    id: `L-${env.id}`,
    skill: env.skill,
    text: parsed.lesson,
    origin: 'learned',
    sourceEnvId: env.id,
    epoch: env.epoch,
    baseline: null,
    shown: { plays: 0, wins: 0 },
    status: 'active',
    retiredBecause: null,
  };
  return { envId: env.id, skill: env.skill, lesson, reply, problem: null, usage };
}

/** The playbook and per-skill tallies an epoch leaves for the next. */
export interface PlaybookUpdate {
  playbook: Lesson[];
  skillTallies: Record<string, PlayTally>;
}

/**
 * Credits the lessons shown this epoch with their skill's unhinted plays (retiring those that do
 * not help), and records the epoch's tallies as each skill's latest.
 */
export function creditEpoch(
  playbook: readonly Lesson[],
  shownIds: ReadonlySet<string>,
  environments: readonly EnvironmentRecord[],
  episodes: readonly Episode[],
  lastTallies: Readonly<Record<string, PlayTally>>,
): PlaybookUpdate {
  const tallies = skillTallies(environments, episodes);
  return {
    playbook: creditLessons(playbook, shownIds, tallies, lastTallies),
    skillTallies: { ...lastTallies, ...tallies },
  };
}
