import { describe, expect, it } from 'vitest';
import {
  asLoadReply,
  asSyntaxReply,
  asValueReply,
  HarnessProtocolError,
  parseHarnessReply,
  pythonLength,
} from '../../../src/core/env/harness-protocol.ts';

const STEP = ['observation', 'reward', 'terminated', 'truncated', 'info'];

describe('parseHarnessReply', () => {
  it.each([
    ['a number', 42],
    ['an object', { ok: true }],
    ['invalid JSON', '{ok:'],
    ['no ok', '{"cls":"AEnv"}'],
    ['an array', '[true]'],
    ['too long', JSON.stringify({ ok: true, pad: 'x'.repeat(200) })],
    ['unknown failure kind', '{"ok":false,"error":"pwned"}'],
    ['failure with non-string msg', '{"ok":false,"error":"exception","msg":{}}'],
  ])('rejects %s', (_name, reply) => {
    expect(() => parseHarnessReply(reply, 100)).toThrow(HarnessProtocolError);
  });

  it('accepts well-formed replies', () => {
    expect(parseHarnessReply('{"ok":true,"cls":"AEnv","solution":false}', 100)).toMatchObject({ ok: true });
  });
});

describe('the private value encoding', () => {
  it('decodes each tag to the kind the host decides, never to a reported type name', () => {
    const value = [
      't',
      [
        ['s', 'obs'],
        ['f', 0.5],
        ['b', false],
        ['o', 'bool', 'True'],
        ['d', { a: 1 }],
      ],
    ];
    expect(asValueReply({ ok: true, value }, STEP, 100)).toEqual({
      ok: true,
      value: {
        t: 'tuple',
        items: [
          { t: 'str', v: 'obs' },
          { t: 'float', v: 0.5 },
          { t: 'bool', v: false },
          { t: 'other', name: 'bool', repr: 'True' },
          { t: 'dict', v: { a: 1 } },
        ],
      },
    });
    expect(asValueReply({ ok: true, value: ['i', 'nan'] }, ['solution'], 100)).toEqual({
      ok: true,
      value: { t: 'int', nonfinite: 'nan' },
    });
  });

  it('re-measures strings itself, in Python characters, whatever the sandbox claimed', () => {
    expect(pythonLength('\u{1F600}'.repeat(3) + 'ab')).toBe(5);
    expect(asValueReply({ ok: true, value: ['s', '\u{1F600}'.repeat(100)] }, ['solution'], 100).ok).toBe(true);
    expect(
      asValueReply(
        {
          ok: true,
          value: [
            't',
            [
              ['s', 'x'.repeat(101)],
              ['d', {}],
            ],
          ],
        },
        ['observation', 'info'],
        100,
      ),
    ).toEqual({ ok: false, error: 'too_large', what: 'observation', size: 101, limit: 100 });
  });

  it.each([
    ['an old-style described value', { t: 'str', v: 'x' }],
    ['an unknown tag', ['q', 1]],
    ['a str tag holding a number', ['s', 5]],
    ['a bool tag holding a string', ['b', 'true']],
    ['a number tag holding garbage', ['f', 'lots']],
    ['a dict tag holding a list', ['d', []]],
    ['a tuple nested in a tuple', ['t', [['t', []]]]],
    ['an other value whose name is a list', ['o', JSON.parse(`${'['.repeat(12_000)}${']'.repeat(12_000)}`), 'x']],
    ['an other value whose repr is not a string', ['o', 'C', 5]],
  ])('rejects %s', (_name, value) => {
    expect(() => asValueReply({ ok: true, value }, STEP, 100)).toThrow(HarnessProtocolError);
  });
});

describe('info dicts', () => {
  it('re-measures an info dict as the harness writes it: one over the limit is too_large, whatever the sandbox checked', () => {
    const info = { text: 'x'.repeat(95) };
    expect(
      asValueReply(
        {
          ok: true,
          value: [
            't',
            [
              ['s', 'obs'],
              ['d', info],
            ],
          ],
        },
        ['observation', 'info'],
        200,
      ).ok,
    ).toBe(true);
    expect(
      asValueReply(
        {
          ok: true,
          value: [
            't',
            [
              ['s', 'obs'],
              ['d', info],
            ],
          ],
        },
        ['observation', 'info'],
        100,
      ),
    ).toEqual({
      ok: false,
      error: 'too_large',
      what: 'info',
      size: 106,
      limit: 100,
    });
  });

  it.each([21, 12_000])(
    'refuses a dict nested %i levels deep, which the harness never sends: a protocol error',
    (levels) => {
      const value = JSON.parse(`${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`) as unknown;
      expect(() =>
        asValueReply(
          {
            ok: true,
            value: [
              't',
              [
                ['s', 'obs'],
                ['d', value],
              ],
            ],
          },
          ['observation', 'info'],
          100_000,
        ),
      ).toThrow(HarnessProtocolError);
    },
  );

  it('keeps a dict of 20 levels, the deepest the harness sends', () => {
    const value = JSON.parse(`${'{"a":'.repeat(20)}0${'}'.repeat(20)}`) as Record<string, unknown>;
    expect(asValueReply({ ok: true, value: ['d', value] }, ['tool facts'], 1000)).toEqual({
      ok: true,
      value: { t: 'dict', v: value },
    });
  });
});

describe('reply narrowing', () => {
  it('rejects malformed load and syntax replies', () => {
    expect(() => asLoadReply({ ok: true, cls: 1, solution: true })).toThrow(HarnessProtocolError);
    expect(() => asSyntaxReply({ ok: false, line: 'x', msg: 'bad' })).toThrow(HarnessProtocolError);
  });

  it('cuts names and messages in failures to size, whatever the sandbox sent', () => {
    const failure = {
      ok: false,
      error: 'exception',
      type: 'E'.repeat(900_000),
      msg: 'm'.repeat(10_000),
      cls: 'C'.repeat(500),
    };
    const cut = asValueReply(failure, STEP, 100);
    expect(cut).toMatchObject({ ok: false, error: 'exception' });
    expect((cut as { type: string }).type).toHaveLength(100);
    expect((cut as { msg: string }).msg).toHaveLength(2000);
    expect((asLoadReply(failure) as { cls: string }).cls).toHaveLength(100);
    expect(asLoadReply({ ok: true, cls: 'X'.repeat(300), solution: false })).toEqual({
      ok: true,
      cls: 'X'.repeat(100),
      solution: false,
    });
  });

  it('keeps only the known failure fields, of their own types: a deep list in any of them is dropped unread', () => {
    const deep = JSON.parse(`${'['.repeat(12_000)}${']'.repeat(12_000)}`) as unknown;
    const failure = {
      ok: false,
      error: 'too_large',
      what: deep,
      size: deep,
      limit: deep,
      classes: [deep, 'AEnv'],
      missing: deep,
      extra: deep,
    };
    expect(asValueReply(failure, STEP, 100)).toEqual({
      ok: false,
      error: 'too_large',
      type: undefined,
      msg: undefined,
      line: null,
      cls: undefined,
      what: undefined,
      size: undefined,
      limit: undefined,
      classes: ['AEnv'],
      missing: [],
    });
  });
});
