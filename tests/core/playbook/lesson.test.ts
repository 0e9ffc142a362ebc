import { describe, expect, it } from 'vitest';
import {
  creditLessons,
  lessonEffect,
  lessonTextProblems,
  MIN_PLAYS_FOR_EFFECT,
  shownLessons,
  type Lesson,
} from '../../../src/core/playbook/lesson.ts';
import { parseLesson } from '../../../src/core/prompts/lesson-prompt.ts';
import { agentFirstMessage, PLAYBOOK_HEADING } from '../../../src/core/prompts/agent-prompt.ts';

function lesson(id: string, patch: Partial<Lesson> = {}): Lesson {
  return {
    id,
    skill: 'Optimization',
    text: `lesson ${id}`,
    origin: 'learned',
    sourceEnvId: 'e0000-s00',
    epoch: 0,
    baseline: null,
    shown: { plays: 0, wins: 0 },
    status: 'active',
    retiredBecause: null,
    ...patch,
  };
}

describe('the playbook', () => {
  it('measures an effect only after enough shown plays, against the baseline', () => {
    expect(
      lessonEffect(
        lesson('a', { baseline: { plays: 4, wins: 1 }, shown: { plays: MIN_PLAYS_FOR_EFFECT - 1, wins: 7 } }),
      ),
    ).toBeNull();
    expect(lessonEffect(lesson('a', { baseline: { plays: 4, wins: 1 }, shown: { plays: 8, wins: 6 } }))).toBe(0.5);
    expect(lessonEffect(lesson('a', { baseline: null, shown: { plays: 8, wins: 6 } }))).toBeNull();
  });

  it('shows unmeasured lessons first, then the best measured ones, only active ones of the skill, at most size', () => {
    const book = [
      lesson('weak', { epoch: 0, baseline: { plays: 8, wins: 4 }, shown: { plays: 8, wins: 5 } }),
      lesson('strong', { epoch: 0, baseline: { plays: 8, wins: 0 }, shown: { plays: 8, wins: 8 } }),
      lesson('new', { epoch: 3 }),
      lesson('retired', { status: 'retired' }),
      lesson('other', { skill: 'Causal Inference' }),
    ];
    expect(shownLessons(book, 'Optimization', 3).map((l) => l.id)).toEqual(['new', 'strong', 'weak']);
    expect(shownLessons(book, 'Optimization', 1).map((l) => l.id)).toEqual(['new']);
    expect(shownLessons(book, 'Causal Inference', 3).map((l) => l.id)).toEqual(['other']);
  });

  it('credits shown lessons with their skill tally, sets the baseline once, and retires a lesson that does not help', () => {
    const book = [lesson('a'), lesson('b'), lesson('c', { skill: 'Causal Inference' })];
    const tallies = { Optimization: { plays: 8, wins: 2 } };
    const last = { Optimization: { plays: 8, wins: 2 } };
    const next = creditLessons(book, new Set(['a', 'c']), tallies, last);
    expect(next[0]).toMatchObject({ baseline: { plays: 8, wins: 2 }, shown: { plays: 8, wins: 2 }, status: 'retired' });
    expect(next[0]!.retiredBecause).toBe('its skill won 25% of 8 plays with it, against 25% before it');
    expect(next[1]).toEqual(book[1]);
    expect(next[2]).toEqual(book[2]);
    const helped = creditLessons([lesson('a')], new Set(['a']), { Optimization: { plays: 8, wins: 6 } }, last);
    expect(helped[0]).toMatchObject({ status: 'active', shown: { plays: 8, wins: 6 } });
    expect(lessonEffect(helped[0]!)).toBe(0.5);
  });

  it('opens the first agent message with the playbook block, and leaves it unchanged without lessons', () => {
    expect(agentFirstMessage('obs', 'Observation: {observation}').content).toBe('Observation: obs');
    expect(agentFirstMessage('obs', 'Observation: {observation}', ['Halve the range.', 'Count first.']).content).toBe(
      `${PLAYBOOK_HEADING}\n- Halve the range.\n- Count first.\n\nObservation: obs`,
    );
  });

  it('parses lesson replies and refuses answers, leaked values and empty or overlong text', () => {
    expect(
      parseLesson(
        '<think>the key was amber</think>LESSON: Look for the one detail that differs.\nmore',
        'The amber key glows.',
      ),
    ).toEqual({
      lesson: 'Look for the one detail that differs.',
      problem: null,
    });
    expect(parseLesson('Just try things.', '')).toEqual({
      lesson: null,
      problem: 'the reply has no line starting with "LESSON:"',
    });
    expect(parseLesson('LESSON: answer \\boxed{42}', '')).toMatchObject({
      lesson: null,
      problem: 'a lesson must not contain a \\boxed{} answer',
    });
    expect(parseLesson('LESSON: the code is 73', 'Code between 10 and 73.')).toEqual({
      lesson: null,
      problem: 'the lesson names 73, a value of this game',
    });
    expect(parseLesson('LESSON:   ', '')).toEqual({ lesson: null, problem: 'a lesson needs some text' });
    expect(lessonTextProblems('x'.repeat(401))).toEqual(['a lesson has at most 400 characters, this one has 401']);
  });
});
