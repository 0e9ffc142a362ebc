import { DEFAULT_TEMPLATES, templateProblems, type PromptTemplates } from './prompts/templates.ts';
import { REWARD_VARIANTS, type RewardVariant } from './scoring/designer-reward.ts';

/** The six cognitive-game skills of SPADE, with the description the designer prompt shows. */
export const GAME_SKILLS: Readonly<Record<string, string>> = {
  'Mathematical Reasoning': 'arithmetic, number theory, algebra and counting carried out over several steps',
  'Logical Deduction': 'drawing certain conclusions from rules, clues and constraints',
  'Spatial Reasoning': 'positions, directions, shapes, grids and movement in space',
  'Pattern Recognition': 'finding the rule behind sequences, arrangements and transformations',
  Optimization: 'reaching the best outcome under limits on moves, cost or resources',
  'Causal Inference': 'telling causes from correlations by acting on a system and watching effects',
};

/** Sampling settings of one model role. */
export interface SamplingConfig {
  /** Sampling temperature. */
  temperature: number;
  /** Nucleus sampling mass. */
  topP: number;
  /** Most tokens per reply. */
  maxTokens: number;
}

/** How the difficulty word in the designer prompt is chosen. */
export type DifficultyMode = 'adaptive' | 'easy' | 'medium' | 'hard';

/** Every knob of a run, with the tab defaults of SPADE.md. */
export interface Config {
  /** Run seed: every slot, document, memory sample, play seed and model seed derives from it. */
  seed: number;
  /** Configured skills; each epoch activates `skillsPerEpoch` of them in rotation. */
  skills: string[];
  /** Skills active per epoch, rotating through `skills` (all of them when it is at least their number); each gets slotsPerEpoch / skillsPerEpoch slots (SPADE: 3 of 6; tab: 2). */
  skillsPerEpoch: number;
  /** Environment slots designed per epoch (SPADE: 24; tab: 4). */
  slotsPerEpoch: number;
  /** Design attempts per slot before giving up (SPADE: 5; tab: 3). */
  attemptsPerSlot: number;
  /** Feed the first validation error back once and ask for a fixed version. */
  repairMode: boolean;
  /** Unhinted plays per environment in each rollout, K (SPADE: 8; tab: 4). */
  playsPerArm: number;
  /** Hinted plays per environment in the first rollout, on the first seeds of the unhinted ones (SPADE: 16; tab: 4). */
  hintPlays: number;
  /** Rollouts per epoch (R); rollouts after the first add unhinted plays that the win rate also counts. */
  rolloutsPerEpoch: number;
  /** Turn cap of an episode (SPADE: 25; tab: 12). */
  maxTurns: number;
  /** Designer reward variant (the paper uses blend). */
  reward: RewardVariant;
  /** Designer sampling (SPADE: 0.6 / 0.95). */
  designer: SamplingConfig;
  /** Hint sampling (SPADE: 0.3). */
  hint: SamplingConfig;
  /** Agent sampling (SPADE: 0.6). */
  agent: SamplingConfig;
  /** Words of the grounding document shown to the designer (SPADE: 6000; tab: 800). */
  corpusWordBudget: number;
  /** Ground designs in corpus documents (ablation: off). */
  useCorpus: boolean;
  /** Show environment memory to the designer (ablation: off). */
  useMemory: boolean;
  /** Difficulty word policy; `adaptive` follows the skill's remembered win rates. */
  difficulty: DifficultyMode;
  /** Budget for validating one environment, in milliseconds (SPADE: 60 000; tab: 5 000). */
  validateTimeoutMs: number;
  /** Limit for one reset or step, in milliseconds (SPADE: 30 000; tab: 2 000). */
  stepTimeoutMs: number;
  /** The prompt templates of the run (recorded with it; editable per run). */
  prompts: PromptTemplates;
}

/** Longest validation budget a config may ask for, in milliseconds (SPADE's own 60 s). */
export const MAX_VALIDATE_TIMEOUT_MS = 60_000;
/** Longest per-call limit a config may ask for, in milliseconds (SPADE's own 30 s). */
export const MAX_STEP_TIMEOUT_MS = 30_000;

/** The tab defaults. */
export const DEFAULT_CONFIG: Config = {
  seed: 1,
  skills: Object.keys(GAME_SKILLS),
  skillsPerEpoch: 2,
  slotsPerEpoch: 4,
  attemptsPerSlot: 3,
  repairMode: false,
  playsPerArm: 4,
  hintPlays: 4,
  rolloutsPerEpoch: 1,
  maxTurns: 12,
  reward: 'blend',
  designer: { temperature: 0.6, topP: 0.95, maxTokens: 4096 },
  hint: { temperature: 0.3, topP: 0.95, maxTokens: 256 },
  agent: { temperature: 0.6, topP: 0.95, maxTokens: 1024 },
  corpusWordBudget: 800,
  useCorpus: true,
  useMemory: true,
  difficulty: 'adaptive',
  validateTimeoutMs: 5000,
  stepTimeoutMs: 2000,
  prompts: DEFAULT_TEMPLATES,
};

/** The named presets a run can start from. */
export type PresetName = 'tab' | 'reference';

/**
 * SPADE's own scale (the reference's games recipe): 24 slots, 3 of 6 skills per epoch, 8 unhinted
 * plays per rollout and 16 hinted, R = 4, 25 turns, medium difficulty, 6000-word documents,
 * 5 attempts, 60 s validation and 30 s per call. For a server that can take it.
 */
export const REFERENCE_PRESET: Readonly<Partial<Config>> = {
  slotsPerEpoch: 24,
  skills: Object.keys(GAME_SKILLS),
  skillsPerEpoch: 3,
  playsPerArm: 8,
  hintPlays: 16,
  rolloutsPerEpoch: 4,
  maxTurns: 25,
  difficulty: 'medium',
  corpusWordBudget: 6000,
  attemptsPerSlot: 5,
  validateTimeoutMs: MAX_VALIDATE_TIMEOUT_MS,
  stepTimeoutMs: MAX_STEP_TIMEOUT_MS,
};

/** A config with a preset's settings applied over it (`tab` is the tab defaults). */
export function withPreset(config: Config, preset: PresetName): Config {
  return preset === 'reference' ? { ...config, ...REFERENCE_PRESET } : { ...DEFAULT_CONFIG, seed: config.seed, prompts: config.prompts };
}

/**
 * Completes a config stored by an earlier version: fields it lacks get the values that reproduce
 * how that version ran (every skill active, as many hinted plays as unhinted, the default prompts).
 */
export function completeConfig(stored: Config): Config {
  const partial = stored as Partial<Config> & Config;
  return {
    ...stored,
    skillsPerEpoch: partial.skillsPerEpoch ?? stored.skills.length,
    hintPlays: partial.hintPlays ?? stored.playsPerArm,
    prompts: partial.prompts ?? DEFAULT_TEMPLATES,
  };
}


function positiveInt(value: number, name: string, max: number): string[] {
  return Number.isInteger(value) && value >= 1 && value <= max ? [] : [`${name} must be an integer from 1 to ${max}, got ${value}`];
}

/** Lists what is wrong with a config (empty when it is usable). */
export function configProblems(config: Config): string[] {
  if (!Array.isArray(config.skills) || !config.skills.every((s) => typeof s === 'string')) return ['skills must be a list of skill names'];
  const problems = [
    ...positiveInt(config.slotsPerEpoch, 'slotsPerEpoch', 256),
    ...positiveInt(config.attemptsPerSlot, 'attemptsPerSlot', 20),
    ...positiveInt(config.playsPerArm, 'playsPerArm', 64),
    ...positiveInt(config.hintPlays, 'hintPlays', 64),
    ...positiveInt(config.rolloutsPerEpoch, 'rolloutsPerEpoch', 16),
    ...positiveInt(config.maxTurns, 'maxTurns', 200),
    ...positiveInt(config.corpusWordBudget, 'corpusWordBudget', 20_000),
  ];
  if (!Number.isSafeInteger(config.seed) || config.seed < 0) problems.push(`seed must be a non-negative integer, got ${config.seed}`);
  if (config.skills.length === 0) problems.push('skills must name at least one skill');
  if (new Set(config.skills).size !== config.skills.length) problems.push('skills must not repeat a skill');
  if (!(Number.isInteger(config.skillsPerEpoch) && config.skillsPerEpoch >= 1 && config.skillsPerEpoch <= Object.keys(GAME_SKILLS).length)) {
    problems.push(`skillsPerEpoch must be an integer from 1 to ${Object.keys(GAME_SKILLS).length} (at least the number of skills: every skill every epoch), got ${config.skillsPerEpoch}`);
  }
  const unknown = config.skills.filter((s) => !Object.hasOwn(GAME_SKILLS, s));
  if (unknown.length > 0) problems.push(`unknown skills ${JSON.stringify(unknown)}; choose from ${Object.keys(GAME_SKILLS).join(', ')}`);
  if (!REWARD_VARIANTS.includes(config.reward)) problems.push(`reward must be one of ${REWARD_VARIANTS.join(', ')}`);
  for (const role of ['designer', 'hint', 'agent'] as const) {
    const s = config[role];
    if (!(s.temperature >= 0 && s.temperature <= 2)) problems.push(`${role}.temperature must be in [0, 2]`);
    if (!(s.topP > 0 && s.topP <= 1)) problems.push(`${role}.topP must be in (0, 1]`);
    problems.push(...positiveInt(s.maxTokens, `${role}.maxTokens`, 131_072));
  }
  if (!(config.validateTimeoutMs >= 100 && config.validateTimeoutMs <= MAX_VALIDATE_TIMEOUT_MS)) {
    problems.push(`validateTimeoutMs must be from 100 to ${MAX_VALIDATE_TIMEOUT_MS}, got ${config.validateTimeoutMs}`);
  }
  if (!(config.stepTimeoutMs >= 50 && config.stepTimeoutMs <= MAX_STEP_TIMEOUT_MS)) {
    problems.push(`stepTimeoutMs must be from 50 to ${MAX_STEP_TIMEOUT_MS}, got ${config.stepTimeoutMs}`);
  }
  if (typeof config.prompts !== 'object' || config.prompts === null) problems.push('prompts must hold the designer, repair, hint and agent templates');
  else problems.push(...templateProblems(config.prompts));
  return problems;
}
