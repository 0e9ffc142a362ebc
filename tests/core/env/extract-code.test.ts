import { describe, expect, it } from 'vitest';
import { extractCode, isProse, stripThink } from '../../../src/core/env/extract-code.ts';

describe('stripThink', () => {
  it.each([
    ['<think>plan</think>answer', 'answer'],
    ['a<think>x</think>b<think>y</think>c', 'abc'],
    ['answer<think>never closed', 'answer'],
    ['no think at all', 'no think at all'],
  ])('%j -> %j', (input, expected) => {
    expect(stripThink(input)).toBe(expected);
  });
});

describe('extractCode', () => {
  it.each([
    [
      'first python fence',
      'Here:\n```python\nclass AEnv: pass\n```\nand\n```python\nclass BEnv: pass\n```',
      'class AEnv: pass\n',
    ],
    ['py alias', '```py\nx = 1\n```', 'x = 1\n'],
    ['python fence wins over an earlier plain fence', '```\nnot code\n```\n```python\nx = 2\n```', 'x = 2\n'],
    ['any fence when no python fence', 'text\n```\nx = 3\n```', 'x = 3\n'],
    ['unfenced reply is taken whole', 'class CEnv:\n    pass', 'class CEnv:\n    pass\n'],
    ['fence inside think is ignored', '<think>```python\nbad = 1\n```</think>```python\ngood = 1\n```', 'good = 1\n'],
    ['CRLF fences', '```python\r\nx = 4\r\n```', 'x = 4\n'],
    ['empty reply', '   ', '\n'],
  ])('%s', (_name, reply, expected) => {
    expect(extractCode(reply)).toBe(expected);
  });
});

describe("extractCode by the reference's rule (reply aids off)", () => {
  it.each([
    [
      'first exact python fence',
      'Here:\n```python\nclass AEnv: pass\n```\nand\n```python\nclass BEnv: pass\n```',
      'class AEnv: pass\n',
    ],
    ['a py fence is not one: the whole reply', '```py\nx = 1\n```', '```py\nx = 1\n```\n'],
    ['a plain fence is not one either', 'text\n```\nx = 3\n```', 'text\n```\nx = 3\n```\n'],
    ['a fence inside think counts', '<think>```python\nbad = 1\n```</think>```python\ngood = 1\n```', 'bad = 1\n'],
    ['CRLF fences do not match', '```python\r\nx = 4\r\n```', '```python\r\nx = 4\r\n```\n'],
  ])('%s', (_name, reply, expected) => {
    expect(extractCode(reply, false)).toBe(expected);
  });
});

describe('isProse', () => {
  it('is true for a reply with neither a fenced block nor a line of code', () => {
    expect(isProse('<think>class X:</think>I would build a maze with keys.\nEach door needs one.')).toBe(true);
    expect(isProse('Here:\n```\nclass A: pass\n```')).toBe(false);
    expect(isProse('import random\nclass KeyEnv:\n    pass')).toBe(false);
    expect(isProse('@dataclass\nclass KeyEnv: pass')).toBe(false);
    expect(isProse('The class of games I would design: mazes.')).toBe(true);
  });
});
