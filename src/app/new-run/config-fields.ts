import type { Config } from '../../core/config.ts';
import { KNOB_GROUPS, KNOBS, type KnobGroup, type NumberKnob, type ToggleKnob } from '../../core/config-table.ts';
import { MAX_THINKING_BUDGET, type ThinkingMode, type ThinkingRole } from '../../core/thinking.ts';

/** A numeric setting of a new run as the form shows it: its row's label, help, limits and SPADE's value. */
export interface NumberField {
  key: NumberKnob['key'];
  label: string;
  help: string;
  min: number;
  max: number;
  /** The input's step: 1 for whole numbers, `any` otherwise. */
  step: 1 | 'any';
}

/** A switch of a new run as the form shows it. */
export interface ToggleField {
  key: ToggleKnob['key'];
  label: string;
  help: string;
}

/** One box of the new-run form: a group of the config table with its numbers and switches. */
export interface FieldGroup {
  group: KnobGroup;
  title: string;
  numbers: NumberField[];
  toggles: ToggleField[];
}

function numberField(knob: NumberKnob): NumberField {
  const help = knob.reference === undefined ? `${knob.help}.` : `${knob.help} (the paper: ${knob.reference}).`;
  return { key: knob.key, label: knob.label, help, min: knob.min, max: knob.max, step: knob.integer ? 1 : 'any' };
}

/** The form's boxes, one per group that has numbers or switches, in table order. */
export const FIELD_GROUPS: readonly FieldGroup[] = (Object.keys(KNOB_GROUPS) as KnobGroup[])
  .map((group) => ({
    group,
    title: KNOB_GROUPS[group],
    numbers: KNOBS.filter((knob): knob is NumberKnob => knob.kind === 'number' && knob.group === group).map(
      numberField,
    ),
    toggles: KNOBS.filter((knob): knob is ToggleKnob => knob.kind === 'toggle' && knob.group === group).map((knob) => ({
      key: knob.key,
      label: knob.label,
      help: `${knob.help}.`,
    })),
  }))
  .filter((box) => box.numbers.length + box.toggles.length > 0);

/** Copies a config with one numeric field set, clamped to its range (and rounded when the field takes whole numbers). */
export function withNumber(config: Config, field: NumberField, value: number): Config {
  const given = Number.isFinite(value) ? value : field.min;
  return {
    ...config,
    [field.key]: Math.min(field.max, Math.max(field.min, field.step === 1 ? Math.round(given) : given)),
  };
}

/** Each thinking role as the form names it. */
export const THINKING_ROLE_LABELS: Readonly<Record<ThinkingRole, string>> = {
  designer: 'Designer (its repairs and the judge too)',
  hint: 'Hint',
  agent: 'Agent',
  lesson: 'Lesson (playbook)',
};

/** Each thinking switch as the form names it. */
export const THINKING_MODE_LABELS: Readonly<Record<ThinkingMode, string>> = {
  on: 'On',
  off: 'Off',
  default: "Model's default",
};

/** Copies a config with one role's thinking switch set. */
export function withThinkingMode(config: Config, role: ThinkingRole, mode: ThinkingMode): Config {
  return { ...config, thinking: { ...config.thinking, [role]: mode } };
}

/** Copies a config with one role's thinking budget set, a whole number from 0 to MAX_THINKING_BUDGET. */
export function withThinkingBudget(config: Config, role: ThinkingRole, value: number): Config {
  const budget = Number.isFinite(value) ? Math.min(MAX_THINKING_BUDGET, Math.max(0, Math.round(value))) : 0;
  return { ...config, thinkingBudget: { ...config.thinkingBudget, [role]: budget } };
}

/** Core settings the form needs, re-exported so the UI imports only the app layer. */
export { DEFAULT_CONFIG, configProblems, withPreset, withSetting, type PresetName } from '../../core/config.ts';
export { CONFIG_TABLE } from '../../core/config-table.ts';
export { GAME_SKILLS, RUN_SETTINGS, skillsOf, type RunSetting } from '../../core/skills.ts';
export { DEFAULT_TEMPLATES, TEMPLATE_PLACEHOLDERS, type PromptTemplates } from '../../core/prompts/templates.ts';
export { REWARD_VARIANTS } from '../../core/scoring/designer-reward.ts';
export {
  MAX_THINKING_BUDGET,
  THINKING_MODES,
  THINKING_ROLES,
  type ThinkingMode,
  type ThinkingRole,
} from '../../core/thinking.ts';
