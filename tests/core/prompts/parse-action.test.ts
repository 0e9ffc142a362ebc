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
  it.each([
    ['label and quotes stripped', 'Hint: "Count the corners first."', 'Count the corners first.'],
    ['think stripped', '<think>long</think>\nTry the middle cell.', 'Try the middle cell.'],
    ['at most three sentences', 'One. Two. Three. Four.', 'One. Two. Three.'],
    ['whitespace collapsed', 'Use\n\n  the   parity.', 'Use the parity.'],
  ])('%s', (_name, reply, expected) => {
    expect(parseHint(reply)).toBe(expected);
  });
  it('caps at 100 words and gives null for an empty reply', () => {
    expect(parseHint(Array.from({ length: 150 }, (_, i) => `w${i}`).join(' '))!.split(' ')).toHaveLength(100);
    expect(parseHint('<think>only thoughts</think>   ')).toBeNull();
  });
});
