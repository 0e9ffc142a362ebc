import type { ControllerStatus } from './run-controller.svelte.ts';

/** What a key press does in lecture mode: `step-refused` is a step asked for while the last one still runs (shown, never queued). */
export type ShortcutAction = 'pause' | 'resume' | 'step' | 'step-refused';

/** The part of a focused element the shortcuts look at (an Element has all of it). */
export interface FocusedElement {
  tagName: string;
  isContentEditable: boolean;
  closest(selector: string): unknown;
}

/** The parts of a keydown event the shortcuts read. */
export interface KeyPress {
  key: string;
  repeat: boolean;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** The focused element, or null. */
  target: FocusedElement | null;
}

/** What the run is doing, as the shortcuts need it. */
export interface ShortcutRun {
  status: ControllerStatus;
  stepping: boolean;
}

// Form controls whose own keys (typing, space, arrows) must keep working.
const OWN_KEYS_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);
// Widgets that take space or the arrows themselves; `.cm-editor` is a code editor or code view.
const OWN_KEYS_SELECTOR =
  '.cm-editor, [role="textbox"], [role="combobox"], [role="slider"], [role="spinbutton"], [role="listbox"], [role="radiogroup"]';

/** True when the focus is where space and the arrows mean something of their own: a form field, a code editor, editable text. */
export function keepsOwnKeys(target: FocusedElement | null): boolean {
  if (!target) return false;
  return (
    OWN_KEYS_TAGS.has(target.tagName.toUpperCase()) ||
    target.isContentEditable ||
    target.closest(OWN_KEYS_SELECTOR) !== null
  );
}

/**
 * The lecture-mode shortcut a key press means for the run, or null: space pauses a running run and
 * resumes a paused one, the right arrow steps a paused run (refused while a step is running).
 * Nothing fires with a modifier held, on a held key's repeats, or while the focus is in a form
 * field or code editor. A button or summary in focus does not stop a shortcut (the caller stops
 * the key's default, so space does not also press the focused button).
 */
export function shortcutFor(press: KeyPress, run: ShortcutRun): ShortcutAction | null {
  if (press.repeat || press.ctrlKey || press.altKey || press.metaKey || press.shiftKey || keepsOwnKeys(press.target))
    return null;
  if (press.key === ' ') {
    if (run.status === 'running') return 'pause';
    if (run.status === 'paused') return 'resume';
    return null;
  }
  if (press.key === 'ArrowRight' && run.status === 'paused') return run.stepping ? 'step-refused' : 'step';
  return null;
}
