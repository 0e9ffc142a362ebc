import type { PromptTemplates } from '../prompts/templates.ts';
import type { RewardVariant } from '../scoring/designer-reward.ts';
import type { RunSetting } from '../skills.ts';
import type { ThinkingMode, ThinkingRole } from '../thinking.ts';

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

/** Every knob of a run; what each means, its unit, default, limits, flag and form field: its row in CONFIG_TABLE (src/core/config-table.ts). */
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
   * The reference's game wrapper, at reset and step: a reset return is converted before it is checked (a
   * tuple whose len() is 2 as (observation, info), a str as the observation, anything else by str(); the
   * observation as format() writes it, an empty one too; the info through the reference's numeric filter),
   * and so is a 5-tuple step return (the observation by str(), None as "No observation"; the reward by
   * float(), None as 0; the flags by bool(), None as False; a non-dict info as {}), and NaN and rewards
   * beyond ±10 pass (off: the tab's strict contract refuses each; docs/method.md section 5, "Odd reset
   * returns" and "Odd step returns").
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
