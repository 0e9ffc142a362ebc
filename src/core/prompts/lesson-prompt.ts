import type { ChatMessage } from '../ports/chat-port.ts';
import { lessonTextProblems } from '../playbook/lesson.ts';

/** What the lesson request shows the model about the environment that taught it. */
export interface LessonSource {
  skill: string;
  skillDescription: string;
  /** The first observation of an unhinted play (without the hint). */
  observation: string;
  hint: string;
}

/** The lesson request's instructions: the same for every request, so they come first. */
export const LESSON_INSTRUCTIONS = `An agent played the text game described below. Without help it lost; with the hint below it won.
Write ONE lesson the agent can carry to other games of the same skill: a general method or habit in one or two sentences, under 50 words.
Do not mention this game's names, numbers, hidden values or moves: the lesson must help on a game the agent has never seen.
Reply with a single line that starts with "LESSON:".`;

/** The playbook's lesson request (docs/method.md section 7, a tab addition): the fixed instructions, then the skill, the game's first observation and the hint. */
export function buildLessonPrompt(source: LessonSource): ChatMessage[] {
  const content = `${LESSON_INSTRUCTIONS}

The game trains the skill "${source.skill}" (${source.skillDescription}).

The game's first observation:
${source.observation}

The hint that helped:
${source.hint}`;
  return [{ role: 'user', content }];
}

/** A parsed lesson reply: the lesson, or why none could be taken from it. */
export type ParsedLesson = { lesson: string; problem: null } | { lesson: null; problem: string };

/**
 * Reads a lesson reply: closed `<think>` blocks removed, the text after the first `LESSON:` up to
 * the line end; rejected when empty, too long, holding a `\boxed{}` answer, or naming a number of
 * two or more digits that the game's observation shows (a concrete value of that game).
 */
export function parseLesson(reply: string, observation: string): ParsedLesson {
  const text = reply.replace(/<think>[\s\S]*?<\/think>/g, '');
  const match = /LESSON:[ \t]*([^\n]*)/i.exec(text);
  if (!match) return { lesson: null, problem: 'the reply has no line starting with "LESSON:"' };
  const lesson = match[1]!.trim();
  const problems = lessonTextProblems(lesson);
  if (problems.length > 0) return { lesson: null, problem: problems.join('; ') };
  const shown = new Set(observation.match(/\d{2,}/g) ?? []);
  const leaked = (lesson.match(/\d{2,}/g) ?? []).find((n) => shown.has(n));
  if (leaked) return { lesson: null, problem: `the lesson names ${leaked}, a value of this game` };
  return { lesson, problem: null };
}
