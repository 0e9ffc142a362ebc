/** Wins among some unhinted plays. */
export interface PlayTally {
  plays: number;
  wins: number;
}

/** One lesson of the agent's playbook (docs/method.md section 7, a tab addition). */
export interface Lesson {
  /** `L-e0003-s01` for a lesson learned from that environment, `L-user-<n>` for one a person wrote. */
  id: string;
  skill: string;
  text: string;
  origin: 'learned' | 'user';
  /** The environment whose hinted plays won where unhinted plays failed; null for a person's lesson. */
  sourceEnvId: string | null;
  /** The epoch it was learned in or written after. */
  epoch: number;
  /** The skill's unhinted plays in the last epoch before it was first shown (plays that never saw it). */
  baseline: PlayTally | null;
  /** The skill's unhinted training plays while it was in the agent's prompt. */
  shown: PlayTally;
  status: 'active' | 'retired';
  /** Why it was retired, when it was. */
  retiredBecause: string | null;
}

/** Plays a lesson must have been shown in before its effect counts (and it may be retired). */
export const MIN_PLAYS_FOR_EFFECT = 8;

/** A tally's win rate (0 without plays). */
export function tallyRate(tally: PlayTally): number {
  return tally.plays === 0 ? 0 : tally.wins / tally.plays;
}

/**
 * A lesson's measured effect: the win rate of its skill's unhinted plays while it was shown, minus
 * the rate just before it was first shown; null until it was shown in MIN_PLAYS_FOR_EFFECT plays.
 */
export function lessonEffect(lesson: Lesson): number | null {
  if (!lesson.baseline || lesson.baseline.plays === 0 || lesson.shown.plays < MIN_PLAYS_FOR_EFFECT) return null;
  return tallyRate(lesson.shown) - tallyRate(lesson.baseline);
}

/**
 * The lessons an agent prompt of `skill` shows, best first: active lessons of the skill, those
 * not yet measured first (they need plays to be judged), then by measured effect, newest first on
 * ties, at most `size`.
 */
export function shownLessons(playbook: readonly Lesson[], skill: string, size: number): Lesson[] {
  const rank = (lesson: Lesson) => lessonEffect(lesson) ?? Number.POSITIVE_INFINITY;
  return playbook
    .map((lesson, index) => ({ lesson, index }))
    .filter(({ lesson }) => lesson.status === 'active' && lesson.skill === skill)
    .sort((a, b) => rank(b.lesson) - rank(a.lesson) || b.lesson.epoch - a.lesson.epoch || b.index - a.index)
    .slice(0, size)
    .map(({ lesson }) => lesson);
}

/**
 * The playbook after an epoch's unhinted plays: every shown lesson of a skill adds that skill's
 * plays to its `shown` tally (its baseline is the skill's last tally before it was first shown),
 * and a measured lesson whose effect is not above zero is retired.
 */
export function creditLessons(
  playbook: readonly Lesson[],
  shownIds: ReadonlySet<string>,
  tallies: Readonly<Record<string, PlayTally>>,
  lastTallies: Readonly<Record<string, PlayTally>>,
): Lesson[] {
  return playbook.map((lesson) => {
    const tally = tallies[lesson.skill];
    if (!shownIds.has(lesson.id) || !tally) return lesson;
    const credited: Lesson = {
      ...lesson,
      baseline: lesson.baseline ?? lastTallies[lesson.skill] ?? null,
      shown: { plays: lesson.shown.plays + tally.plays, wins: lesson.shown.wins + tally.wins },
    };
    const effect = lessonEffect(credited);
    if (effect === null || effect > 0) return credited;
    const because = `its skill won ${(100 * tallyRate(credited.shown)).toFixed(0)}% of ${credited.shown.plays} plays with it, against ${(100 * tallyRate(credited.baseline!)).toFixed(0)}% before it`;
    return { ...credited, status: 'retired', retiredBecause: because };
  });
}

/** Longest lesson text kept, in characters. */
export const MAX_LESSON_CHARS = 400;

/** Lists what is wrong with a lesson a person wrote or edited (empty when it can be used). */
export function lessonTextProblems(text: string): string[] {
  const trimmed = text.trim();
  if (trimmed === '') return ['a lesson needs some text'];
  const problems: string[] = [];
  if (trimmed.length > MAX_LESSON_CHARS)
    problems.push(`a lesson has at most ${MAX_LESSON_CHARS} characters, this one has ${trimmed.length}`);
  if (/\\boxed/.test(trimmed)) problems.push('a lesson must not contain a \\boxed{} answer');
  return problems;
}
