import { describe, expect, it } from 'vitest';
import { errorMessage } from '../../src/core/error-message.ts';

describe('errorMessage', () => {
  it("gives an Error's message, or its name when the message is empty", () => {
    expect([errorMessage(new Error('disk full')), errorMessage(new TypeError('')), errorMessage('plain text')]).toEqual(
      ['disk full', 'TypeError', 'plain text'],
    );
  });

  it('never prints "undefined", "null" or "[object Object]" for what is not an Error', () => {
    const texts = [
      undefined,
      null,
      '',
      {},
      { code: 5 },
      { message: 'quota exceeded' },
      new (class ErrorEvent {})(),
      42,
    ].map(errorMessage);
    expect(texts).toEqual([
      'an error with no description (undefined was thrown)',
      'an error with no description (null was thrown)',
      'an error with an empty message',
      'a thrown Object with no message',
      '{"code":5}',
      'quota exceeded',
      'a thrown ErrorEvent with no message',
      '42',
    ]);
  });

  it('survives an object whose message getter or JSON throws', () => {
    const hostile = Object.defineProperty({}, 'message', {
      get() {
        throw new Error('no');
      },
    });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect([errorMessage(hostile), errorMessage(cyclic)]).toEqual([
      'a thrown object that could not be read',
      'a thrown Object with no message',
    ]);
  });
});
