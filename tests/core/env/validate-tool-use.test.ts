// Validation of tool-use environments against the real Node sandbox: the tool probe, the reset
// gate and their codes, imported pools of tool-use environments, and issue 15's table of tool-use
// designs judged in a slot. Each load starts an interpreter (one per environment), the dearest
// part of these tests, so each fixture is validated once in this file: in the table or below it.
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import {
  DEFAULT_VALIDATION,
  validateEnvironment,
  type ValidationOptions,
  type ValidationReport,
} from '../../../src/core/env/validate-env.ts';
import { validateCandidates } from '../../../src/formats/import/import-envs.ts';
import { BROKEN_TOOL_USE_ENVS, GOOD_TOOL_USE_ENVS, readToolUseEnv } from '../../fixtures/tool-use-fixtures.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../../src/core/config.ts';
import type { EnvErrorCode, ValidationStage } from '../../../src/core/env/env-error.ts';
import { designSlot } from '../../../src/core/loop/design-slot.ts';

// One real Node sandbox for the file.
const runtime = fileSandbox();

// Longer limits than the tab's: the tool probe and the reset gate add a dozen calls on a shared 2-core machine.
const OPTIONS: ValidationOptions = {
  ...DEFAULT_VALIDATION,
  totalTimeoutMs: 20_000,
  callTimeoutMs: 5000,
  source: 'code',
};

const validate = (code: string) => validateEnvironment(code, runtime(), OPTIONS);

// The exact message of some broken fixtures (each fixture is validated once: code, stage and message together).
const MESSAGES = new Map<string, string>([
  [
    'schema_malformed.py',
    'Expected get_tools() to list each tool as {"type": "function", "function": {name, description, parameters}}. Saw tool quote has parameters that are not {"type": "object", "properties": {...}}. Fix: give every tool in self._tools a description and a JSON-schema parameters object: {"type": "object", "properties": {...}, "required": [...]}.',
  ],
  [
    'tool_listed_twice.py',
    'Expected every tool in get_tools() to have its own name. Saw the tool set_level listed 2 times. Fix: list each tool once in self._tools (a model cannot tell two functions of one name apart).',
  ],
  [
    'method_missing.py',
    'Expected a method tool_lookup for the declared tool lookup. Saw the methods tool_find. Fix: name each tool method tool_<name> with the exact name used in self._tools.',
  ],
  [
    'criteria_count.py',
    'Expected one entry in self._message_criteria per instruction (3). Saw 2 criteria. Fix: write one callable state -> bool for each instruction in self._user_messages, in the same order.',
  ],
  [
    'criteria_raise.py',
    "Expected every message criterion to evaluate on the state reset() builds, at one seed of 0, 1 and 2 at least. Saw at seed 0 criterion 2 raised KeyError: 'delivery'; at seed 1 criterion 2 raised KeyError: 'delivery'; at seed 2 criterion 2 raised KeyError: 'delivery'. Fix: make each criterion read self._state with the keys and types reset() and the tools really write (use .get for keys that appear later).",
  ],
  [
    'criteria_true.py',
    'Expected every message criterion to be false on the state reset() builds. Saw criterion 1 true at seeds 0, 1, 2. Fix: make each criterion check the change its instruction asks for (or a flag the tool sets when it runs), not a fact that already holds.',
  ],
  [
    'dispatch_unknown_raises.py',
    `Expected step() to answer a call to a tool that does not exist with (observation, reward, terminated, truncated, info). Saw AttributeError: 'FerryTimesEnv' object has no attribute 'tool_spade_probe_no_such_tool' at line 12 for the action "<tool_call>{\\"name\\": \\"spade_probe_no_such_tool\\", \\"arguments\\": {}}</tool_call>". Fix: let the base class dispatch tool calls (an unknown tool becomes an error text), or answer an unknown name with an error text.`,
  ],
  [
    'first_instruction.py',
    'Expected reset() to set self._current_msg = 0 and return the first of self._user_messages as the observation. Saw _current_msg 0 and the observation "Today: feed everything and keep the garden tidy.", while the first instruction is "Water the beds.". Fix: end reset with `self._current_msg = 0` and `return self._user_messages[0], {}`.',
  ],
]);
// The wrong-arguments probe names the first declared tool and the TypeError.
const PARTS = new Map<string, string[]>([
  [
    'dispatch_args_raise.py',
    [
      "Saw TypeError: MeterReadEnv.tool_reading() got an unexpected keyword argument 'spade_probe_unexpected_argument'",
      'for the action "<tool_call>{\\"name\\": \\"reading\\", \\"arguments\\": {\\"spade_probe_unexpected_argument\\": 1}}</tool_call>"',
    ],
  ],
]);

/** A row of the table: a kind of design, its fixture, the judge's scripted verdict (or the judge off), and the code it must get (null: valid). */
interface TableRow {
  kind: string;
  folder: 'good' | 'broken' | 'unsolvable';
  file: string;
  judge: 'yes' | 'no' | 'off';
  code: EnvErrorCode | null;
  stage: ValidationStage | null;
}

// Issue 15's "done when" table.
const TABLE: TableRow[] = [
  {
    kind: 'valid single-task (its exchange tool raises for an unknown currency: an error text, not a crash)',
    folder: 'good',
    file: 'tip_ledger.py',
    judge: 'yes',
    code: null,
    stage: null,
  },
  { kind: 'valid multi-turn', folder: 'good', file: 'pantry_orders.py', judge: 'yes', code: null, stage: null },
  {
    kind: 'criteria raising at every reset',
    folder: 'broken',
    file: 'criteria_raise.py',
    judge: 'yes',
    code: 'criteria_raise_at_reset',
    stage: 'probe',
  },
  {
    kind: 'criteria true at reset',
    folder: 'broken',
    file: 'criteria_true.py',
    judge: 'yes',
    code: 'criteria_true_at_reset',
    stage: 'probe',
  },
  {
    kind: 'tool raising out of step (its own execute_tool lets the TypeError escape)',
    folder: 'broken',
    file: 'dispatch_args_raise.py',
    judge: 'yes',
    code: 'tool_probe_wrong_arguments',
    stage: 'probe',
  },
  {
    kind: 'malformed schema',
    folder: 'broken',
    file: 'schema_malformed.py',
    judge: 'yes',
    code: 'tool_schema_invalid',
    stage: 'probe',
  },
  {
    kind: 'answer never reachable, judge says no',
    folder: 'unsolvable',
    file: 'never_reachable.py',
    judge: 'no',
    code: 'judge_unsolvable',
    stage: 'judge',
  },
  {
    kind: 'answer never reachable, judge off',
    folder: 'unsolvable',
    file: 'never_reachable.py',
    judge: 'off',
    code: null,
    stage: null,
  },
];
const IN_TABLE = new Set(TABLE.map((row) => row.file));
const PASSED: Array<[string, boolean]> = [
  ['extract', true],
  ['load', true],
  ['probe', true],
  ['determinism', true],
];

/** Designs one slot of a tool-use run whose scripted designer replies with the row's fixture and whose judge gives the row's verdict. */
async function judgeInSlot(
  row: TableRow,
): Promise<{ design: Awaited<ReturnType<typeof designSlot>>; reports: ValidationReport[] }> {
  const code = readToolUseEnv(row.folder, row.file);
  const model = new ScriptedChatModel((request) =>
    request.purpose === 'judge'
      ? `Traced every criterion to a tool. \\boxed{${row.judge}}`
      : `Here it is.\n\n\`\`\`python\n${code}\n\`\`\``,
  );
  const config: Config = {
    ...withSetting(DEFAULT_CONFIG, 'tool_use'),
    attemptsPerSlot: 1,
    solvabilityJudge: row.judge !== 'off',
    validateTimeoutMs: 20_000,
    stepTimeoutMs: 5000,
  };
  const reports: ValidationReport[] = [];
  const design = await designSlot({
    ...{
      epoch: 0,
      slot: 0,
      skill: 'Data Retrieval',
      envId: 'e0000-s00',
      config,
      corpus: [],
      memory: [],
      model,
      sandbox: runtime(),
    },
    ...{
      onAttemptStart: () => undefined,
      onToken: () => undefined,
      onValidated: (_: number, report: ValidationReport) => void reports.push(report),
    },
  });
  return { design, reports };
}

describe("issue 15's table: each kind of tool-use design, designed into a slot and judged as a tool-use run judges it", () => {
  it.each(TABLE)('$kind: $code', async (row) => {
    const { design, reports } = await judgeInSlot(row);
    const [attempt] = design.attempts;
    expect(design.attempts).toHaveLength(1);
    expect({ ok: attempt!.validation.ok, code: attempt!.validation.code, stage: attempt!.validation.stage }).toEqual({
      ok: row.code === null,
      code: row.code,
      stage: row.stage,
    });
    expect(design.valid).toBe(row.code === null ? attempt : null);
    // The judge is asked only in a run that has it on, and only about a design that passed validation.
    expect(attempt!.judge?.verdict).toBe(row.judge === 'off' || row.stage === 'probe' ? undefined : row.judge);
    const stages = reports[0]!.stages.map((s) => [s.stage, s.ok]);
    if (row.stage !== 'probe') expect(stages).toEqual(row.code === null ? PASSED : [...PASSED, ['judge', false]]);
    if (row.code === null) return;
    expect(attempt!.validation.message).toMatch(/^Expected .+\. Saw .+\. Fix: .+\.$/s);
    if (MESSAGES.has(row.file)) expect(attempt!.validation.message).toBe(MESSAGES.get(row.file));
    for (const part of PARTS.get(row.file) ?? []) expect(attempt!.validation.message).toContain(part);
  });
});

describe('tool-use environments', () => {
  it.each(GOOD_TOOL_USE_ENVS.filter((f) => !IN_TABLE.has(f.file)))('$file is valid', async (fixture) => {
    const report = await validate(readToolUseEnv('good', fixture.file));
    expect(report).toMatchObject({ ok: true, code: null, message: null, className: fixture.className });
    expect(report.stages.map((s) => [s.stage, s.ok])).toEqual(PASSED);
  });

  it('every broken fixture has its own code and is judged in the table or below it; every expected message names one', () => {
    expect(new Set(BROKEN_TOOL_USE_ENVS.map((f) => f.code)).size).toBe(BROKEN_TOOL_USE_ENVS.length);
    for (const row of TABLE.filter((r) => r.folder === 'broken'))
      expect(BROKEN_TOOL_USE_ENVS.find((f) => f.file === row.file)?.code).toBe(row.code);
    const files = BROKEN_TOOL_USE_ENVS.map((f) => f.file);
    expect([...MESSAGES.keys(), ...PARTS.keys()].filter((file) => !files.includes(file))).toEqual([]);
  });

  it.each(BROKEN_TOOL_USE_ENVS.filter((f) => !IN_TABLE.has(f.file)))(
    '$file fails at the probe with $code',
    async (fixture) => {
      const report = await validate(readToolUseEnv('broken', fixture.file));
      expect({ ok: report.ok, stage: report.stage, code: report.code }).toEqual({
        ok: false,
        stage: 'probe',
        code: fixture.code,
      });
      expect(report.message).toMatch(/^Expected .+\. Saw .+\. Fix: .+\.$/s);
      if (MESSAGES.has(fixture.file)) expect(report.message).toBe(MESSAGES.get(fixture.file));
      for (const part of PARTS.get(fixture.file) ?? []) expect(report.message).toContain(part);
    },
  );

  it('the reset gate keeps a criterion that raises or holds at some seeds only (seed-dependent data, not a broken criterion)', async () => {
    // Seed 1 leaves out the "delivery" key; seed 2 starts with the parcel already moved.
    const sometimes = readToolUseEnv('broken', 'criteria_raise.py').replace(
      'self._state = {"parcels": {"P1": "depot"}, "moved": False}',
      'self._state = {"parcels": {"P1": "depot"}, "moved": seed == 2}\n        if seed != 1:\n            self._state["delivery"] = {"confirmed": False}',
    );
    expect(sometimes).toContain('if seed != 1:');
    expect(await validate(sometimes)).toMatchObject({ ok: true, className: 'ParcelTrackEnv' });
  });

  it('a criterion that never returns is killed and reported as inspect_timeout', async () => {
    const hanging = readToolUseEnv('broken', 'criteria_true.py').replace(
      'lambda s: s["logged"]',
      'lambda s: next(x for x in itertools.count() if x < 0)',
    );
    expect(hanging).toContain('itertools.count()');
    const restarts = runtime().restarts;
    const report = await validateEnvironment(hanging, runtime(), { ...OPTIONS, callTimeoutMs: 1500 });
    expect({ ok: report.ok, stage: report.stage, code: report.code }).toEqual({
      ok: false,
      stage: 'probe',
      code: 'inspect_timeout',
    });
    expect(report.message).toBe(
      'Expected inspect to return within 1500 ms. Saw no answer in time; the sandbox was killed. Fix: remove infinite loops and heavy computation; every call must return quickly.',
    );
    expect(runtime().restarts).toBe(restarts + 1);
  });

  it('an imported pool of tool-use environments validates them as code', async () => {
    const candidates = [
      { source: 'pool.jsonl:1', code: readToolUseEnv('good', 'pantry_orders.py'), skill: 'Unlabelled', hint: null },
      {
        source: 'pool.jsonl:2',
        code: readToolUseEnv('broken', 'criteria_true.py'),
        skill: 'Unlabelled',
        hint: 'open the door',
      },
    ];
    const { records, problems } = await validateCandidates(candidates, { sandbox: runtime(), validation: OPTIONS });
    expect(records.map((r) => [r.id, r.attempts[0]!.validation.className])).toEqual([
      ['pool-000000', 'PantryOrdersEnv'],
    ]);
    expect(problems).toEqual([
      {
        source: 'pool.jsonl:2',
        kept: false,
        reason: expect.stringMatching(/^invalid at probe \(criteria_true_at_reset\): Expected every message criterion/),
      },
    ]);
  });
});
