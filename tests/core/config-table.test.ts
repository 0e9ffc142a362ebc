import { describe, expect, it } from 'vitest';
import {
  completeConfig,
  configProblems,
  DEFAULT_CONFIG,
  withSetting,
  MAX_STEP_TIMEOUT_MS,
  MAX_VALIDATE_TIMEOUT_MS,
  REFERENCE_PRESET,
  withPreset,
  type Config,
} from '../../src/core/config.ts';
import { CONFIG_TABLE, KNOB_GROUPS, KNOBS, NUMBER_KNOBS, TOGGLE_KNOBS } from '../../src/core/config-table.ts';
import { DESIGN_KNOBS } from '../../src/core/knobs/design-knobs.ts';
import { GROUNDING_KNOBS } from '../../src/core/knobs/grounding-knobs.ts';
import { LEARNING_KNOBS } from '../../src/core/knobs/learning-knobs.ts';
import { MODEL_KNOBS } from '../../src/core/knobs/model-knobs.ts';
import { PLAY_KNOBS } from '../../src/core/knobs/play-knobs.ts';
import { RULE_KNOBS } from '../../src/core/knobs/rule-knobs.ts';
import { RUN_KNOBS } from '../../src/core/knobs/run-knobs.ts';
import { SANDBOX_KNOBS } from '../../src/core/knobs/sandbox-knobs.ts';

const FLAG = /^[a-z]+(-[a-z]+)*$/;

describe('the config table', () => {
  it('has one row per config key, in the order configs are written (and so their files)', () => {
    expect(KNOBS.map((knob) => knob.key)).toEqual([
      'seed',
      'setting',
      'skills',
      'skillsPerEpoch',
      'restartSkillCycle',
      'slotsPerEpoch',
      'attemptsPerSlot',
      'repairMode',
      'solvabilityJudge',
      'playsPerArm',
      'hintPlays',
      'rolloutsPerEpoch',
      'maxTurns',
      'replyAids',
      'crashesLose',
      'coerceStepReturns',
      'freeToolCalls',
      'toolUseMasks',
      'toolBaseAids',
      'extraToolChecks',
      'reward',
      'designer',
      'hint',
      'agent',
      'thinking',
      'thinkingBudget',
      'constrainAgent',
      'concurrency',
      'usePlaybook',
      'playbookSize',
      'evalEvery',
      'evalSeeds',
      'corpusWordBudget',
      'useCorpus',
      'useMemory',
      'difficulty',
      'validateTimeoutMs',
      'stepTimeoutMs',
      'prompts',
    ]);
    expect(Object.keys(DEFAULT_CONFIG)).toEqual(KNOBS.map((knob) => knob.key));
  });

  it('takes each row from exactly one group file (src/core/knobs/), unchanged, the groups in table order', () => {
    const groups = [
      RUN_KNOBS,
      DESIGN_KNOBS,
      PLAY_KNOBS,
      RULE_KNOBS,
      MODEL_KNOBS,
      LEARNING_KNOBS,
      GROUNDING_KNOBS,
      SANDBOX_KNOBS,
    ];
    const grouped = groups.flatMap((rows) => Object.entries(rows));
    expect([...grouped.map(([key]) => key), 'prompts']).toEqual(KNOBS.map((knob) => knob.key));
    for (const [key, row] of grouped) expect(CONFIG_TABLE[key as keyof typeof CONFIG_TABLE], key).toBe(row);
  });

  it('documents every row and puts it in a known group', () => {
    for (const knob of KNOBS) {
      expect(knob.doc, knob.key).toMatch(/^[A-Z].*\.$/);
      expect(Object.keys(KNOB_GROUPS), knob.key).toContain(knob.group);
    }
  });

  it('derives the tab defaults and SPADE reference preset, both inside every limit', () => {
    expect(DEFAULT_CONFIG).toMatchObject({
      seed: 1,
      skillsPerEpoch: 2,
      restartSkillCycle: false,
      slotsPerEpoch: 4,
      attemptsPerSlot: 3,
      playsPerArm: 4,
      hintPlays: 4,
      rolloutsPerEpoch: 1,
      maxTurns: 12,
      corpusWordBudget: 800,
      validateTimeoutMs: 5000,
      stepTimeoutMs: 2000,
      repairMode: false,
      replyAids: true,
      crashesLose: false,
      coerceStepReturns: false,
      freeToolCalls: false,
      toolUseMasks: true,
      toolBaseAids: true,
      extraToolChecks: true,
      useCorpus: true,
      useMemory: true,
      reward: 'blend',
      difficulty: 'adaptive',
      thinking: { designer: 'off', hint: 'off', agent: 'off', lesson: 'off' },
      thinkingBudget: { designer: 2048, hint: 1024, agent: 1024, lesson: 1024 },
      constrainAgent: false,
    });
    expect(REFERENCE_PRESET).toEqual({
      skills: DEFAULT_CONFIG.skills,
      skillsPerEpoch: 3,
      restartSkillCycle: true,
      slotsPerEpoch: 24,
      attemptsPerSlot: 5,
      playsPerArm: 8,
      hintPlays: 16,
      rolloutsPerEpoch: 4,
      maxTurns: 25,
      replyAids: false,
      crashesLose: true,
      coerceStepReturns: true,
      freeToolCalls: true,
      toolUseMasks: true,
      toolBaseAids: false,
      extraToolChecks: false,
      corpusWordBudget: 6000,
      difficulty: 'medium',
      validateTimeoutMs: 60_000,
      stepTimeoutMs: 30_000,
      thinking: { designer: 'default', hint: 'default', agent: 'default', lesson: 'default' },
      thinkingBudget: { designer: 0, hint: 0, agent: 0, lesson: 0 },
      constrainAgent: false,
    });
    expect([MAX_VALIDATE_TIMEOUT_MS, MAX_STEP_TIMEOUT_MS]).toEqual([60_000, 30_000]);
    expect(configProblems(DEFAULT_CONFIG)).toEqual([]);
    expect(configProblems(withPreset(DEFAULT_CONFIG, 'reference'))).toEqual([]);
  });

  it('gives every numeric and on/off knob a command-line flag and a form label, with no flag used twice', () => {
    expect(NUMBER_KNOBS.length + TOGGLE_KNOBS.length).toBe(29);
    for (const knob of NUMBER_KNOBS) {
      expect(knob.flag, knob.key).toMatch(FLAG);
      expect(knob.flagValue, knob.key).toMatch(/^[A-Z]+$/);
      expect(knob.label.length, knob.key).toBeGreaterThan(0);
      expect(knob.help, knob.key).not.toMatch(/\.$/);
      expect(knob.min, knob.key).toBeLessThanOrEqual(knob.default);
    }
    for (const knob of TOGGLE_KNOBS) {
      expect([knob.flag, knob.negatedFlag].filter(Boolean).length, knob.key).toBeGreaterThan(0);
      for (const flag of [knob.flag, knob.negatedFlag].filter(Boolean)) expect(flag, knob.key).toMatch(FLAG);
      expect(knob.label.length, knob.key).toBeGreaterThan(0);
    }
    const flags = KNOBS.flatMap((knob) =>
      knob.kind === 'toggle' ? [knob.flag, knob.negatedFlag] : [knob.flag],
    ).filter(Boolean);
    expect(new Set(flags).size).toBe(flags.length);
  });
});

describe('configProblems, from the table', () => {
  const withValue = (key: string, value: number): Config => ({ ...DEFAULT_CONFIG, [key]: value });

  it('accepts every numeric knob at its min and at its max', () => {
    for (const knob of NUMBER_KNOBS) {
      expect(configProblems(withValue(knob.key, knob.min)), knob.key).toEqual([]);
      expect(configProblems(withValue(knob.key, knob.max)), knob.key).toEqual([]);
    }
  });

  it('rejects every numeric knob just outside its limits, with its limits in the message', () => {
    for (const knob of NUMBER_KNOBS) {
      const expected = (value: number) => [
        `${knob.key} must be ${knob.integer ? 'an integer ' : ''}from ${knob.min} to ${knob.max}, got ${value}`,
      ];
      expect(configProblems(withValue(knob.key, knob.min - 1)), knob.key).toEqual(expected(knob.min - 1));
      const above = knob.max === Number.MAX_SAFE_INTEGER ? knob.max * 2 : knob.max + 1;
      expect(configProblems(withValue(knob.key, above)), knob.key).toEqual(expected(above));
      expect(configProblems(withValue(knob.key, Number.NaN)), knob.key).toEqual(expected(Number.NaN));
    }
  });

  it('rejects an on/off knob that is not a boolean (an imported "true" string, say)', () => {
    for (const knob of TOGGLE_KNOBS)
      expect(configProblems({ ...DEFAULT_CONFIG, [knob.key]: 'true' }), knob.key).toEqual([
        `${knob.key} must be true or false`,
      ]);
  });

  it('rejects fractions only where the knob takes whole numbers', () => {
    expect(configProblems(withValue('playsPerArm', 2.5))).toEqual([
      'playsPerArm must be an integer from 1 to 64, got 2.5',
    ]);
    expect(configProblems(withValue('stepTimeoutMs', 1500.5))).toEqual([]);
    expect(CONFIG_TABLE.validateTimeoutMs.integer).toBe(false);
  });

  it('rejects a difficulty that is not a policy', () => {
    expect(configProblems({ ...DEFAULT_CONFIG, difficulty: 'brutal' as Config['difficulty'] })).toEqual([
      'difficulty must be one of adaptive, easy, medium, hard',
    ]);
  });

  it('rejects a setting that is not one, and skills of the other setting', () => {
    expect(configProblems({ ...DEFAULT_CONFIG, setting: 'chess' as Config['setting'] })).toContain(
      'setting must be one of games, tool_use',
    );
    expect(configProblems({ ...DEFAULT_CONFIG, setting: 'tool_use' })).toEqual([
      expect.stringMatching(
        /^unknown skills .* for the tool_use setting; choose from API Orchestration, Data Retrieval/,
      ),
    ]);
    expect(configProblems(withSetting(DEFAULT_CONFIG, 'tool_use'))).toEqual([]);
    expect(configProblems({ ...withSetting(DEFAULT_CONFIG, 'tool_use'), skills: ['Optimization'] })).toEqual([
      expect.stringContaining('unknown skills ["Optimization"] for the tool_use setting'),
    ]);
  });

  it('completes a config stored before the setting existed as the cognitive-games run it was, with every default template', () => {
    const {
      setting: _setting,
      solvabilityJudge: _judge,
      replyAids: _aids,
      toolBaseAids: _base,
      extraToolChecks: _extra,
      ...old
    } = DEFAULT_CONFIG;
    const { toolDesigner: _t, toolHint: _h, toolAgent: _a, judge: _j, ...oldPrompts } = DEFAULT_CONFIG.prompts;
    const completed = completeConfig({ ...old, prompts: oldPrompts } as unknown as Config);
    // A run stored before the reply aids read its replies by the reference's rules.
    expect(completed).toMatchObject({
      setting: 'games',
      solvabilityJudge: false,
      replyAids: false,
      toolBaseAids: true,
      extraToolChecks: true,
      prompts: DEFAULT_CONFIG.prompts,
    });
    expect(configProblems(completed)).toEqual([]);
  });

  it('completes a config stored before the failure, step-conversion, tool-turn and mask rules as it ran: failed plays dropped, strict step returns, one step per reply, no masks', () => {
    const {
      crashesLose: _c,
      coerceStepReturns: _s,
      freeToolCalls: _f,
      toolUseMasks: _m,
      ...old
    } = { ...DEFAULT_CONFIG, coerceStepReturns: true };
    const completed = completeConfig(old as unknown as Config);
    expect(completed).toMatchObject({
      crashesLose: false,
      coerceStepReturns: false,
      freeToolCalls: false,
      toolUseMasks: false,
    });
    expect(configProblems(completed)).toEqual([]);
  });

  it('completes a config stored before the thinking settings as it ran: every role left to the model, no thinking budget', () => {
    const { thinking: _thinking, thinkingBudget: _budget, ...old } = DEFAULT_CONFIG;
    const completed = completeConfig(old as unknown as Config);
    expect(completed.thinking).toEqual({ designer: 'default', hint: 'default', agent: 'default', lesson: 'default' });
    expect(completed.thinkingBudget).toEqual({ designer: 0, hint: 0, agent: 0, lesson: 0 });
    expect(configProblems(completed)).toEqual([]);
    expect(
      completeConfig({ ...DEFAULT_CONFIG, thinking: { ...DEFAULT_CONFIG.thinking, agent: 'on' } }).thinking.agent,
    ).toBe('on');
  });

  it('rejects a thinking switch that is not one and a budget outside 0 to 32768, naming the role', () => {
    expect(
      configProblems({ ...DEFAULT_CONFIG, thinking: { ...DEFAULT_CONFIG.thinking, hint: 'maybe' as 'on' } }),
    ).toEqual(['thinking.hint must be one of on, off, default, got "maybe"']);
    expect(
      configProblems({
        ...DEFAULT_CONFIG,
        thinkingBudget: { ...DEFAULT_CONFIG.thinkingBudget, agent: -1, lesson: 1.5 },
      }),
    ).toEqual([
      'thinkingBudget.agent must be an integer from 0 to 32768, got -1',
      'thinkingBudget.lesson must be an integer from 0 to 32768, got 1.5',
    ]);
    expect(
      configProblems({ ...DEFAULT_CONFIG, thinkingBudget: { ...DEFAULT_CONFIG.thinkingBudget, designer: 32_768 } }),
    ).toEqual([]);
  });

  it('completes a config stored before constrained decoding as a run with an unconstrained agent', () => {
    const { constrainAgent: _c, ...old } = DEFAULT_CONFIG;
    expect(completeConfig(old as Config).constrainAgent).toBe(false);
  });

  it('keeps the setting and its skills through both presets', () => {
    const tool = withSetting(DEFAULT_CONFIG, 'tool_use');
    for (const preset of ['tab', 'reference'] as const) {
      expect(withPreset(tool, preset)).toMatchObject({ setting: 'tool_use', skills: tool.skills });
      expect(configProblems(withPreset(tool, preset))).toEqual([]);
    }
  });

  it('keeps the message the import tests quote', () => {
    expect(configProblems(withValue('playsPerArm', 1e6))).toEqual([
      'playsPerArm must be an integer from 1 to 64, got 1000000',
    ]);
    expect(configProblems(withValue('validateTimeoutMs', 99))).toEqual([
      'validateTimeoutMs must be from 100 to 60000, got 99',
    ]);
  });
});
