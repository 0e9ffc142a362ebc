/** Settings the scripted demo's pre-written replies do not change with (its numbers move only through the loop itself). */
export const DEMO_IGNORES = [
  'environment memory',
  'the grounding corpus and document length',
  'the reward variant',
  'the difficulty word',
  'sampling settings (temperature, top-p, tokens)',
  'the prompt templates',
] as const;

/** What the scripted demo does respond to: its playbook, as a labelled scripted learner. */
export const DEMO_LEARNER_NOTE =
  'It does respond to the playbook: it is a labelled scripted learner that plays as if hinted, and wins held-out games, only once its playbook holds a lesson for the game\u2019s skill. That shows what the measurement looks like when learning works; it is an illustration, not evidence that a model learns.';

/** The settings of the learning demo: the playbook on and a held-out evaluation before the first epoch and after every epoch. */
export const LEARNING_DEMO_SETTINGS = { usePlaybook: true, evalEvery: 1 } as const;

/** What the tool-use demo's scripted agent does: it follows the instructions only when the hint is in its first message. */
export const TOOL_USE_DEMO_NOTE =
  'Its designer writes one smart-home task with three instructions revealed one by one. Its agent calls the right tools in order only when the hint is in its first message; without it, it lists the scenes and answers too early, so each environment shows regret 1 and win rate 0. It has no playbook learner.';
