import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONFIG,
  FIELD_GROUPS,
  THINKING_ROLE_LABELS,
  THINKING_ROLES,
  withNumber,
  withSetting,
  withThinkingBudget,
  withThinkingMode,
  type NumberField,
} from '../../src/app/new-run/config-fields.ts';
import { parseSettings, settingsFromHash, settingsUrl } from '../../src/app/new-run/share-settings.ts';
import { CONFIG_TABLE, KNOB_GROUPS, KNOBS, NUMBER_KNOBS, TOGGLE_KNOBS } from '../../src/core/config-table.ts';
import type { Config } from '../../src/core/config.ts';

const numbers = FIELD_GROUPS.flatMap((box) => box.numbers);
const toggles = FIELD_GROUPS.flatMap((box) => box.toggles);
const field = (key: string): NumberField => numbers.find((f) => f.key === key)!;

/** A value of the knob other than its default, inside its limits. */
function another(key: keyof Config): unknown {
  const knob = CONFIG_TABLE[key];
  if (knob.kind === 'number') return knob.default === knob.max ? knob.min : knob.default + 1;
  if (knob.kind === 'toggle') return !knob.default;
  const values: Partial<Record<keyof Config, unknown>> = {
    skills: ['Optimization', 'Causal Inference'],
    reward: 'regret',
    designer: { ...DEFAULT_CONFIG.designer, temperature: 0.9 },
    hint: { ...DEFAULT_CONFIG.hint, maxTokens: 300 },
    agent: { ...DEFAULT_CONFIG.agent, topP: 0.5 },
    thinking: { ...DEFAULT_CONFIG.thinking, agent: 'on' },
    thinkingBudget: { ...DEFAULT_CONFIG.thinkingBudget, hint: 0 },
    difficulty: 'hard',
    prompts: { ...DEFAULT_CONFIG.prompts, hint: `${DEFAULT_CONFIG.prompts.hint}\nBe brief.` },
  };
  return values[key];
}

describe('the new-run form fields, from the config table', () => {
  it("has one number field per numeric knob and one switch per on/off knob, with its row's label and limits", () => {
    expect(numbers.map((f) => f.key).sort()).toEqual(NUMBER_KNOBS.map((k) => k.key).sort());
    expect(toggles.map((f) => f.key).sort()).toEqual(TOGGLE_KNOBS.map((k) => k.key).sort());
    for (const knob of NUMBER_KNOBS)
      expect(field(knob.key)).toMatchObject({
        label: knob.label,
        min: knob.min,
        max: knob.max,
        step: knob.integer ? 1 : 'any',
      });
  });

  it("groups the fields as the table does, and adds SPADE's value to the help", () => {
    for (const box of FIELD_GROUPS) {
      expect(box.title).toBe(KNOB_GROUPS[box.group]);
      for (const f of [...box.numbers, ...box.toggles]) expect(CONFIG_TABLE[f.key].group).toBe(box.group);
    }
    expect(field('slotsPerEpoch').help).toBe('Environments designed each epoch (the paper: 24).');
    expect(field('seed').help).toBe('Every document choice, memory sample, play seed and model seed derives from it.');
  });

  it('clamps to the limits, and rounds only whole-number fields', () => {
    expect(withNumber(DEFAULT_CONFIG, field('slotsPerEpoch'), 1000).slotsPerEpoch).toBe(256);
    expect(withNumber(DEFAULT_CONFIG, field('slotsPerEpoch'), 2.6).slotsPerEpoch).toBe(3);
    expect(withNumber(DEFAULT_CONFIG, field('corpusWordBudget'), Number.NaN).corpusWordBudget).toBe(1);
    expect(withNumber(DEFAULT_CONFIG, field('stepTimeoutMs'), 1500.5).stepTimeoutMs).toBe(1500.5);
    expect(withNumber(DEFAULT_CONFIG, field('stepTimeoutMs'), 10).stepTimeoutMs).toBe(50);
  });
});

describe('the thinking controls', () => {
  it('name every role and set one role at a time', () => {
    expect(Object.keys(THINKING_ROLE_LABELS)).toEqual([...THINKING_ROLES]);
    const on = withThinkingMode(DEFAULT_CONFIG, 'agent', 'on');
    expect(on.thinking).toEqual({ ...DEFAULT_CONFIG.thinking, agent: 'on' });
    expect(DEFAULT_CONFIG.thinking.agent).toBe('off');
  });

  it('keep a budget a whole number from 0 to 32768', () => {
    expect(withThinkingBudget(DEFAULT_CONFIG, 'hint', 300.4).thinkingBudget).toEqual({
      ...DEFAULT_CONFIG.thinkingBudget,
      hint: 300,
    });
    expect(withThinkingBudget(DEFAULT_CONFIG, 'hint', -5).thinkingBudget.hint).toBe(0);
    expect(withThinkingBudget(DEFAULT_CONFIG, 'hint', 1e9).thinkingBudget.hint).toBe(32_768);
    expect(withThinkingBudget(DEFAULT_CONFIG, 'hint', Number.NaN).thinkingBudget.hint).toBe(0);
  });
});

describe('shared settings cover every knob of the table', () => {
  it('round-trips each knob set to another value through a link', () => {
    for (const knob of KNOBS) {
      const config =
        knob.key === 'setting'
          ? withSetting(DEFAULT_CONFIG, 'tool_use')
          : ({ ...DEFAULT_CONFIG, [knob.key]: another(knob.key) } as Config);
      expect(config[knob.key], knob.key).not.toEqual(DEFAULT_CONFIG[knob.key]);
      expect(settingsFromHash(new URL(settingsUrl({ config }, 'http://127.0.0.1:5173/')).hash), knob.key).toEqual({
        config,
      });
    }
  });

  it('rejects a value of the wrong type for each knob', () => {
    for (const knob of KNOBS) {
      const parsed = parseSettings(JSON.stringify({ [knob.key]: knob.kind === 'number' ? 'seven' : 7 }));
      expect(parsed, knob.key).toEqual({
        error: expect.stringContaining(`The setting "${knob.key}" has the wrong type`),
      });
    }
  });

  it('rejects a numeric knob outside its limits', () => {
    expect(parseSettings(JSON.stringify({ slotsPerEpoch: 257 }))).toEqual({
      error: 'The settings are not usable: slotsPerEpoch must be an integer from 1 to 256, got 257.',
    });
  });
});
