import { describe, expect, it } from 'vitest';
import { focusTarget } from '../../src/app/run/control-focus.ts';

describe('focusTarget', () => {
  it('puts the focus on the control that undoes or continues what was just done', () => {
    expect(focusTarget('running', false)).toBe('pause');
    expect(focusTarget('paused', false)).toBe('resume');
    expect(focusTarget('completed', false)).toBe('more');
    expect(focusTarget('stopping', false)).toBeNull();
    expect(focusTarget('aborted', true)).toBe('start');
    expect(focusTarget('failed', true)).toBe('start');
    expect(focusTarget('idle', false)).toBeNull();
  });
});
