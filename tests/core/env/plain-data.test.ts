// The host's own measure of the plain data a sandbox sends (an info dict, the tool-use facts): the
// harness's JSON text length, its depth and its types, found without recursion.
import { describe, expect, it } from 'vitest';
import { harnessNumberLength, harnessStringLength, measurePlainData } from '../../../src/core/env/plain-data.ts';

/** A dict nested `levels` deep, the outer one included: {"a": {"a": ... 0}}. */
function nested(levels: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

describe('harness lengths', () => {
  // Python's repr of each float (python3 -c "print(repr(v))").
  it.each([
    [0.1, '0.1'],
    [1e16, '1e+16'],
    [1e-5, '1e-05'],
    [0.0001, '0.0001'],
    [123.456, '123.456'],
    [1.5e300, '1.5e+300'],
    [-2.5e-7, '-2.5e-07'],
    [9007199254740992, '9007199254740992.0'],
    [1e22, '1e+22'],
    [-0.001, '-0.001'],
    [5e-324, '5e-324'],
    [1.7976931348623157e308, '1.7976931348623157e+308'],
    [123456789012345.6, '123456789012345.6'],
  ])('a float %d is as long as its Python repr %s', (value, repr) => {
    expect(harnessNumberLength(value)).toBe(repr.length);
  });

  it('counts an integer below 2^53 as an int, the shorter of the two forms JSON cannot tell apart', () => {
    expect(harnessNumberLength(100)).toBe(3);
    expect(harnessNumberLength(-42)).toBe(3);
  });

  it("counts strings as json's encode_basestring_ascii writes them", () => {
    // "a\"\\\u0001\n\u00e9\ud83d\ude00\u007f", as Python writes it.
    expect(harnessStringLength('a"\\\u0001\n\u00e9\u{1F600}\u007f')).toBe(
      '"a\\"\\\\\\u0001\\n\\u00e9\\ud83d\\ude00\\u007f"'.length,
    );
  });
});

describe('measurePlainData', () => {
  it('measures a dict as the harness writes it, without spaces', () => {
    const info = { score: 3, names: ['x', 'y'], ok: true, none: null, nested: { r: 0.5 } };
    expect(measurePlainData(info, 20, 1000)).toEqual({
      ok: true,
      size: '{"score":3,"names":["x","y"],"ok":true,"none":null,"nested":{"r":0.5}}'.length,
    });
  });

  it('keeps 20 levels (what the harness sends at most) and refuses 21', () => {
    expect(measurePlainData(nested(20), 20, 1000).ok).toBe(true);
    expect(measurePlainData(nested(21), 20, 1000)).toEqual({
      ok: false,
      problem: 'containers nested deeper than 20 levels',
    });
  });

  it('refuses a dict nested 12,000 deep without overflowing the stack', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(12_000)}0${'}'.repeat(12_000)}`) as unknown;
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(measurePlainData(deep, 20, 100_000)).toMatchObject({ ok: false });
  });

  it('stops counting once over the limit, before it looks inside what is left', () => {
    expect(
      measurePlainData(
        { deeper: JSON.parse(`${'['.repeat(50)}${']'.repeat(50)}`) as unknown, text: 'x'.repeat(990) },
        20,
        1000,
      ),
    ).toEqual({ ok: true, size: 1011 });
    expect(measurePlainData({ items: Array.from({ length: 2000 }, () => 1) }, 20, 1000)).toEqual({
      ok: true,
      size: '{"items":[]}'.length + 1999,
    });
  });

  it.each([
    ['a non-finite number', { a: Number.NaN }],
    ['a function', { a: () => 1 }],
    ['undefined', { a: undefined }],
    ['a class instance', { a: new Date(0) }],
  ])('refuses %s, which no JSON the harness writes can hold', (_name, value) => {
    expect(measurePlainData(value, 20, 1000).ok).toBe(false);
  });
});
