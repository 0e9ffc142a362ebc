// The pieces the reply aids are made of: the lenient JSON reader (safe on hostile text), the
// sentence splitter, the visible-text split and the box cleaner.
import { describe, expect, it } from 'vitest';
import { aidedAction, boxSpans, cleanBoxContent } from '../../../src/core/prompts/boxed-action.ts';
import { joinLines, splitSentences, wholeSentences } from '../../../src/core/prompts/hint-sentences.ts';
import { parseLooseJson } from '../../../src/core/prompts/loose-json.ts';
import { splitThinking } from '../../../src/core/prompts/visible-text.ts';

describe('parseLooseJson', () => {
  it('reads strict JSON, single quotes, trailing commas and Python words', () => {
    expect(parseLooseJson('{"a": [1, 2.5, -3e2]}')).toEqual({ a: [1, 2.5, -300] });
    expect(parseLooseJson("{'a': 'it\\'s', 'b': [True, False, None,],}")).toEqual({
      a: "it's",
      b: [true, false, null],
    });
    expect(parseLooseJson("{'q': \"say 'hi'\", 'u': '\\u00e9\\n'}")).toEqual({ q: "say 'hi'", u: 'é\n' });
  });

  it('refuses what is not data, never evaluating it, and stays bounded', () => {
    for (const text of [
      "{'a': __import__('os')}",
      '{a: 1}',
      "{'a' 1}",
      "{'a': 'open",
      '[1 2]',
      '{} extra',
      '',
      `{'a': ${'['.repeat(40)}${']'.repeat(40)}}`,
    ]) {
      expect(parseLooseJson(text), text).toBeUndefined();
    }
    expect(parseLooseJson(`"${'x'.repeat(100_001)}"`)).toBeUndefined();
  });

  it('keeps a "__proto__" key as data, not as the prototype', () => {
    const value = parseLooseJson("{'__proto__': {'polluted': 1}, 'ok': 2,}") as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'ok']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('sentences', () => {
  it('split at sentence ends only: not at abbreviations, decimals or a period before a lower-case word', () => {
    expect(splitSentences('Try e.g. 2.5 units. Then i.e. stop. Compare cost vs. time! Ready? Go.')).toEqual([
      'Try e.g. 2.5 units.',
      'Then i.e. stop.',
      'Compare cost vs. time!',
      'Ready?',
      'Go.',
    ]);
    expect(splitSentences('Use file.txt and v1.2 here. "Quoted." Next')).toEqual([
      'Use file.txt and v1.2 here.',
      '"Quoted."',
      'Next',
    ]);
    expect(splitSentences('先看左边。再看右边。')).toEqual(['先看左边。', '再看右边。']);
  });

  it('turn bullets and numbered items into sentences and keep whole ones under the caps', () => {
    expect(joinLines('Steps:\n- look first\n* then act!\n2) check')).toBe('Steps: look first. then act! check.');
    expect(wholeSentences('A b. C d. E f. G h.', 2, 100)).toBe('A b. C d.');
    expect(wholeSentences('A b c. D e f.', 3, 4)).toBe('A b c.');
  });
});

describe('the visible text of a reply', () => {
  it('leaves out closed think blocks, what precedes a lone </think> and what follows an unclosed <think>', () => {
    expect(splitThinking('<think>a</think>B<think>c</think>D')).toEqual({ visible: 'BD', thinking: 'a\nc' });
    expect(splitThinking('plan</think>act')).toEqual({ visible: 'act', thinking: 'plan' });
    expect(splitThinking('act <think>cut off')).toEqual({ visible: 'act ', thinking: 'cut off' });
  });
});

describe('boxes', () => {
  it('are found with balanced braces, in order, and cleaned of wrappers and LaTeX spacing', () => {
    const text = '\\boxed{a} x \\boxed{\\frac{1}{2}} \\boxed{open';
    expect(boxSpans(text).map(([open, close]) => text.slice(open + 1, close))).toEqual(['a', '\\frac{1}{2}']);
    expect(boxSpans('\\boxed{\\boxed{x}}')).toEqual([
      [13, 15],
      [6, 16],
    ]);
    expect(aidedAction('\\boxed{\\boxed{x}}')).toBe('\\boxed{\\boxed{x}}');
    expect(cleanBoxContent('{ $\\text{read}\\;7$ }')).toBe('read 7');
    expect(cleanBoxContent('\\mathbf{x}\\!+\\quad y')).toBe('x+ y');
    expect(cleanBoxContent('`go north`')).toBe('go north');
  });
});
