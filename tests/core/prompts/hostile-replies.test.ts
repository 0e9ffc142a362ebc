// Every reply parser, with reply aids off (the reference preset) and on (the tab defaults), reads a
// hostile reply of 1-2 MB quickly: each is linear or bounded in the reply's length. The time limit
// is loose (a hang guard on a shared, loaded machine); a quadratic parser takes minutes here.
import { describe, expect, it } from 'vitest';
import { parseAction } from '../../../src/core/prompts/agent-prompt.ts';
import { parseHint } from '../../../src/core/prompts/hint-prompt.ts';
import { parseToolReply } from '../../../src/core/prompts/tool-call-parse.ts';
import { stripThink } from '../../../src/core/env/extract-code.ts';

const N = 100_000;
// Readings that must stay well under a second each; 2 s leaves room for a loaded test machine.
const LIMIT_MS = 2_000;

const HOSTILE: ReadonlyArray<[string, string]> = [
  ['box openers', '\\boxed{'.repeat(N)],
  ['braces', '{'.repeat(10 * N)],
  ['nested boxes', '\\boxed{'.repeat(N) + '}'.repeat(N)],
  ['empty boxes', '\\boxed{}'.repeat(N)],
  ['think openers', '<think>'.repeat(N)],
  ['think closers', '</think>'.repeat(N)],
  ['answer openers', '<answer>'.repeat(N)],
  ['tool-call openers', '<tool_call>'.repeat(N)],
  ['function openers', '<function=a>'.repeat(N)],
  ['parameter openers', `<tool_call><function=a>${'<parameter=b>'.repeat(N)}</function></tool_call>`],
  ['unterminated names', '<function='.repeat(N)],
  ['dollar signs in a box', `\\boxed{${'$'.repeat(10 * N)}a}`],
  ['text wrappers in a box', `\\boxed{${'\\text{'.repeat(N)}}`],
  ['nested text wrappers', `\\boxed{${'\\text{'.repeat(N)}x${'}'.repeat(N)}}`],
  ['a long answer line', `Answer:${' '.repeat(10 * N)}x`],
  ['abbreviations', 'e.g. A'.repeat(N)],
  ['sentence ends', '. '.repeat(5 * N)],
  ['a long unclosed call', `<tool_call>{"name": "a", "arguments": {${' '.repeat(10 * N)}`],
  ['many closed calls', '<tool_call>{"name":"a","arguments":{}}</tool_call>'.repeat(N / 2)],
];

const readers: ReadonlyArray<[string, (reply: string) => unknown]> = [
  ['action', (reply) => parseAction(reply)],
  ['aided action', (reply) => parseAction(reply, true)],
  ['tool reply', (reply) => parseToolReply(reply)],
  ['aided tool reply', (reply) => parseToolReply(reply, true)],
  ['hint', (reply) => parseHint(reply)],
  ['aided hint', (reply) => parseHint(reply, true)],
  ['designer reply', (reply) => stripThink(reply)],
];

describe('hostile replies', () => {
  it.each(HOSTILE)('%s: every parser reads it quickly', (_name, reply) => {
    expect(reply.length).toBeGreaterThan(500_000);
    for (const [reader, read] of readers) {
      const start = performance.now();
      read(reply);
      expect(performance.now() - start, reader).toBeLessThan(LIMIT_MS);
    }
  });

  it('still read what they hold: a call before many unclosed think openers, a box after stray braces or before empty boxes', () => {
    expect(
      parseToolReply(`<tool_call>{"name": "look", "arguments": {}}</tool_call>${'<think>'.repeat(N)}`, true),
    ).toEqual({ kind: 'calls', calls: [{ name: 'look', arguments: {} }] });
    expect(parseAction(`${'{'.repeat(N)}\\boxed{read 7}`, true)).toBe('\\boxed{read 7}');
    expect(parseAction(`${'<answer>'.repeat(N)}\\boxed{go}`)).toBe('\\boxed{go}');
    expect(parseAction(`\\boxed{go}${'\\boxed{ }'.repeat(50)}`, true)).toBe('\\boxed{go}');
  });
});
