import { DEFAULT_TEMPLATES, templateProblems } from './prompts/templates.ts';
import { REWARD_VARIANTS } from './scoring/designer-reward.ts';
import { CONFIG_TABLE, DIFFICULTY_MODES, KNOBS, NUMBER_KNOBS, TOGGLE_KNOBS, type Config } from './config-table.ts';
import { RUN_SETTINGS, skillsOf, type RunSetting } from './skills.ts';
import { thinkingProblems, UNSET_THINKING, UNSET_THINKING_BUDGET } from './thinking.ts';

export type { Config, DifficultyMode, SamplingConfig } from './config-table.ts';

/** Longest validation budget a config may ask for, in milliseconds (SPADE's own 60 s). */
export const MAX_VALIDATE_TIMEOUT_MS = CONFIG_TABLE.validateTimeoutMs.max;
/** Longest per-call limit a config may ask for, in milliseconds (SPADE's own 30 s). */
export const MAX_STEP_TIMEOUT_MS = CONFIG_TABLE.stepTimeoutMs.max;

/** The tab defaults: every row's default. */
export const DEFAULT_CONFIG: Config = Object.fromEntries(
  KNOBS.map((knob) => [knob.key, knob.default]),
) as unknown as Config;

/** The named presets a run can start from. */
export type PresetName = 'tab' | 'reference';

/**
 * SPADE's own scale (the reference's games recipe), every row's `reference`: 24 slots, 3 of 6
 * skills per epoch (a full skill cycle restarting each epoch), 8 unhinted plays per rollout and 16 hinted, R = 4, 25 turns, medium difficulty,
 * 6000-word documents, 5 attempts, 60 s validation and 30 s per call. For a server that can take it.
 */
export const REFERENCE_PRESET: Readonly<Partial<Config>> = Object.fromEntries(
  KNOBS.flatMap((knob) => (knob.reference === undefined ? [] : [[knob.key, knob.reference]])),
);

/** A config with a preset's settings applied over it (`tab` is the tab defaults). */
export function withPreset(config: Config, preset: PresetName): Config {
  const setting = { setting: config.setting, skills: Object.keys(skillsOf(config.setting)) };
  return preset === 'reference'
    ? { ...config, ...REFERENCE_PRESET, ...setting }
    : {
        ...DEFAULT_CONFIG,
        seed: config.seed,
        prompts: config.prompts,
        ...setting,
        skillsPerEpoch: Math.min(DEFAULT_CONFIG.skillsPerEpoch, setting.skills.length),
      };
}

/** A config switched to another setting: that setting's skills, all of them configured. */
export function withSetting(config: Config, setting: RunSetting): Config {
  const skills = Object.keys(skillsOf(setting));
  return { ...config, setting, skills, skillsPerEpoch: Math.min(config.skillsPerEpoch, skills.length) };
}

/**
 * Completes a config stored by an earlier version: fields it lacks get the values that reproduce
 * how that version ran (every skill active with the slot cycle continuing across epochs, as many hinted plays as unhinted, the default prompts,
 * no playbook, evaluation only on demand, cognitive games without the solvability judge, every
 * role's thinking left to the model with no thinking budget, replies read by the reference's
 * rules, the tab's aided tool-use base class and extra tool-use checks, an unconstrained agent,
 * failed plays dropped, one step per tool-use reply and no row masks; the default concurrency,
 * which changes no result); a template it
 * lacks is the default one.
 */
export function completeConfig(stored: Config): Config {
  const partial = stored as Partial<Config> & Config;
  return {
    ...stored,
    skillsPerEpoch: partial.skillsPerEpoch ?? stored.skills.length,
    restartSkillCycle: partial.restartSkillCycle ?? false,
    hintPlays: partial.hintPlays ?? stored.playsPerArm,
    setting: partial.setting ?? 'games',
    solvabilityJudge: partial.solvabilityJudge ?? false,
    replyAids: partial.replyAids ?? false,
    toolBaseAids: partial.toolBaseAids ?? true,
    extraToolChecks: partial.extraToolChecks ?? true,
    prompts: { ...DEFAULT_TEMPLATES, ...partial.prompts },
    usePlaybook: partial.usePlaybook ?? false,
    playbookSize: partial.playbookSize ?? CONFIG_TABLE.playbookSize.default,
    evalEvery: partial.evalEvery ?? 0,
    evalSeeds: partial.evalSeeds ?? CONFIG_TABLE.evalSeeds.default,
    concurrency: partial.concurrency ?? CONFIG_TABLE.concurrency.default,
    thinking: { ...UNSET_THINKING, ...partial.thinking },
    thinkingBudget: { ...UNSET_THINKING_BUDGET, ...partial.thinkingBudget },
    constrainAgent: partial.constrainAgent ?? false,
    crashesLose: partial.crashesLose ?? false,
    coerceStepReturns: partial.coerceStepReturns ?? false,
    freeToolCalls: partial.freeToolCalls ?? false,
    toolUseMasks: partial.toolUseMasks ?? false,
  };
}

function outOfRange(name: string, value: number, limits: { min: number; max: number; integer: boolean }): string[] {
  if ((!limits.integer || Number.isInteger(value)) && value >= limits.min && value <= limits.max) return [];
  return [`${name} must be ${limits.integer ? 'an integer ' : ''}from ${limits.min} to ${limits.max}, got ${value}`];
}

/** Lists what is wrong with a config (empty when it is usable). */
export function configProblems(config: Config): string[] {
  if (!Array.isArray(config.skills) || !config.skills.every((s) => typeof s === 'string'))
    return ['skills must be a list of skill names'];
  const problems = NUMBER_KNOBS.flatMap((knob) => outOfRange(knob.key, config[knob.key], knob));
  for (const knob of TOGGLE_KNOBS)
    if (typeof config[knob.key] !== 'boolean') problems.push(`${knob.key} must be true or false`);
  if (config.skills.length === 0) problems.push('skills must name at least one skill');
  if (new Set(config.skills).size !== config.skills.length) problems.push('skills must not repeat a skill');
  if (!RUN_SETTINGS.includes(config.setting)) problems.push(`setting must be one of ${RUN_SETTINGS.join(', ')}`);
  const known = skillsOf(RUN_SETTINGS.includes(config.setting) ? config.setting : 'games');
  const unknown = config.skills.filter((s) => !Object.hasOwn(known, s));
  if (unknown.length > 0)
    problems.push(
      `unknown skills ${JSON.stringify(unknown)} for the ${config.setting} setting; choose from ${Object.keys(known).join(', ')}`,
    );
  if (!REWARD_VARIANTS.includes(config.reward)) problems.push(`reward must be one of ${REWARD_VARIANTS.join(', ')}`);
  if (!DIFFICULTY_MODES.includes(config.difficulty))
    problems.push(`difficulty must be one of ${DIFFICULTY_MODES.join(', ')}`);
  for (const role of ['designer', 'hint', 'agent'] as const) {
    const s = config[role];
    if (!(s.temperature >= 0 && s.temperature <= 2)) problems.push(`${role}.temperature must be in [0, 2]`);
    if (!(s.topP > 0 && s.topP <= 1)) problems.push(`${role}.topP must be in (0, 1]`);
    problems.push(...outOfRange(`${role}.maxTokens`, s.maxTokens, { min: 1, max: 131_072, integer: true }));
  }
  problems.push(...thinkingProblems(config));
  if (typeof config.prompts !== 'object' || config.prompts === null)
    problems.push('prompts must hold the designer, repair, hint and agent templates');
  else problems.push(...templateProblems(config.prompts));
  return problems;
}
