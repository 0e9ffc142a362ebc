import { DEFAULT_TEMPLATES, type PromptTemplates } from './prompts/templates.ts';
import { REWARD_VARIANTS, type RewardVariant } from './scoring/designer-reward.ts';
import { GAME_SKILLS, RUN_SETTINGS, type RunSetting } from './skills.ts';
import { THINKING_MODES, UNSET_THINKING, UNSET_THINKING_BUDGET, type ThinkingMode, type ThinkingRole } from './thinking.ts';

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

/** Every knob of a run; what each means, its unit, default, limits, flag and form field: its row in CONFIG_TABLE below. */
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
   * The reference's step wrapper: a 5-tuple step return is converted before it is checked (the observation by
   * str(), None as "No observation"; the reward by float(), None as 0; the flags by bool(), None as False; a
   * non-dict info as {}), and NaN and rewards beyond ±10 pass (off: the tab's strict contract refuses each;
   * docs/method.md section 5, "Odd step returns").
   */
  coerceStepReturns: boolean;
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

/** The difficulty policies a run may use, the `difficulty` knob's values. */
export const DIFFICULTY_MODES: readonly DifficultyMode[] = ['adaptive', 'easy', 'medium', 'hard'];

/** The part of a run a knob belongs to; the new-run form shows one box per group. */
export type KnobGroup = 'run' | 'design' | 'play' | 'learning' | 'grounding' | 'sandbox' | 'models';

/** Each group's title in the new-run form. */
export const KNOB_GROUPS: Readonly<Record<KnobGroup, string>> = {
  run: 'Run',
  design: 'Design',
  play: 'Play',
  learning: 'Playbook and held-out evaluation (tab additions)',
  grounding: 'Grounding and memory',
  sandbox: 'Sandbox limits',
  models: 'Models and prompts',
};

/** What every row says. */
interface KnobBase<T> {
  /** What the knob does, with its unit. */
  doc: string;
  group: KnobGroup;
  /** The tab default. */
  default: T;
  /** SPADE's own value, which the reference preset sets (absent: the preset leaves the knob alone). */
  reference?: T;
}

/** A numeric knob: its limits, its command-line flag and its form field. */
export interface NumberKnobSpec extends KnobBase<number> {
  kind: 'number';
  min: number;
  max: number;
  /** Whole numbers only. */
  integer: boolean;
  /** Command-line flag, without the dashes. */
  flag: string;
  /** The flag's value in the usage text, e.g. `N`. */
  flagValue: string;
  /** Form label. */
  label: string;
  /** Form help, one clause without the final period (the form adds SPADE's value). */
  help: string;
}

/** An on/off knob: its command-line flags (at least one) and its form switch. */
export interface ToggleKnobSpec extends KnobBase<boolean> {
  kind: 'toggle';
  /** Command-line flag that turns it on, without the dashes. */
  flag?: string;
  /** Command-line flag that turns it off, without the dashes. */
  negatedFlag?: string;
  /** Form label. */
  label: string;
  /** Form help, one clause without the final period. */
  help: string;
}

/** Any other knob (a list, a choice, a sampling setting, the prompts): checked, parsed and edited by hand. */
export interface ValueKnobSpec<T> extends KnobBase<T> {
  kind: 'value';
  /** Command-line flag, without the dashes, when there is one. */
  flag?: string;
  /** The flag's value in the usage text. */
  flagValue?: string;
  /** Form label, when the form has a control of its own for it. */
  label?: string;
  /** Form help of that control, one clause without the final period. */
  help?: string;
}

/** The row type of a knob holding values of type T. */
type SpecOf<T> = [T] extends [number] ? NumberKnobSpec : [T] extends [boolean] ? ToggleKnobSpec : ValueKnobSpec<T>;

/** Every knob of a run, one row each, in the order a config lists them (and its files record them). */
export const CONFIG_TABLE: { readonly [K in keyof Config]: SpecOf<Config[K]> } = {
  seed: {
    kind: 'number',
    group: 'run',
    doc: 'Run seed, an integer: every slot, document, memory sample, play seed and model seed derives from it.',
    default: 1,
    min: 0,
    max: Number.MAX_SAFE_INTEGER,
    integer: true,
    flag: 'seed',
    flagValue: 'S',
    label: 'Seed',
    help: 'Every document choice, memory sample, play seed and model seed derives from it',
  },
  setting: {
    kind: 'value',
    group: 'run',
    doc: "What the run trains, one of RUN_SETTINGS: SPADE's cognitive games or its multi-turn tool use (tools against a mocked backend, instructions revealed one by one).",
    default: 'games',
    flag: 'setting',
    flagValue: RUN_SETTINGS.join('|'),
    label: 'Setting',
    help: 'Cognitive games, or multi-turn tool use in one of ten everyday domains; the skills follow the setting',
  },
  skills: {
    kind: 'value',
    group: 'design',
    doc: "Configured skills, names from the setting's skills (GAME_SKILLS or TOOL_USE_SKILLS); each epoch activates `skillsPerEpoch` of them in rotation.",
    default: Object.keys(GAME_SKILLS),
    reference: Object.keys(GAME_SKILLS),
    flag: 'skills',
    flagValue: 'a,b',
  },
  skillsPerEpoch: {
    kind: 'number',
    group: 'design',
    doc: 'Skills active per epoch, rotating through `skills` (all of them when it is at least their number); each gets slotsPerEpoch / skillsPerEpoch slots.',
    default: 2,
    reference: 3,
    min: 1,
    max: Object.keys(GAME_SKILLS).length,
    integer: true,
    flag: 'skills-per-epoch',
    flagValue: 'N',
    label: 'Skills per epoch',
    help: 'Active skills each epoch, rotating; each gets slots / this many slots, so designs of a skill can be compared',
  },
  restartSkillCycle: {
    kind: 'toggle',
    group: 'design',
    doc: "With every skill active, start each epoch's round-robin of slots at the first skill, as the reference does; off: continue where the previous epoch stopped, so fewer slots than skills still reach every skill over the epochs.",
    default: false,
    reference: true,
    flag: 'restart-skill-cycle',
    negatedFlag: 'continue-skill-cycle',
    label: 'Restart the skill cycle each epoch',
    help: 'With every skill active, each epoch starts its slots at the first skill (the reference) instead of where the last epoch stopped',
  },
  slotsPerEpoch: {
    kind: 'number',
    group: 'design',
    doc: 'Environment slots designed per epoch, in environments.',
    default: 4,
    reference: 24,
    min: 1,
    max: 256,
    integer: true,
    flag: 'slots',
    flagValue: 'N',
    label: 'Slots per epoch',
    help: 'Environments designed each epoch',
  },
  attemptsPerSlot: {
    kind: 'number',
    group: 'design',
    doc: 'Design attempts per slot before the slot gives up, in designer replies.',
    default: 3,
    reference: 5,
    min: 1,
    max: 20,
    integer: true,
    flag: 'attempts',
    flagValue: 'N',
    label: 'Attempts per slot',
    help: 'Designs tried before a slot gives up',
  },
  repairMode: {
    kind: 'toggle',
    group: 'design',
    doc: 'Feed the first validation error back once and ask for a fixed version.',
    default: false,
    flag: 'repair',
    label: 'Repair mode',
    help: 'Feed the first validation error back once and ask for a fix',
  },
  solvabilityJudge: {
    kind: 'toggle',
    group: 'design',
    doc: 'Tool use only: after validation, ask the same model whether the environment can be solved (\\boxed{yes|no}; a reply without a verdict accepts) and reject a no.',
    default: false,
    flag: 'solvability-judge',
    label: 'Solvability judge (tool use)',
    help: 'Tool use only: the same model audits each valid design and a \\boxed{no} rejects it',
  },
  playsPerArm: {
    kind: 'number',
    group: 'play',
    doc: 'Unhinted plays per environment in each rollout (K), in episodes.',
    default: 4,
    reference: 8,
    min: 1,
    max: 64,
    integer: true,
    flag: 'plays',
    flagValue: 'K',
    label: 'Unhinted plays per rollout (K)',
    help: 'Plays without the hint, per rollout; the agent trains on these',
  },
  hintPlays: {
    kind: 'number',
    group: 'play',
    doc: 'Hinted plays per environment in the first rollout, on the first seeds of the unhinted ones, in episodes.',
    default: 4,
    reference: 16,
    min: 1,
    max: 64,
    integer: true,
    flag: 'hint-plays',
    flagValue: 'H',
    label: 'Hinted plays',
    help: 'Plays with the hint in the first rollout, on the first unhinted seeds; they only measure the hint',
  },
  rolloutsPerEpoch: {
    kind: 'number',
    group: 'play',
    doc: 'Rollouts per epoch (R); rollouts after the first add unhinted plays that the win rate also counts.',
    default: 1,
    reference: 4,
    min: 1,
    max: 16,
    integer: true,
    flag: 'rollouts',
    flagValue: 'R',
    label: 'Rollouts per epoch (R)',
    help: 'Later rollouts add unhinted plays to the win-rate window',
  },
  maxTurns: {
    kind: 'number',
    group: 'play',
    doc: 'Turn cap of an episode, in agent turns.',
    default: 12,
    reference: 25,
    min: 1,
    max: 200,
    integer: true,
    flag: 'max-turns',
    flagValue: 'N',
    label: 'Turn cap',
    help: 'Most agent turns per episode',
  },
  replyAids: {
    kind: 'toggle',
    group: 'play',
    doc: "Small-model reply aids: the last box of a reply's visible text with LaTeX wrappers unwrapped, lenient tool-call JSON, a pending tool call before an answer, hints cut only at sentence ends, and designs read from any python fence with `<think>` removed (off: the reference's rules, method.md section 5).",
    default: true,
    reference: false,
    flag: 'reply-aids',
    negatedFlag: 'no-reply-aids',
    label: 'Reply aids for small models',
    help: "Read the agent's last box, lenient tool calls and whole-sentence hints (off = the reference's parsing rules)",
  },
  crashesLose: {
    kind: 'toggle',
    group: 'play',
    doc: "The reference's failure rule: an exception or a refused return inside the environment's step ends the play with a kept return of -1 (hinted plays too), a failed reset plays on from an error observation, and only a hang in rollout 0 costs the designer the regret reward's -0.5 (off: such a play fails, is retried once and dropped, a hinted one scores 0; docs/method.md section 1).",
    default: false,
    reference: true,
    flag: 'crashes-lose',
    negatedFlag: 'no-crashes-lose',
    label: 'Crashes count as losses',
    help: "A step that raises or returns a bad value ends the play at -1 instead of dropping it (the reference's rule)",
  },
  coerceStepReturns: {
    kind: 'toggle',
    group: 'play',
    doc: 'The reference\'s step wrapper: a 5-tuple step return is converted before it is checked (the observation by str(), None as "No observation"; the reward by float(), None as 0; the flags by bool(), None as False; a non-dict info as {}), and NaN and rewards beyond ±10 pass (off: the tab\'s strict contract refuses each; docs/method.md section 5, "Odd step returns").',
    default: false,
    reference: true,
    flag: 'coerce-step-returns',
    negatedFlag: 'no-coerce-step-returns',
    label: 'Convert odd step returns',
    help: "Read a step's odd values as the reference does (str, float, bool, {} for a bad info) instead of refusing them",
  },
  freeToolCalls: {
    kind: 'toggle',
    group: 'play',
    doc: "The reference's tool-use turns: every tool call of a reply runs through execute_tool and costs no environment step; only answers and call-less replies go through step, and the run's turn cap bounds the replies (off: each reply is one step, its first call only).",
    default: false,
    reference: true,
    flag: 'free-tool-calls',
    negatedFlag: 'no-free-tool-calls',
    label: 'Tool calls cost no step',
    help: 'Run every call of a reply through execute_tool outside step, as the reference does; off = one reply, one step',
  },
  toolUseMasks: {
    kind: 'toggle',
    group: 'play',
    doc: "The reference's tool-use training masks: an agent row of a tool-use run whose episode did not terminate (truncated or out of turns) has weight 0 on every reply (it stays in its group's mean), and a reply whose <tool_call> could not be read has weight 0 and its feedback a [FORMAT] line.",
    default: true,
    reference: true,
    flag: 'tool-use-masks',
    negatedFlag: 'no-tool-use-masks',
    label: 'Mask unfinished tool-use rows',
    help: 'Unfinished tool-use episodes and unreadable tool calls train nothing (weight 0), as in the reference',
  },
  toolBaseAids: {
    kind: 'toggle',
    group: 'play',
    doc: "Tool-use designs get the tab's aided ToolUseBaseEnv: default `_user_messages`, `_message_criteria`, `_current_msg` and `_advance_if_done`, lenient call JSON, a done-closing answer check and its own feedback texts (off: the reference's base class exactly, method.md section 6).",
    default: true,
    reference: false,
    flag: 'tool-base-aids',
    negatedFlag: 'no-tool-base-aids',
    label: 'Aided tool-use base class',
    help: "Designs may lean on the tab's multi-turn defaults and helpers (off = the reference's ToolUseBaseEnv, where a design writes them itself)",
  },
  extraToolChecks: {
    kind: 'toggle',
    group: 'design',
    doc: "Validate tool-use designs with the tab's extra checks: the first instruction and one criterion per instruction, the malformed-action, unknown-tool and wrong-argument probes, a criterion already true at every reset seed, and the reset gate in every epoch and setting (off: the reference's, the gate rejecting only criteria that raise at every seed, in tool-use runs from the second epoch on; method.md section 6).",
    default: true,
    reference: false,
    flag: 'extra-tool-checks',
    negatedFlag: 'no-extra-tool-checks',
    label: 'Extra tool-use checks',
    help: "Reject tool-use designs the reference would keep: a misplaced first instruction, a criteria count mismatch, a failed tool probe, a criterion true at reset (off = the reference's checks)",
  },
  reward: {
    kind: 'value',
    group: 'design',
    doc: 'Designer reward variant, one of REWARD_VARIANTS (the paper uses blend).',
    default: 'blend',
    flag: 'reward',
    flagValue: REWARD_VARIANTS.join('|'),
  },
  designer: { kind: 'value', group: 'models', doc: 'Designer sampling: temperature, top-p and most tokens per reply (SPADE: 0.6 / 0.95).', default: { temperature: 0.6, topP: 0.95, maxTokens: 4096 } },
  hint: { kind: 'value', group: 'models', doc: 'Hint sampling: temperature, top-p and most tokens per reply (SPADE: 0.3).', default: { temperature: 0.3, topP: 0.95, maxTokens: 256 } },
  agent: { kind: 'value', group: 'models', doc: 'Agent sampling: temperature, top-p and most tokens per reply (SPADE: 0.6).', default: { temperature: 0.6, topP: 0.95, maxTokens: 1024 } },
  thinking: {
    kind: 'value',
    group: 'models',
    doc: "Thinking per role (the designer's covers its repairs and the solvability judge): on asks the model to think, off turns thinking off (Qwen3's enable_thinking), default sends nothing and leaves the model's own; the tab turns it off for every role, so a small model's replies fit a 4k window (docs/method.md section 5).",
    default: { designer: 'off', hint: 'off', agent: 'off', lesson: 'off' },
    reference: { ...UNSET_THINKING },
    flag: 'thinking',
    flagValue: `[ROLE=]${THINKING_MODES.join('|')},..`,
    label: 'Thinking',
    help: "Per role: on, off, or the model's default (Qwen3 thinks by default); off keeps short replies whole in a small window",
  },
  thinkingBudget: {
    kind: 'value',
    group: 'models',
    doc: 'Thinking budget per role, in tokens: a role that may think (on or default) gets its reply budget plus this much, and a reply cut by that limit inside an unclosed <think> is asked once more with thinking off; 0: thinking spends the reply budget and a cut reply stays as it is, as in the reference.',
    default: { designer: 2048, hint: 1024, agent: 1024, lesson: 1024 },
    reference: { ...UNSET_THINKING_BUDGET },
    flag: 'thinking-budget',
    flagValue: '[ROLE=]N,..',
    label: 'Thinking budget (tokens)',
    help: "Per role: tokens a thought may use on top of the reply's; a thought cut at this limit is asked again without thinking; 0 = thinking shares the reply's tokens",
  },
  constrainAgent: {
    kind: 'toggle',
    group: 'models',
    doc: "Constrain the agent's replies with a grammar (a tab addition): a game reply is short reasoning then exactly one \\boxed{...}, a tool-use reply one call to a listed tool or one <answer>; only with a model that honours grammars (others play unconstrained and the run says so).",
    default: false,
    reference: false,
    flag: 'constrain-agent',
    label: 'Constrained agent replies',
    help: 'Grammar-constrained decoding of the agent: one boxed action, or one well-formed tool call or answer, per reply; the CPU and WebGPU models honour it, other models play unconstrained (a tab addition)',
  },
  concurrency: {
    kind: 'number',
    group: 'models',
    doc: 'Most units of work (a slot design, a hint, a play) running at once, in units; bounded by what the model can take (one for WebGPU and CPU models); results are the same at any value.',
    default: 16,
    min: 1,
    max: 128,
    integer: true,
    flag: 'concurrency',
    flagValue: 'N',
    label: 'Concurrent requests',
    help: 'Designs, hints and plays run at once against a server that serves several requests (WebGPU and CPU models take one at a time); the results do not depend on it',
  },
  usePlaybook: {
    kind: 'toggle',
    group: 'learning',
    doc: "Keep the agent's playbook: lessons learned where the hint won and the agent alone lost, shown in agent prompts (a tab addition; off: the no-playbook ablation).",
    default: false,
    flag: 'playbook',
    negatedFlag: 'no-playbook',
    label: "Agent's playbook",
    help: 'Learn one lesson per skill where the hint won and the agent alone lost, and show the best in agent prompts (a tab addition, not in the paper)',
  },
  playbookSize: {
    kind: 'number',
    group: 'learning',
    doc: "Lessons shown per agent prompt, at most, from the prompt's skill, in lessons.",
    default: 3,
    min: 1,
    max: 8,
    integer: true,
    flag: 'playbook-size',
    flagValue: 'N',
    label: 'Lessons shown per prompt',
    help: 'The best lessons of the skill shown before each game',
  },
  evalEvery: {
    kind: 'number',
    group: 'learning',
    doc: 'Evaluate the agent on the held-out suite before the first epoch and after every N epochs, in epochs (0: only on demand).',
    default: 0,
    min: 0,
    max: 10_000,
    integer: true,
    flag: 'eval-every',
    flagValue: 'N',
    label: 'Evaluate every N epochs',
    help: 'Unhinted plays of every held-out environment before the first epoch and after every N; 0 = only on demand',
  },
  evalSeeds: {
    kind: 'number',
    group: 'learning',
    doc: 'Plays of each held-out environment per evaluation, each on its own fixed seed, in episodes.',
    default: 2,
    min: 1,
    max: 32,
    integer: true,
    flag: 'eval-seeds',
    flagValue: 'N',
    label: 'Seeds per held-out environment',
    help: 'Plays of each held-out environment per evaluation, on the same fixed seeds in every run',
  },
  corpusWordBudget: {
    kind: 'number',
    group: 'grounding',
    doc: 'Length of the grounding document shown to the designer, in words.',
    default: 800,
    reference: 6000,
    min: 1,
    max: 20_000,
    integer: true,
    flag: 'corpus-words',
    flagValue: 'N',
    label: 'Document words',
    help: 'Words of the grounding document shown to the designer',
  },
  useCorpus: {
    kind: 'toggle',
    group: 'grounding',
    doc: 'Ground designs in corpus documents (off: the no-corpus ablation).',
    default: true,
    negatedFlag: 'no-corpus',
    label: 'Ground in the corpus',
    help: 'Off = the "no grounding corpus" ablation',
  },
  useMemory: {
    kind: 'toggle',
    group: 'grounding',
    doc: 'Show environment memory to the designer (off: the no-memory ablation).',
    default: true,
    negatedFlag: 'no-memory',
    label: 'Environment memory',
    help: 'Off = the "no memory" ablation',
  },
  difficulty: {
    kind: 'value',
    group: 'design',
    doc: "Difficulty word policy; `adaptive` follows the skill's remembered win rates.",
    default: 'adaptive',
    reference: 'medium',
    flag: 'difficulty',
    flagValue: DIFFICULTY_MODES.join('|'),
  },
  validateTimeoutMs: {
    kind: 'number',
    group: 'sandbox',
    doc: 'Budget for validating one environment, in milliseconds.',
    default: 5000,
    reference: 60_000,
    min: 100,
    max: 60_000,
    integer: false,
    flag: 'validate-timeout-ms',
    flagValue: 'MS',
    label: 'Validation budget (ms)',
    help: 'Hard limit for validating one environment',
  },
  stepTimeoutMs: {
    kind: 'number',
    group: 'sandbox',
    doc: 'Limit for one reset or step, in milliseconds.',
    default: 2000,
    reference: 30_000,
    min: 50,
    max: 30_000,
    integer: false,
    flag: 'step-timeout-ms',
    flagValue: 'MS',
    label: 'Step limit (ms)',
    help: 'Hard limit for one reset or step; a hang is killed',
  },
  prompts: { kind: 'value', group: 'models', doc: 'The prompt templates of the run (recorded with it; editable per run).', default: DEFAULT_TEMPLATES },
};

/** A row of the table with its key. */
export type Knob = { [K in keyof Config]: SpecOf<Config[K]> & { key: K } }[keyof Config];

/** A numeric knob's row with its key. */
export type NumberKnob = Extract<Knob, { kind: 'number' }>;

/** An on/off knob's row with its key. */
export type ToggleKnob = Extract<Knob, { kind: 'toggle' }>;

/** Every row with its key, in table order. */
export const KNOBS: readonly Knob[] = (Object.keys(CONFIG_TABLE) as Array<keyof Config>).map((key) => ({ ...CONFIG_TABLE[key], key }) as Knob);

/** The numeric knobs, in table order. */
export const NUMBER_KNOBS: readonly NumberKnob[] = KNOBS.filter((knob): knob is NumberKnob => knob.kind === 'number');

/** The on/off knobs, in table order. */
export const TOGGLE_KNOBS: readonly ToggleKnob[] = KNOBS.filter((knob): knob is ToggleKnob => knob.kind === 'toggle');
