// The reply corpus (tests/fixtures/reply-corpus.ts) read under both presets: every form parses as
// its row says with reply aids off (the reference preset) and on (the tab defaults), and the
// measured summary in docs/method.md section 5 is the one this corpus gives.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseAction } from '../../../src/core/prompts/agent-prompt.ts';
import { parseHint } from '../../../src/core/prompts/hint-prompt.ts';
import { parseToolReply, toolReplyAction } from '../../../src/core/prompts/tool-call-parse.ts';
import { DEFAULT_CONFIG, REFERENCE_PRESET } from '../../../src/core/config.ts';
import { REPLY_CORPUS, type CorpusForm, type CorpusKind } from '../../fixtures/reply-corpus.ts';

function read(form: CorpusForm, aids: boolean): string | null {
  if (form.kind === 'action') return parseAction(form.reply, aids);
  if (form.kind === 'tool') return toolReplyAction(parseToolReply(form.reply, aids));
  return parseHint(form.reply, aids);
}

const KIND_ROWS: ReadonlyArray<[CorpusKind, string]> = [
  ['action', 'Game actions'],
  ['tool', 'Tool-use actions'],
  ['hint', 'Hints'],
];

describe('the reply corpus', () => {
  it('holds at least 40 forms, with actions, tool-use replies and hints in both settings', () => {
    expect(REPLY_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(REPLY_CORPUS.map((form) => form.name)).size).toBe(REPLY_CORPUS.length);
    expect(new Set(REPLY_CORPUS.map((form) => `${form.setting}/${form.kind}`))).toEqual(
      new Set(['games/action', 'games/hint', 'tool_use/tool', 'tool_use/hint']),
    );
  });

  it('the reference preset reads replies without the aids and the tab defaults with them', () => {
    expect(REFERENCE_PRESET.replyAids).toBe(false);
    expect(DEFAULT_CONFIG.replyAids).toBe(true);
  });

  it.each(REPLY_CORPUS.map((form) => [form.kind, form.name, form] as const))('%s: %s', (_kind, _name, form) => {
    expect(read(form, false), 'reference preset').toBe(form.reference);
    expect(read(form, true), 'tab defaults').toBe(form.tab);
  });

  it('docs/method.md gives the measured share of forms read as intended under each preset', () => {
    const method = readFileSync(join(import.meta.dirname, '../../../docs/method.md'), 'utf8');
    for (const [kind, label] of [...KIND_ROWS, [null, 'All forms'] as const]) {
      const forms = REPLY_CORPUS.filter((form) => kind === null || form.kind === kind);
      const asIntended = (aids: boolean) => forms.filter((form) => read(form, aids) === form.intended).length;
      expect(method).toContain(`| ${label} | ${forms.length} | ${asIntended(false)} | ${asIntended(true)} |`);
    }
  });

  it('docs/method.md names the forms the tab defaults still misread', () => {
    const method = readFileSync(join(import.meta.dirname, '../../../docs/method.md'), 'utf8').replace(/\s+/g, ' ');
    const misread = REPLY_CORPUS.filter((form) => read(form, true) !== form.intended).map((form) => form.name);
    expect(misread).toEqual(['no box, the action in prose', 'unquoted keys (not read)']);
    expect(method).toContain(
      'The two forms the tab still misreads are an action only in prose ("I will go north.") and a tool call with unquoted keys',
    );
  });
});
