import type { ParseArgsConfig } from 'node:util';
import type { Config, DifficultyMode } from '../core/config.ts';
import { CONFIG_TABLE, DIFFICULTY_MODES, KNOBS, NUMBER_KNOBS, TOGGLE_KNOBS } from '../core/config-table.ts';
import { REWARD_VARIANTS, type RewardVariant } from '../core/scoring/designer-reward.ts';
import { RUN_SETTINGS, skillsOf, type RunSetting } from '../core/skills.ts';
import { THINKING_MODES, THINKING_ROLES, type ThinkingMode, type ThinkingRole } from '../core/thinking.ts';
import { integerOption, numberOption, UsageError } from './args.ts';

/** What parseArgs read: a string per value flag, true per switch given. */
export type FlagValues = Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>;

/** The flags of the config table's knobs, as parseArgs options. */
export const CONFIG_FLAG_OPTIONS: NonNullable<ParseArgsConfig['options']> = Object.fromEntries(
  KNOBS.flatMap((knob): Array<[string, { type: 'string' | 'boolean' }]> => {
    if (knob.kind === 'toggle') return [knob.flag, knob.negatedFlag].flatMap((flag) => (flag ? [[flag, { type: 'boolean' }]] : []));
    return knob.flag ? [[knob.flag, { type: 'string' }]] : [];
  }),
);

/** The usage items of those flags, in table order, e.g. `[--slots N]`. */
export function configFlagUsage(): string[] {
  return KNOBS.flatMap((knob) => {
    if (knob.kind === 'toggle') return [knob.flag, knob.negatedFlag].flatMap((flag) => (flag ? [`[--${flag}]`] : []));
    return knob.flag ? [`[--${knob.flag} ${knob.flagValue}]`] : [];
  });
}

function settingOption(value: FlagValues[string], fallback: RunSetting): RunSetting {
  const setting = (value ?? fallback) as RunSetting;
  if (!RUN_SETTINGS.includes(setting)) throw new UsageError(`--setting must be one of ${RUN_SETTINGS.join(', ')}`);
  return setting;
}

function skillsOption(value: FlagValues[string], defaults: string[], setting: RunSetting): string[] {
  if (value === undefined) return defaults;
  const known = skillsOf(setting);
  const names = String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const byLower = new Map(Object.keys(known).map((s) => [s.toLowerCase().replace(/[\s_-]+/g, ''), s]));
  return names.map((name) => {
    const skill = byLower.get(name.toLowerCase().replace(/[\s_-]+/g, ''));
    if (!skill) throw new UsageError(`unknown skill ${JSON.stringify(name)} for the ${setting} setting; choose from ${Object.keys(known).join(', ')}`);
    return skill;
  });
}

function rewardOption(value: FlagValues[string], fallback: RewardVariant): RewardVariant {
  const reward = (value ?? fallback) as RewardVariant;
  if (!REWARD_VARIANTS.includes(reward)) throw new UsageError(`--reward must be one of ${REWARD_VARIANTS.join(', ')}`);
  return reward;
}

function difficultyOption(value: FlagValues[string], fallback: DifficultyMode): DifficultyMode {
  const difficulty = (value ?? fallback) as DifficultyMode;
  if (!DIFFICULTY_MODES.includes(difficulty)) throw new UsageError(`--difficulty must be one of ${DIFFICULTY_MODES.join(', ')}`);
  return difficulty;
}

/**
 * A per-role flag (`--thinking`, `--thinking-budget`): one value for every role (`off`), or
 * `role=value` pairs separated by commas (`agent=on,hint=off`); roles it does not name keep the base's.
 */
function perRoleOption<T>(value: FlagValues[string], flag: string, base: Record<ThinkingRole, T>, read: (text: string) => T): Record<ThinkingRole, T> {
  if (value === undefined) return base;
  const text = String(value).trim();
  if (!text.includes('=')) return Object.fromEntries(THINKING_ROLES.map((role) => [role, read(text)])) as Record<ThinkingRole, T>;
  const result = { ...base };
  for (const pair of text.split(',')) {
    const [role, given, extra] = pair.split('=').map((part) => part.trim());
    if (!THINKING_ROLES.includes(role as ThinkingRole) || given === undefined || extra !== undefined) {
      throw new UsageError(`--${flag} takes one value or ROLE=VALUE pairs with ROLE one of ${THINKING_ROLES.join(', ')}, got ${JSON.stringify(pair)}`);
    }
    result[role as ThinkingRole] = read(given);
  }
  return result;
}

function thinkingMode(text: string): ThinkingMode {
  if (!THINKING_MODES.includes(text as ThinkingMode)) throw new UsageError(`--${CONFIG_TABLE.thinking.flag} must be one of ${THINKING_MODES.join(', ')}, got ${JSON.stringify(text)}`);
  return text as ThinkingMode;
}

const thinkingBudget = (text: string): number => integerOption(text, CONFIG_TABLE.thinkingBudget.flag!, 0);

/**
 * The config the flags ask for over `base` (a preset): each table knob's flag sets it, a switch's
 * flag turns it on and its negated flag off. Three defaults follow other flags: without `--skills`
 * they are every skill of the setting (the base's when `--setting` keeps the base's setting);
 * without `--skills-per-epoch` it is the base's, at most the number of skills; without
 * `--hint-plays` it is `--plays` when that is given. The limits are checked afterwards, by configProblems.
 */
export function configFromFlags(values: FlagValues, base: Config): Config {
  const setting = settingOption(values[CONFIG_TABLE.setting.flag!], base.setting);
  const skills = setting === base.setting ? base.skills : Object.keys(skillsOf(setting));
  const config: Config = {
    ...base,
    setting,
    reward: rewardOption(values[CONFIG_TABLE.reward.flag!], base.reward),
    skills: skillsOption(values[CONFIG_TABLE.skills.flag!], skills, setting),
    difficulty: difficultyOption(values[CONFIG_TABLE.difficulty.flag!], base.difficulty),
    thinking: perRoleOption(values[CONFIG_TABLE.thinking.flag!], CONFIG_TABLE.thinking.flag!, base.thinking, thinkingMode),
    thinkingBudget: perRoleOption(values[CONFIG_TABLE.thinkingBudget.flag!], CONFIG_TABLE.thinkingBudget.flag!, base.thinkingBudget, thinkingBudget),
  };
  for (const knob of NUMBER_KNOBS) config[knob.key] = (knob.integer ? integerOption : numberOption)(values[knob.flag], knob.flag, base[knob.key]);
  for (const knob of TOGGLE_KNOBS) config[knob.key] = knob.flag && values[knob.flag] === true ? true : knob.negatedFlag && values[knob.negatedFlag] === true ? false : base[knob.key];
  if (values[CONFIG_TABLE.skillsPerEpoch.flag] === undefined) config.skillsPerEpoch = Math.min(base.skillsPerEpoch, config.skills.length);
  if (values[CONFIG_TABLE.hintPlays.flag] === undefined && values[CONFIG_TABLE.playsPerArm.flag] !== undefined) config.hintPlays = config.playsPerArm;
  return config;
}
