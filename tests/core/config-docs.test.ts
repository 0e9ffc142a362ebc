import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { KNOBS } from '../../src/core/config-table.ts';
import { withConfigDocs } from '../../scripts/config-docs.ts';

const SOURCE = readFileSync(new URL('../../src/core/knobs/config-interface.ts', import.meta.url), 'utf8');
const DOCS = Object.fromEntries(KNOBS.map((knob) => [knob.key, knob.doc]));

/** Each field of the Config interface with the text of the doc comment right above it (null when it has none). */
function fieldComments(source: string): Map<string, string | null> {
  const body = source.slice(
    source.indexOf('export interface Config {'),
    source.indexOf('\n}\n', source.indexOf('export interface Config {')),
  );
  const found = new Map<string, string | null>();
  let comment: string | null = null;
  for (const match of body.matchAll(/(\/\*\*[\s\S]*?\*\/)|^ {2}(\w+)\??:/gm)) {
    if (match[1])
      comment = match[1]
        .replace(/^\/\*\*|\*\/$/g, '')
        .replace(/\n\s*\*/g, ' ')
        .replace(/\s+/g, ' ')
        .trim();
    else {
      found.set(match[2]!, comment);
      comment = null;
    }
  }
  return found;
}

describe("the Config interface's field comments", () => {
  it("are each config table row's doc, word for word (after a row changes: npx tsx scripts/write-config-docs.ts)", () => {
    const comments = fieldComments(SOURCE);
    expect([...comments.keys()]).toEqual(KNOBS.map((knob) => knob.key));
    for (const knob of KNOBS) expect(comments.get(knob.key), knob.key).toBe(knob.doc.replace(/\s+/g, ' '));
    expect(withConfigDocs(SOURCE, DOCS)).toBe(SOURCE);
  });

  it('are written from the table, replacing a stale comment and refusing a field the table lacks', () => {
    const stale = SOURCE.replace(`  /** ${DOCS.slotsPerEpoch} */\n`, '  /** Something else entirely. */\n');
    expect(stale).not.toBe(SOURCE);
    expect(fieldComments(stale).get('slotsPerEpoch')).toBe('Something else entirely.');
    expect(withConfigDocs(stale, DOCS)).toBe(SOURCE);
    const bare = SOURCE.replace(/^ {2}\/\*\*[^\n]*\*\/\n(?= {2}maxTurns:)/m, '');
    expect(fieldComments(bare).get('maxTurns')).toBeNull();
    expect(withConfigDocs(bare, DOCS)).toBe(SOURCE);
    expect(() => withConfigDocs(SOURCE.replace('  seed: number;', '  seed: number;\n  extra: number;'), DOCS)).toThrow(
      'the config table has no doc for extra',
    );
  });
});
