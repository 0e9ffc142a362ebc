import {
  lessonEffect,
  lessonTextProblems,
  MIN_PLAYS_FOR_EFFECT,
  shownLessons,
  tallyRate,
  type Lesson,
  type PlayTally,
} from '../../core/playbook/lesson.ts';

export { MAX_LESSON_CHARS } from '../../core/playbook/lesson.ts';

/** One lesson as the playbook panel shows it. */
export interface LessonRow {
  lesson: Lesson;
  /** `learned` from an environment, written by a person (`user`), or a learned lesson a person `edited`. */
  origin: 'learned' | 'user' | 'edited';
  /** When it was learned (`epoch 3`) or written (`after epoch 2`, `before the first epoch`). */
  when: string;
  /** The skill's plays while it was shown, in words. */
  shown: string;
  /** The skill's plays before it was first shown, in words. */
  baseline: string;
  /** Its measured effect (`lessonEffect`), null until measured. */
  effect: number | null;
  /** The effect in words: a signed difference of win rates, or "not measured yet" and why. */
  effectText: string;
  /** True when agent prompts of its skill show it now (active, and among the best `playbookSize`). */
  inPrompts: boolean;
}

/** The lessons of one skill. */
export interface SkillLessons {
  skill: string;
  rows: LessonRow[];
}

const percent = (tally: PlayTally) => `${Math.round(100 * tallyRate(tally))}%`;

function originOf(lesson: Lesson): LessonRow['origin'] {
  if (lesson.origin === 'learned') return 'learned';
  return lesson.sourceEnvId === null ? 'user' : 'edited';
}

function whenOf(lesson: Lesson): string {
  if (lesson.sourceEnvId !== null) return `epoch ${lesson.epoch + 1}`;
  return lesson.epoch < 0 ? 'before the first epoch' : `after epoch ${lesson.epoch + 1}`;
}

function effectText(lesson: Lesson, effect: number | null): string {
  if (effect !== null) return `${effect >= 0 ? '+' : ''}${effect.toFixed(2)} win rate`;
  if (!lesson.baseline || lesson.baseline.plays === 0)
    return 'not measured yet (no plays of its skill before it was shown)';
  return `not measured yet (shown in ${lesson.shown.plays} of the ${MIN_PLAYS_FOR_EFFECT} plays needed)`;
}

/** A lesson's row. */
export function lessonRow(lesson: Lesson, inPrompts: boolean): LessonRow {
  const effect = lessonEffect(lesson);
  return {
    lesson,
    origin: originOf(lesson),
    when: whenOf(lesson),
    shown:
      lesson.shown.plays === 0
        ? 'not shown in a play yet'
        : `${lesson.shown.wins} won of ${lesson.shown.plays} plays (${percent(lesson.shown)})`,
    baseline: lesson.baseline
      ? `${lesson.baseline.wins} won of ${lesson.baseline.plays} plays (${percent(lesson.baseline)})`
      : 'none yet',
    effect,
    effectText: effectText(lesson, effect),
    inPrompts: lesson.status === 'active' && inPrompts,
  };
}

/** The playbook by skill: the run's skills first (in order), then any other skill a lesson has; active lessons before retired ones. */
export function playbookView(
  playbook: readonly Lesson[],
  playbookSize: number,
  skills: readonly string[],
): SkillLessons[] {
  const names = [...new Set([...skills, ...playbook.map((l) => l.skill)])];
  return names.map((skill) => {
    const shown = new Set(shownLessons(playbook, skill, playbookSize).map((l) => l.id));
    const own = playbook.filter((l) => l.skill === skill);
    const ordered = [...own.filter((l) => l.status === 'active'), ...own.filter((l) => l.status === 'retired')];
    return { skill, rows: ordered.map((lesson) => lessonRow(lesson, shown.has(lesson.id))) };
  });
}

/** A changed playbook, or why the change was refused. */
export type PlaybookEdit = { playbook: Lesson[]; problems: [] } | { playbook: null; problems: string[] };

const refused = (...problems: string[]): PlaybookEdit => ({ playbook: null, problems });
const changed = (playbook: Lesson[]): PlaybookEdit => ({ playbook, problems: [] });
const fresh = (): Pick<Lesson, 'baseline' | 'shown'> => ({ baseline: null, shown: { plays: 0, wins: 0 } });

function replace(playbook: readonly Lesson[], id: string, change: (lesson: Lesson) => Lesson): PlaybookEdit {
  if (!playbook.some((l) => l.id === id))
    return refused(`no lesson ${id} in the playbook (it may have changed: reopen the run)`);
  return changed(playbook.map((l) => (l.id === id ? change(l) : l)));
}

/**
 * A lesson with new text (checked with `lessonTextProblems`). It becomes a person's lesson (a
 * learned one keeps its source environment) and its measurement starts again: the plays counted
 * so far saw the old text.
 */
export function editLessonText(playbook: readonly Lesson[], id: string, text: string): PlaybookEdit {
  const problems = lessonTextProblems(text);
  if (problems.length > 0) return refused(...problems);
  if (playbook.find((l) => l.id === id)?.text === text.trim()) return refused('the text is unchanged');
  return replace(playbook, id, (l) => ({ ...l, ...fresh(), text: text.trim(), origin: 'user' }));
}

/** A lesson retired by a person (agent prompts stop showing it). */
export function retireLesson(playbook: readonly Lesson[], id: string): PlaybookEdit {
  return replace(playbook, id, (l) => ({ ...l, status: 'retired', retiredBecause: 'retired by a person' }));
}

/** A retired lesson made active again, its measurement started again (else its old tally would retire it at once). */
export function restoreLesson(playbook: readonly Lesson[], id: string): PlaybookEdit {
  return replace(playbook, id, (l) => ({ ...l, ...fresh(), status: 'active', retiredBecause: null }));
}

/** A person's new lesson for a skill, written after `epochsCompleted` epochs (id `L-user-<n>`, the next free n). */
export function addUserLesson(
  playbook: readonly Lesson[],
  skill: string,
  text: string,
  epochsCompleted: number,
): PlaybookEdit {
  const problems = lessonTextProblems(text);
  if (skill.trim() === '') problems.unshift('choose the skill the lesson is for');
  if (problems.length > 0) return refused(...problems);
  let n = 1;
  while (playbook.some((l) => l.id === `L-user-${n}`)) n++;
  const lesson: Lesson = {
    id: `L-user-${n}`,
    skill,
    text: text.trim(),
    origin: 'user',
    sourceEnvId: null,
    epoch: epochsCompleted - 1,
    ...fresh(),
    status: 'active',
    retiredBecause: null,
  };
  return changed([...playbook, lesson]);
}
