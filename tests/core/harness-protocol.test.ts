import { describe, expect, it } from 'vitest';
import { asLoadReply, asSyntaxReply, asValueReply, HarnessProtocolError, parseHarnessReply } from '../../src/core/env/harness-protocol.ts';

describe('parseHarnessReply', () => {
  it.each([
    ['a number', 42],
    ['an object', { ok: true }],
    ['invalid JSON', '{ok:'],
    ['no ok', '{"id":1}'],
    ['an array', '[true]'],
    ['too long', JSON.stringify({ ok: true, pad: 'x'.repeat(200) })],
    ['unknown failure kind', '{"ok":false,"error":"pwned"}'],
    ['failure with non-string msg', '{"ok":false,"error":"exception","msg":{}}'],
  ])('rejects %s', (_name, reply) => {
    expect(() => parseHarnessReply(reply, 100)).toThrow(HarnessProtocolError);
  });

  it('accepts well-formed replies', () => {
    expect(parseHarnessReply('{"ok":true,"id":1,"cls":"AEnv","solution":false}', 100)).toMatchObject({ ok: true });
  });
});

describe('reply narrowing', () => {
  it('rejects malformed load, value and syntax replies', () => {
    expect(() => asLoadReply({ ok: true, id: '1', cls: 'A', solution: true })).toThrow(HarnessProtocolError);
    expect(() => asValueReply({ ok: true, value: { t: 7 } })).toThrow(HarnessProtocolError);
    expect(() => asValueReply({ ok: true, value: { t: 'tuple', items: [{ t: 'tuple', items: [{ t: 'tuple', items: [] }] }] } })).toThrow(HarnessProtocolError);
    expect(() => asSyntaxReply({ ok: false, line: 'x', msg: 'bad' })).toThrow(HarnessProtocolError);
  });
  it('passes failures through unchanged', () => {
    const failure = { ok: false, error: 'exception', msg: 'boom' };
    expect(asValueReply(failure)).toBe(failure);
    expect(asLoadReply(failure)).toBe(failure);
  });
});
