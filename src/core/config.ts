import { DEFAULT_TEMPLATES, templateProblems, type PromptTemplates } from './prompts/templates.ts';
import { REWARD_VARIANTS, type RewardVariant } from './scoring/designer-reward.ts';
import { CONFIG_TABLE, DIFFICULTY_MODES, KNOBS, NUMBER_KNOBS, TOGGLE_KNOBS } from './config-table.ts';
import { RUN_SETTINGS, skillsOf, type RunSetting } from './skills.ts';
import { thinkingProblems, UNSET_THINKING, UNSET_THINKING_BUDGET, type ThinkingMode, type ThinkingRole } from './thinking.ts';

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

/** Every knob of a run: its row in CONFIG_TABLE (config-table.ts) holds its unit, default, limits, flag and form field; each field's comment is its row's doc, written by scripts/write-config-docs.ts. */
export interface Config {
  /** Run seed, an integer: every slot, document, memory sample, play seed and model seed derives from it. */
  seed: number;
  /**
   * What the run trains, one of RUN_SETTINGS: SPADE's cognitive games or its multi-turn tool use (tools
   * against a mocked backend, instructions revealed one by one).
   */
  setting: RunSetting;
  /**
   * Configured skills, names from the setting's skills (GAME_SKILLS or TOOL_USE_SKILLS); each epoch activates
   * `skillsPerEpoch` of them in rotation.
   */
  skills: string[];
  /**
   * Skills active per epoch, rotating through `skills` (all of them when it is at least their number); each
   * gets slotsPerEpoch / skillsPerEpoch slots.
   */
  skillsPerEpoch: number;
  /**
   * With every skill active, start each epoch's round-robin of slots at the first skill, as the reference
   * does; off: continue where the previous epoch stopped, so fewer slots than skills still reach every skill
   * over the epochs.
   */
  restartSkillCycle: boolean;
  /** Environment slots designed per epoch, in environments. */
  slotsPerEpoch: number;
  /** Design attempts per slot before the slot gives up, in designer replies. */
  attemptsPerSlot: number;
  /** Feed the first validation error back once and ask for a fixed version. */
  repairMode: boolean;
  /**
   * Tool use only: after validation, ask the same model whether the environment can be solved
   * (\boxed{yes|no}; a reply without a verdict accepts) and reject a no.
   */
  solvabilityJudge: boolean;
  /** Unhinted plays per environment in each rollout (K), in episodes. */
  playsPerArm: number;
  /**
   * Hinted plays per environment in the first rollout, on the first seeds of the unhinted ones, in episodes.
   */
  hintPlays: number;
  /** Rollouts per epoch (R); rollouts after the first add unhinted plays that the win rate also counts. */
  rolloutsPerEpoch: number;
  /** Turn cap of an episode, in agent turns. */
  maxTurns: number;
  /**
   * Small-model reply aids: the last box of a reply's visible text with LaTeX wrappers unwrapped, lenient
   * tool-call JSON, a pending tool call before an answer, hints cut only at sentence ends, and designs read
   * from any python fence with `<think>` removed (off: the reference's rules, method.md section 5).
   */
  replyAids: boolean;
  /**
   * The reference's failure rule: an exception or a refused return inside the environment's step ends the
   * play with a kept return of -1 (hinted plays too), a failed reset plays on from an error observation, and
   * only a hang in rollout 0 costs the designer the regret reward's -0.5 (off: such a play fails, is retried
   * once and dropped, a hinted one scores 0; docs/method.md section 1).
   */
  crashesLose: boolean;
  /**
   * The reference's tool-use turns: every tool call of a reply runs through execute_tool and costs no
   * environment step; only answers and call-less replies go through step, and the run's turn cap bounds the
   * replies (off: each reply is one step, its first call only).
   */
  freeToolCalls: boolean;
  /**
   * The reference's tool-use training masks: an agent row of a tool-use run whose episode did not terminate
   * (truncated or out of turns) has weight 0 on every reply (it stays in its group's mean), and a reply whose
   * <tool_call> could not be read has weight 0 and its feedback a [FORMAT] line.
   */
  toolUseMasks: boolean;
  /**
   * Tool-use designs get the tab's aided ToolUseBaseEnv: default `_user_messages`, `_message_criteria`,
   * `_current_msg` and `_advance_if_done`, lenient call JSON, a done-closing answer check and its own
   * feedback texts (off: the reference's base class exactly, method.md section 6).
   */
  toolBaseAids: boolean;
  /**
   * Validate tool-use designs with the tab's extra checks: the first instruction and one criterion per
   * instruction, the malformed-action, unknown-tool and wrong-argument probes, a criterion already true at
   * every reset seed, and the reset gate in every epoch and setting (off: the reference's, the gate rejecting
   * only criteria that raise at every seed, in tool-use runs from the second epoch on; method.md section 6).
   */
  extraToolChecks: boolean;
  /** Designer reward variant, one of REWARD_VARIANTS (the paper uses blend). */
  reward: RewardVariant;
  /** Designer sampling: temperature, top-p and most tokens per reply (SPADE: 0.6 / 0.95). */
  designer: SamplingConfig;
  /** Hint sampling: temperature, top-p and most tokens per reply (SPADE: 0.3). */
  hint: SamplingConfig;
  /** Agent sampling: temperature, top-p and most tokens per reply (SPADE: 0.6). */
  agent: SamplingConfig;
  /**
   * Thinking per role (the designer's covers its repairs and the solvability judge): on asks the model to
   * think, off turns thinking off (Qwen3's enable_thinking), default sends nothing and leaves the model's
   * own; the tab turns it off for every role, so a small model's replies fit a 4k window (docs/method.md
   * section 5).
   */
  thinking: Record<ThinkingRole, ThinkingMode>;
  /**
   * Thinking budget per role, in tokens: a role that may think (on or default) gets its reply budget plus
   * this much, and a reply cut by that limit inside an unclosed <think> is asked once more with thinking off;
   * 0: thinking spends the reply budget and a cut reply stays as it is, as in the reference.
   */
  thinkingBudget: Record<ThinkingRole, number>;
  /**
   * Constrain the agent's replies with a grammar (a tab addition): a game reply is short reasoning then
   * exactly one \boxed{...}, a tool-use reply one call to a listed tool or one <answer>; only with a model
   * that honours grammars (others play unconstrained and the run says so).
   */
  constrainAgent: boolean;
  /**
   * Most units of work (a slot design, a hint, a play) running at once, in units; bounded by what the model
   * can take (one for WebGPU and CPU models); results are the same at any value.
   */
  concurrency: number;
  /**
   * Keep the agent's playbook: lessons learned where the hint won and the agent alone lost, shown in agent
   * prompts (a tab addition; off: the no-playbook ablation).
   */
  usePlaybook: boolean;
  /** Lessons shown per agent prompt, at most, from the prompt's skill, in lessons. */
  playbookSize: number;
  /**
   * Evaluate the agent on the held-out suite before the first epoch and after every N epochs, in epochs (0:
   * only on demand).
   */
  evalEvery: number;
  /** Plays of each held-out environment per evaluation, each on its own fixed seed, in episodes. */
  evalSeeds: number;
  /** Length of the grounding document shown to the designer, in words. */
  corpusWordBudget: number;
  /** Ground designs in corpus documents (off: the no-corpus ablation). */
  useCorpus: boolean;
  /** Show environment memory to the designer (off: the no-memory ablation). */
  useMemory: boolean;
  /** Difficulty word policy; `adaptive` follows the skill's remembered win rates. */
  difficulty: DifficultyMode;
  /** Budget for validating one environment, in milliseconds. */
  validateTimeoutMs: number;
  /** Limit for one reset or step, in milliseconds. */
  stepTimeoutMs: number;
  /** The prompt templates of the run (recorded with it; editable per run). */
  prompts: PromptTemplates;
}

/** Longest validation budget a config may ask for, in milliseconds (SPADE's own 60 s). */
export const MAX_VALIDATE_TIMEOUT_MS = CONFIG_TABLE.validateTimeoutMs.max;
/** Longest per-call limit a config may ask for, in milliseconds (SPADE's own 30 s). */
export const MAX_STEP_TIMEOUT_MS = CONFIG_TABLE.stepTimeoutMs.max;

/** The tab defaults: every row's default. */
export const DEFAULT_CONFIG: Config = Object.fromEntries(KNOBS.map((knob) => [knob.key, knob.default])) as unknown as Config;

/** The named presets a run can start from. */
export type PresetName = 'tab' | 'reference';

/**
 * SPADE's own scale (the reference's games recipe), every row's `reference`: 24 slots, 3 of 6
 * skills per epoch (a full skill cycle restarting each epoch), 8 unhinted plays per rollout and 16 hinted, R = 4, 25 turns, medium difficulty,
 * 6000-word documents, 5 attempts, 60 s validation and 30 s per call. For a server that can take it.
 */
export const REFERENCE_PRESET: Readonly<Partial<Config>> = Object.fromEntries(KNOBS.flatMap((knob) => (knob.reference === undefined ? [] : [[knob.key, knob.reference]])));

/** A config with a preset's settings applied over it (`tab` is the tab defaults). */
export function withPreset(config: Config, preset: PresetName): Config {
  const setting = { setting: config.setting, skills: Object.keys(skillsOf(config.setting)) };
  return preset === 'reference'
    ? { ...config, ...REFERENCE_PRESET, ...setting }
    : { ...DEFAULT_CONFIG, seed: config.seed, prompts: config.prompts, ...setting, skillsPerEpoch: Math.min(DEFAULT_CONFIG.skillsPerEpoch, setting.skills.length) };
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
  if (!Array.isArray(config.skills) || !config.skills.every((s) => typeof s === 'string')) return ['skills must be a list of skill names'];
  const problems = NUMBER_KNOBS.flatMap((knob) => outOfRange(knob.key, config[knob.key], knob));
  for (const knob of TOGGLE_KNOBS) if (typeof config[knob.key] !== 'boolean') problems.push(`${knob.key} must be true or false`);
  if (config.skills.length === 0) problems.push('skills must name at least one skill');
  if (new Set(config.skills).size !== config.skills.length) problems.push('skills must not repeat a skill');
  if (!RUN_SETTINGS.includes(config.setting)) problems.push(`setting must be one of ${RUN_SETTINGS.join(', ')}`);
  const known = skillsOf(RUN_SETTINGS.includes(config.setting) ? config.setting : 'games');
  const unknown = config.skills.filter((s) => !Object.hasOwn(known, s));
  if (unknown.length > 0) problems.push(`unknown skills ${JSON.stringify(unknown)} for the ${config.setting} setting; choose from ${Object.keys(known).join(', ')}`);
  if (!REWARD_VARIANTS.includes(config.reward)) problems.push(`reward must be one of ${REWARD_VARIANTS.join(', ')}`);
  if (!DIFFICULTY_MODES.includes(config.difficulty)) problems.push(`difficulty must be one of ${DIFFICULTY_MODES.join(', ')}`);
  for (const role of ['designer', 'hint', 'agent'] as const) {
    const s = config[role];
    if (!(s.temperature >= 0 && s.temperature <= 2)) problems.push(`${role}.temperature must be in [0, 2]`);
    if (!(s.topP > 0 && s.topP <= 1)) problems.push(`${role}.topP must be in (0, 1]`);
    problems.push(...outOfRange(`${role}.maxTokens`, s.maxTokens, { min: 1, max: 131_072, integer: true }));
  }
  problems.push(...thinkingProblems(config));
  if (typeof config.prompts !== 'object' || config.prompts === null) problems.push('prompts must hold the designer, repair, hint and agent templates');
  else problems.push(...templateProblems(config.prompts));
  return problems;
}
