// Which of a run's settings differ from the reference preset's, and which of those differences a
// recomputation from the run's files can price (docs/method.md section 5, "What it cost your run").
import { withPreset, type Config } from '../config.ts';

/**
 * How a difference is handled: `recomputed` from the stored plays, `replay` when only a new run
 * could show it (it changes what was designed, played or read), `inactive` when the knob has no
 * effect in the run's setting.
 */
export type RuleStatus = 'recomputed' | 'replay' | 'inactive';

/** One knob whose value in the run differs from the reference preset's, and how it is handled. */
export interface RuleDifference {
  knob: keyof Config;
  run: unknown;
  reference: unknown;
  status: RuleStatus;
  /** What is recomputed, or why it cannot be. */
  why: string;
}

/** The knobs a recomputation from the run files can switch to the reference's value. */
export const RECOMPUTABLE_KNOBS = ['crashesLose', 'toolUseMasks'] as const;

/** A knob the recomputation switches. */
export type RecomputableKnob = (typeof RECOMPUTABLE_KNOBS)[number];

const TOOL_USE_ONLY: ReadonlySet<keyof Config> = new Set([
  'freeToolCalls',
  'toolUseMasks',
  'toolBaseAids',
  'extraToolChecks',
]);

const RECOMPUTED_WHY: Readonly<Record<RecomputableKnob, string>> = {
  crashesLose:
    'a play whose step crashed becomes a kept -1 in either arm and its retry is left out; a hang penalises only in rollout 0; a play whose reset failed would have played on from the error observation, which needs new replies, so it is left as it ran',
  toolUseMasks:
    "each agent row's reply weights: 0 on every reply of an unterminated episode and on each unreadable <tool_call> (read again from the stored reply); the [FORMAT] line the next observation would carry needs new replies",
};

const REPLAY_WHY: Partial<Readonly<Record<keyof Config, string>>> = {
  skills: 'which skills the designer writes for',
  skillsPerEpoch: 'which skills each epoch designs for',
  restartSkillCycle: 'which skill each slot designs for',
  slotsPerEpoch: 'how many environments are designed',
  attemptsPerSlot: 'how many designs are tried per slot',
  playsPerArm: 'how many plays each rollout has',
  hintPlays: 'how many hinted plays there are',
  rolloutsPerEpoch: 'how many rollouts are played',
  maxTurns: 'how long a play may run (a truncated play might have ended otherwise)',
  replyAids: 'how replies are read into actions, hints and code',
  freeToolCalls: 'whether a tool call costs a step and how many calls of a reply run',
  toolBaseAids: 'the base class the designs run on',
  extraToolChecks: 'which designs validation keeps',
  thinking: 'what the model writes',
  thinkingBudget: 'what the model writes',
  constrainAgent: 'what the agent writes',
  corpusWordBudget: 'what the designer reads',
  difficulty: 'the difficulty word the designer reads',
  validateTimeoutMs: 'which designs validation keeps',
  stepTimeoutMs: 'which plays hang',
  coerceStepReturns: 'what an odd reset or step return counts as, and whether its play went on',
};

const isRecomputable = (knob: keyof Config): knob is RecomputableKnob =>
  (RECOMPUTABLE_KNOBS as readonly string[]).includes(knob);

function handling(knob: keyof Config, config: Config): Pick<RuleDifference, 'status' | 'why'> {
  if (TOOL_USE_ONLY.has(knob) && config.setting !== 'tool_use')
    return { status: 'inactive', why: 'a tool-use setting only; this run plays games' };
  if (isRecomputable(knob)) return { status: 'recomputed', why: RECOMPUTED_WHY[knob] };
  return { status: 'replay', why: `changes ${REPLAY_WHY[knob] ?? 'what the run designed or played'}` };
}

/** Every knob of `config` whose value differs from the reference preset for the run's setting, in config order. */
export function ruleDifferences(config: Config): RuleDifference[] {
  const reference = withPreset(config, 'reference');
  return (Object.keys(config) as (keyof Config)[])
    .filter((knob) => JSON.stringify(config[knob]) !== JSON.stringify(reference[knob]))
    .map((knob) => ({ knob, run: config[knob], reference: reference[knob], ...handling(knob, config) }));
}
