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
