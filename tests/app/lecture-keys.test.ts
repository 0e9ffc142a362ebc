import { describe, expect, it } from 'vitest';
import { keepsOwnKeys, shortcutFor, type FocusedElement, type KeyPress } from '../../src/app/run/lecture-keys.ts';
import type { ControllerStatus } from '../../src/app/run/run-controller.svelte.ts';

/** A focused element: its tag, editability, and the selectors its ancestors (itself included) match. */
function element(tagName: string, options: { editable?: boolean; inside?: string[] } = {}): FocusedElement {
  return {
    tagName,
    isContentEditable: options.editable ?? false,
    closest: (selector) => (selector.split(',').some((s) => options.inside?.includes(s.trim())) ? {} : null),
  };
}

const press = (key: string, extra: Partial<KeyPress> = {}): KeyPress => ({
  key,
  repeat: false,
  ctrlKey: false,
  altKey: false,
  metaKey: false,
  shiftKey: false,
  target: element('BODY'),
  ...extra,
});
const run = (status: ControllerStatus, stepping = false) => ({ status, stepping });

describe('lecture-mode shortcuts', () => {
  it('space pauses a running run and resumes a paused one, and does nothing otherwise', () => {
    expect(shortcutFor(press(' '), run('running'))).toBe('pause');
    expect(shortcutFor(press(' '), run('paused'))).toBe('resume');
    expect(shortcutFor(press(' '), run('paused', true))).toBe('resume');
    for (const status of ['idle', 'stopping', 'completed', 'failed', 'aborted', 'stopped'] as const)
      expect(shortcutFor(press(' '), run(status)), status).toBeNull();
  });

  it('the right arrow steps a paused run, is refused while a step runs, and does nothing while running', () => {
    expect(shortcutFor(press('ArrowRight'), run('paused'))).toBe('step');
    expect(shortcutFor(press('ArrowRight'), run('paused', true))).toBe('step-refused');
    expect(shortcutFor(press('ArrowRight'), run('running'))).toBeNull();
    expect(shortcutFor(press('ArrowRight'), run('completed'))).toBeNull();
  });

  it('other keys, held keys and keys with a modifier are not shortcuts', () => {
    expect(shortcutFor(press('ArrowLeft'), run('paused'))).toBeNull();
    expect(shortcutFor(press('Enter'), run('running'))).toBeNull();
    expect(shortcutFor(press(' ', { repeat: true }), run('running'))).toBeNull();
    expect(shortcutFor(press('ArrowRight', { repeat: true }), run('paused'))).toBeNull();
    for (const modifier of ['ctrlKey', 'altKey', 'metaKey', 'shiftKey'] as const) {
      expect(shortcutFor(press(' ', { [modifier]: true }), run('running')), modifier).toBeNull();
      expect(shortcutFor(press('ArrowRight', { [modifier]: true }), run('paused')), modifier).toBeNull();
    }
  });

  it('never fire in a form field, editable text or a code editor', () => {
    const fields = [
      element('INPUT'),
      element('input'),
      element('TEXTAREA'),
      element('SELECT'),
      element('DIV', { editable: true }),
      element('DIV', { inside: ['.cm-editor'] }),
      element('DIV', { inside: ['[role="textbox"]'] }),
      element('DIV', { inside: ['[role="slider"]'] }),
    ];
    for (const target of fields) {
      expect(keepsOwnKeys(target), target.tagName).toBe(true);
      expect(shortcutFor(press(' ', { target }), run('running'))).toBeNull();
      expect(shortcutFor(press('ArrowRight', { target }), run('paused'))).toBeNull();
    }
  });

  it('do fire with a button, a summary or nothing in focus (the caller keeps space from pressing the button)', () => {
    for (const target of [element('BUTTON'), element('SUMMARY'), element('A'), element('BODY'), null]) {
      expect(keepsOwnKeys(target)).toBe(false);
      expect(shortcutFor(press(' ', { target }), run('running'))).toBe('pause');
      expect(shortcutFor(press('ArrowRight', { target }), run('paused'))).toBe('step');
    }
  });
});
