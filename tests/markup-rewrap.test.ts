// scripts/markup-rewrap.ts: a markup reformat that only moves line breaks inside text passes; a change a
// reader could see (a word, a space where there was none, the logic) is reported.
import { describe, expect, it } from 'vitest';
import { compareRewrap } from '../scripts/markup-rewrap.ts';

const component = (body: string) =>
  `<script lang="ts">\n  let { count }: { count: number } = $props();\n</script>\n\n${body}\n`;
const ONE_LINE = component(
  '<p class="note">Without the hint the agent met {count} of 3, with returns <b>0.00</b> and <i>1.00</i>.</p>',
);

describe('compareRewrap', () => {
  it('passes a paragraph rewrapped across lines, as prettier rewraps it', () => {
    const wrapped = component(
      '<p class="note">\n  Without the hint the agent met {count} of 3, with returns\n  <b>0.00</b> and <i>1.00</i>.\n</p>',
    );
    expect(compareRewrap(ONE_LINE, wrapped, 'Note.svelte')).toEqual({ rendered: [], whitespace: [] });
  });

  it('reports a changed word', () => {
    const reworded = ONE_LINE.replace('met', 'solved');
    expect(compareRewrap(ONE_LINE, reworded, 'Note.svelte').rendered).toEqual([expect.stringContaining('solved')]);
  });

  it('reports a space put between two elements that had none', () => {
    const before = component('<p><b>{count}</b><i>%</i></p>');
    const after = component('<p>\n  <b>{count}</b>\n  <i>%</i>\n</p>');
    expect(compareRewrap(before, after, 'Tight.svelte').rendered).toContain(
      'Tight.svelte: "<p><b> </b><i>%</i></p>" became "<p><b> </b> <i>%</i></p>"',
    );
  });

  it('reports a change in the logic, and passes the script rewrapped', () => {
    const report = compareRewrap(ONE_LINE, ONE_LINE.replace('{count} of 3', '{count + 1} of 3'), 'Note.svelte');
    expect(report.rendered).toContain('Note.svelte: the compiled code differs beyond its strings');
    const rewrapped = ONE_LINE.replace(
      'let { count }: { count: number } = $props();',
      'let {\n    count,\n  }: {\n    count: number;\n  } = $props();',
    );
    expect(rewrapped).not.toBe(ONE_LINE);
    expect(compareRewrap(ONE_LINE, rewrapped, 'Note.svelte')).toEqual({ rendered: [], whitespace: [] });
  });

  it('lists moved line breaks in a component that shows whitespace, for a person to check', () => {
    const before = component('<p>Plays: {count} with returns 0.00</p>\n<pre>{count}</pre>');
    const after = component('<p>\n  Plays: {count} with returns\n  0.00\n</p>\n<pre>{count}</pre>');
    const report = compareRewrap(before, after, 'Shown.svelte');
    expect(report.rendered).toEqual([]);
    expect(report.whitespace).toEqual([expect.stringMatching(/^Shown\.svelte: .*returns\\n {2}0\.00/)]);
  });
});
