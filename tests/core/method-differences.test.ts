// docs/method.md section 5's differences table against the code: every knob whose tab default
// differs from the reference preset is named in a row, each row that names a knob states the
// config table's values, the scale row's numbers are the table's, the rows that are not knobs get a
// targeted check or are listed as prose, and the score card and Learn texts say what the table says.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONFIG_TABLE, KNOBS } from '../../src/core/config-table.ts';
import type { Config } from '../../src/core/config.ts';
import { validationCallCap } from '../../src/core/env/validate-env.ts';
import { FORMULAS, rewardFormula } from '../../src/app/learn/formulas.ts';
import { describePlayFailure } from '../../src/app/explorer/play-yourself.ts';
import { envError } from '../../src/core/env/env-error.ts';
import { ruleDifferences } from '../../src/core/scoring/reference-rules.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';

const METHOD = readFileSync(new URL('../../docs/method.md', import.meta.url), 'utf8');

/** The first table of section 5: each row's cells (What, the reference, SPADE Lab, Why). */
function differencesTable(): Map<string, string[]> {
  const section = METHOD.slice(METHOD.indexOf('## 5. Differences from the reference'));
  const lines = section.split('\n');
  const start = lines.findIndex((l) => l.startsWith('| What |'));
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('| ')) break;
    const cells = line.slice(2, -2).split(' | ');
    rows.set(cells[0]!, cells.slice(1));
  }
  return rows;
}

const TABLE = differencesTable();
const knobsNamed = (text: string) =>
  [...text.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]!).filter((name) => Object.hasOwn(CONFIG_TABLE, name));

/** Rows that name a knob, with the tab default and the reference preset's value the row describes. */
const KNOB_ROWS: ReadonlyArray<{ row: string; knob: keyof Config; tab: unknown; reference: unknown }> = [
  { row: 'Plays run', knob: 'concurrency', tab: 16, reference: undefined },
  { row: '`ToolUseBaseEnv`', knob: 'toolBaseAids', tab: true, reference: false },
  { row: 'Tool calls per reply, tool-use turns', knob: 'freeToolCalls', tab: false, reference: true },
  { row: 'Tool-use training masks', knob: 'toolUseMasks', tab: true, reference: true },
  { row: 'Tool-use reset gate', knob: 'extraToolChecks', tab: true, reference: false },
  { row: 'Other tool-use checks', knob: 'extraToolChecks', tab: true, reference: false },
  { row: 'Code extraction', knob: 'replyAids', tab: true, reference: false },
  { row: 'Actions', knob: 'replyAids', tab: true, reference: false },
  { row: 'Difficulty word', knob: 'difficulty', tab: 'adaptive', reference: 'medium' },
  { row: 'Failed plays', knob: 'crashesLose', tab: false, reference: true },
  { row: 'Odd step returns', knob: 'coerceStepReturns', tab: false, reference: true },
  { row: 'Odd reset returns', knob: 'coerceStepReturns', tab: false, reference: true },
  { row: 'Skill cycle with every skill active', knob: 'restartSkillCycle', tab: false, reference: true },
  {
    row: 'Thinking',
    knob: 'thinking',
    tab: { designer: 'off', hint: 'off', agent: 'off', lesson: 'off' },
    reference: { designer: 'default', hint: 'default', agent: 'default', lesson: 'default' },
  },
  {
    row: 'Thinking',
    knob: 'thinkingBudget',
    tab: { designer: 2048, hint: 1024, agent: 1024, lesson: 1024 },
    reference: { designer: 0, hint: 0, agent: 0, lesson: 0 },
  },
  { row: 'Constrained decoding', knob: 'constrainAgent', tab: false, reference: false },
];

/** Rows that are not knobs, checked by a targeted assertion below. */
const TARGETED = ['Scale', 'Validation per-call cap'];

/** Rows that are not knobs and that no single assertion here can check: prose, checked by their own tests where they have one. */
const PROSE_ONLY = [
  'Learning',
  'Agent improvement in the tab',
  'Designer reward timing',
  'Play seeds',
  'Where plays run',
  'Process-global `random`',
  'Non-finite rewards',
  'Stored episodes',
  'Imported files',
  'Determinism check',
  'numpy',
  'Tool-use path',
  'Tool schemas in the prompt',
  'Tool-use episode records',
  'Solvability judge',
  'Tool names',
  '`close()`',
  'Environment class',
  '`math_verify`',
  'Tool-call parsing',
  'Tool-use defaults',
  'Hint prompt',
  'Hint replies',
  'Designer prompt',
  'Tool-use designer inputs',
  'Environment memory win rate',
  'Memory of a failing environment',
  'Memory code',
  'Unpredictable validation',
  'Validation time',
  'Negative memory example',
  "Earlier thoughts in the agent's history",
  'Prompt length',
];

describe("docs/method.md's differences table", () => {
  it('has every row either checked against a knob, checked by a targeted assertion, or listed as prose', () => {
    const classified = new Set([...KNOB_ROWS.map((r) => r.row), ...TARGETED, ...PROSE_ONLY]);
    expect([...TABLE.keys()].filter((row) => !classified.has(row))).toEqual([]);
    expect([...classified].filter((row) => !TABLE.has(row))).toEqual([]);
  });

  it('names every knob whose tab default differs from the reference preset', () => {
    const named = new Set([...TABLE.values()].flatMap((cells) => knobsNamed(cells.join(' '))));
    const differing = ruleDifferences(DEFAULT_CONFIG).map((d) => d.knob);
    expect(differing.length).toBeGreaterThan(10);
    expect(differing.filter((knob) => !named.has(knob))).toEqual([]);
  });

  it.each(KNOB_ROWS)(
    'row "$row" names `$knob` with the config table’s tab default and reference value',
    ({ row, knob, tab, reference }) => {
      expect(knobsNamed(TABLE.get(row)!.join(' '))).toContain(knob);
      expect([CONFIG_TABLE[knob].default, CONFIG_TABLE[knob].reference]).toEqual([tab, reference]);
    },
  );

  it("states each scale knob's reference value in the reference column and its tab default in SPADE Lab's", () => {
    const [reference, lab] = TABLE.get('Scale')!;
    const pairs = (text: string) =>
      Object.fromEntries([...text.matchAll(/`([A-Za-z]+)` (\d+)/g)].map((m) => [m[1]!, Number(m[2])]));
    const stated = { reference: pairs(reference!), lab: pairs(lab!) };
    const numeric = KNOBS.filter((k) => k.kind === 'number' && k.reference !== undefined && k.reference !== k.default);
    expect(Object.keys(stated.reference).sort()).toEqual(numeric.map((k) => k.key).sort());
    for (const knob of numeric)
      expect([stated.reference[knob.key], stated.lab[knob.key]]).toEqual([knob.reference, knob.default]);
  });

  it('states the validation per-call cap as validationCallCap computes it: the larger of the step limit and 2/5 of the budget, never more than the budget', () => {
    expect(TABLE.get('Validation per-call cap')![1]).toContain(
      'The larger of the step limit and 2/5 of the validation budget (`validationCallCap`), never more than the budget',
    );
    expect(validationCallCap(CONFIG_TABLE.validateTimeoutMs.default, CONFIG_TABLE.stepTimeoutMs.default)).toBe(2000);
    expect(validationCallCap(CONFIG_TABLE.validateTimeoutMs.reference!, CONFIG_TABLE.stepTimeoutMs.reference!)).toBe(
      30_000,
    );
    expect(validationCallCap(60_000, 2000)).toBe(24_000);
    expect(validationCallCap(1000, 2000)).toBe(1000);
  });
});

describe('the score card and Learn texts say what the table says about failed plays', () => {
  it("name the reference's crash rule beside the tab's drop-and-retry rule", () => {
    expect(TABLE.get('Failed plays')![1]).toContain('a hinted one scores 0');
    expect(FORMULAS.rHint).toMatch(/a failed hinted play counts 0.*reference's crash rule.*-1/);
    expect(FORMULAS.rNoHint).toMatch(/retried once, then dropped.*reference's crash rule.*-1/);
    expect(rewardFormula('regret')).toMatch(
      /-0\.5 if a load, reset or step timed out.*reference's crash rule.*rollout/,
    );
    const crash = describePlayFailure(
      envError('step_exception', 'play', { expected: 'a step', seen: 'a raise', fix: 'none' }),
      2000,
    );
    expect(crash).toMatch(
      /tab's rule.*retried once and then dropped, a hinted one counts 0.*reference's.*inside step ends the play with a return of -1/,
    );
  });
});
