import { describe, expect, it } from 'vitest';
import { extractBoxed, parseAction } from '../../../src/core/prompts/agent-prompt.ts';
import { parseHint } from '../../../src/core/prompts/hint-prompt.ts';

describe('parseAction', () => {
  it.each([
    ['simple box', 'So the answer is \\boxed{42}.', '\\boxed{42}'],
    ['first of several boxes', '\\boxed{a} then \\boxed{b}', '\\boxed{a}'],
    ['nested braces', 'Result: \\boxed{\\frac{1}{2}}', '\\boxed{\\frac{1}{2}}'],
    ['simple box wins over an earlier nested one', '\\boxed{\\frac{1}{2}} or \\boxed{3}', '\\boxed{3}'],
    ['double braces', 'answer \\boxed{{up}}', '\\boxed{up}'],
    ['whitespace trimmed', '\\boxed{  left }', '\\boxed{left}'],
    ['no box: stripped raw text', '  move north  ', 'move north'],
    ['think block ignored', '<think>maybe \\boxed{1}</think> I choose \\boxed{2}', '\\boxed{2}'],
    ['unclosed think swallows the rest', 'go \\boxed{7} <think>\\boxed{8}', '\\boxed{7}'],
    ['unbalanced box falls back to raw text', 'I pick \\boxed{oops', 'I pick \\boxed{oops'],
    ['empty reply', '', ''],
  ])('%s', (_name, reply, expected) => {
    expect(parseAction(reply)).toBe(expected);
  });

  it('extractBoxed takes the last balanced box when no simple one exists', () => {
    expect(extractBoxed('\\boxed{\\frac{1}{2}} and \\boxed{\\sqrt{4}}')).toBe('\\sqrt{4}');
    expect(extractBoxed('nothing here')).toBeNull();
  });
});

describe('parseHint', () => {
  // With reply aids on, the tab default (method.md section 5, "Hint replies").
  it.each([
    ['label and quotes stripped', 'Hint: "Count the corners first."', 'Count the corners first.'],
    ['think stripped', '<think>long</think>\nTry the middle cell.', 'Try the middle cell.'],
    ['at most three sentences', 'One. Two. Three. Four.', 'One. Two. Three.'],
    ['whitespace collapsed', 'Use\n\n  the   parity.', 'Use the parity.'],
    [
      'no cut before a decimal',
      'Use a step such as 2.5 if needed. Hold M first.',
      'Use a step such as 2.5 if needed. Hold M first.',
    ],
    [
      'whole sentences under the word cap',
      `${'word '.repeat(60).trim()}. More ${'more '.repeat(49).trim()}.`,
      `${'word '.repeat(60).trim()}.`,
    ],
  ])('with reply aids: %s', (_name, reply, expected) => {
    expect(parseHint(reply, true)).toBe(expected);
  });

  it('with reply aids, cuts only a first sentence over 100 words, at the 100th word, and gives null for an empty reply', () => {
    expect(parseHint(Array.from({ length: 150 }, (_, i) => `w${i}`).join(' '), true)!.split(' ')).toHaveLength(100);
    expect(parseHint('<think>only thoughts</think>   ', true)).toBeNull();
  });

  // Changed on purpose (issue 32): the reference keeps any non-empty reply whole, think blocks included.
  it("by the reference's rules, keeps the whole text, think blocks included, or the hint of a fenced json block; only an empty reply is refused", () => {
    const long = `${'Count the corners first. '.repeat(10).trim()}`;
    expect(parseHint('Hint: "One." Two. Three. Four.')).toBe('Hint: "One." Two. Three. Four.');
    expect(parseHint(long)).toBe(long);
    expect(parseHint('<think>x</think>\n  Try the middle.\n')).toBe('<think>x</think>\n  Try the middle.');
    expect(parseHint('Here:\n```json\n{"hint": "Go left."}\n```')).toBe('Go left.');
    expect(parseHint('```json\n{"tip": "Go left."}\n```')).toBe('```json\n{"tip": "Go left."}\n```');
    expect(parseHint('<think>only thoughts</think>   ')).toBe('<think>only thoughts</think>');
    expect(parseHint(' \n\t ')).toBeNull();
  });
});
