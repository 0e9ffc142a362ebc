import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

/** Syntax colours with at least 4.5:1 contrast on the light code background. */
export const lightHighlight = HighlightStyle.define([
  { tag: t.keyword, color: '#8250df' },
  { tag: [t.string, t.special(t.string)], color: '#0a3069' },
  { tag: t.comment, color: '#57606a', fontStyle: 'italic' },
  { tag: [t.number, t.bool, t.null], color: '#0550ae' },
  {
    tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))],
    color: '#6639ba',
  },
  { tag: [t.className, t.definition(t.className)], color: '#953800' },
  { tag: t.self, color: '#8250df' },
]);

/** Syntax colours with at least 4.5:1 contrast on the dark code background. */
export const darkHighlight = HighlightStyle.define([
  { tag: t.keyword, color: '#ff7b72' },
  { tag: [t.string, t.special(t.string)], color: '#a5d6ff' },
  { tag: t.comment, color: '#8b949e', fontStyle: 'italic' },
  { tag: [t.number, t.bool, t.null], color: '#79c0ff' },
  {
    tag: [t.function(t.variableName), t.function(t.propertyName), t.definition(t.function(t.variableName))],
    color: '#d2a8ff',
  },
  { tag: [t.className, t.definition(t.className)], color: '#ffa657' },
  { tag: t.self, color: '#ff7b72' },
]);

/** Editor chrome (background, gutters) for the light theme. */
export const lightChrome = EditorView.theme({
  '&': { backgroundColor: '#f6f8fa', color: '#1b1f24', maxHeight: '22rem' },
  '.cm-scroller': { overflow: 'auto' },
  '.cm-gutters': { backgroundColor: '#f6f8fa', color: '#57606a', border: 'none' },
});

/** Editor chrome (background, gutters) for the dark theme. */
export const darkChrome = EditorView.theme(
  {
    '&': { backgroundColor: '#0d1117', color: '#e6edf3', maxHeight: '22rem' },
    '.cm-scroller': { overflow: 'auto' },
    '.cm-gutters': { backgroundColor: '#0d1117', color: '#8b949e', border: 'none' },
  },
  { dark: true },
);

/** The editor extensions of a theme: chrome plus its syntax colours. */
export function codeTheme(isDark: boolean): Extension[] {
  return isDark ? [darkChrome, syntaxHighlighting(darkHighlight)] : [lightChrome, syntaxHighlighting(lightHighlight)];
}
