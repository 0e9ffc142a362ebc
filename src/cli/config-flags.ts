import type { Config, DifficultyMode } from '../core/config.ts';
import {
  CONFIG_TABLE,
  DIFFICULTY_MODES,
  KNOB_GROUPS,
  KNOBS,
  NUMBER_KNOBS,
  TOGGLE_KNOBS,
  type Knob,
  type KnobGroup,
} from '../core/config-table.ts';
import { REWARD_VARIANTS, type RewardVariant } from '../core/scoring/designer-reward.ts';
import { RUN_SETTINGS, skillsOf, type RunSetting } from '../core/skills.ts';
import { THINKING_MODES, THINKING_ROLES, type ThinkingMode, type ThinkingRole } from '../core/thinking.ts';
import { integerOption, numberOption, UsageError, type OptionSpec, type OptionTable } from './args.ts';

/** What parseArgs read: a string per value flag, true per switch given. */
export type FlagValues = Readonly<Record<string, string | boolean | Array<string | boolean> | undefined>>;

/** A knob's value as its help shows it: on/off for a switch, nothing for a list or a record. */
function shown(value: unknown): string | null {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  return typeof value === 'number' || typeof value === 'string' ? String(value) : null;
}

/** What a knob's help line ends with: its limits, the tab default and the reference preset's value. */
function knobFacts(knob: Knob): string {
  const limits = knob.kind === 'number' && knob.max < Number.MAX_SAFE_INTEGER ? [`${knob.min} to ${knob.max}`] : [];
  const tab = shown(knob.default);
  const reference = knob.reference === undefined ? null : shown(knob.reference);
  const facts = [
    ...limits,
    ...(tab === null ? [] : [`tab ${tab}`]),
    ...(reference === null ? [] : [`reference ${reference}`]),
  ];
  return facts.length > 0 ? ` (${facts.join('; ')})` : '';
}

/** `text` with a lower-case first letter, unless it starts a name in capitals (`SPADE`). */
const lowerFirst = (text: string): string =>
  /^[A-Z](?![A-Z])/.test(text) ? text[0]!.toLowerCase() + text.slice(1) : text;

/** A knob's one line of help: its form label and help when it has them, else its doc; then its facts. */
function knobHelp(knob: Knob): string {
  const text = knob.label && knob.help ? `${knob.label}: ${lowerFirst(knob.help)}` : knob.doc.replace(/\.$/, '');
  return text + knobFacts(knob);
}

/** The flags of one knob with their help; a switch's negated flag turns it off. */
function knobOptions(knob: Knob): Array<[string, OptionSpec]> {
  if (knob.kind !== 'toggle')
    return knob.flag ? [[knob.flag, { type: 'string', value: knob.flagValue, help: knobHelp(knob) }]] : [];
  const on: Array<[string, OptionSpec]> = knob.flag ? [[knob.flag, { type: 'boolean', help: knobHelp(knob) }]] : [];
  const offHelp = knob.flag ? `turns --${knob.flag} off` : `${knobHelp(knob)}; this flag turns it off`;
  return [
    ...on,
    ...(knob.negatedFlag
      ? ([[knob.negatedFlag, { type: 'boolean', help: offHelp }]] as Array<[string, OptionSpec]>)
      : []),
  ];
}

/** The config table's flags grouped as the new-run form groups them, each group with its title, in table order. */
export const CONFIG_FLAG_SECTIONS: ReadonlyArray<{ title: string; options: OptionTable }> = (
  Object.keys(KNOB_GROUPS) as KnobGroup[]
).flatMap((group) => {
  const options = Object.fromEntries(KNOBS.filter((knob) => knob.group === group).flatMap(knobOptions));
  return Object.keys(options).length > 0 ? [{ title: KNOB_GROUPS[group], options }] : [];
});

/** The flags of the config table's knobs, as parseArgs options. */
export const CONFIG_FLAG_OPTIONS: OptionTable = Object.fromEntries(KNOBS.flatMap(knobOptions));

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
    if (!skill)
      throw new UsageError(
        `unknown skill ${JSON.stringify(name)} for the ${setting} setting; choose from ${Object.keys(known).join(', ')}`,
      );
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
  if (!DIFFICULTY_MODES.includes(difficulty))
    throw new UsageError(`--difficulty must be one of ${DIFFICULTY_MODES.join(', ')}`);
  return difficulty;
}

/**
 * A per-role flag (`--thinking`, `--thinking-budget`): one value for every role (`off`), or
 * `role=value` pairs separated by commas (`agent=on,hint=off`); roles it does not name keep the base's.
 */
function perRoleOption<T>(
  value: FlagValues[string],
  flag: string,
  base: Record<ThinkingRole, T>,
  read: (text: string) => T,
): Record<ThinkingRole, T> {
  if (value === undefined) return base;
  const text = String(value).trim();
  if (!text.includes('='))
    return Object.fromEntries(THINKING_ROLES.map((role) => [role, read(text)])) as Record<ThinkingRole, T>;
  const result = { ...base };
  for (const pair of text.split(',')) {
    const [role, given, extra] = pair.split('=').map((part) => part.trim());
    if (!THINKING_ROLES.includes(role as ThinkingRole) || given === undefined || extra !== undefined) {
      throw new UsageError(
        `--${flag} takes one value or ROLE=VALUE pairs with ROLE one of ${THINKING_ROLES.join(', ')}, got ${JSON.stringify(pair)}`,
      );
    }
    result[role as ThinkingRole] = read(given);
  }
  return result;
}

function thinkingMode(text: string): ThinkingMode {
  if (!THINKING_MODES.includes(text as ThinkingMode))
    throw new UsageError(
      `--${CONFIG_TABLE.thinking.flag} must be one of ${THINKING_MODES.join(', ')}, got ${JSON.stringify(text)}`,
    );
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
    thinking: perRoleOption(
      values[CONFIG_TABLE.thinking.flag!],
      CONFIG_TABLE.thinking.flag!,
      base.thinking,
      thinkingMode,
    ),
    thinkingBudget: perRoleOption(
      values[CONFIG_TABLE.thinkingBudget.flag!],
      CONFIG_TABLE.thinkingBudget.flag!,
      base.thinkingBudget,
      thinkingBudget,
    ),
  };
  for (const knob of NUMBER_KNOBS)
    config[knob.key] = (knob.integer ? integerOption : numberOption)(values[knob.flag], knob.flag, base[knob.key]);
  for (const knob of TOGGLE_KNOBS)
    config[knob.key] =
      knob.flag && values[knob.flag] === true
        ? true
        : knob.negatedFlag && values[knob.negatedFlag] === true
          ? false
          : base[knob.key];
  if (values[CONFIG_TABLE.skillsPerEpoch.flag] === undefined)
    config.skillsPerEpoch = Math.min(base.skillsPerEpoch, config.skills.length);
  if (values[CONFIG_TABLE.hintPlays.flag] === undefined && values[CONFIG_TABLE.playsPerArm.flag] !== undefined)
    config.hintPlays = config.playsPerArm;
  return config;
}
