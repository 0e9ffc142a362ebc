import { FORMULAS } from './formulas.ts';

/** One step of the guided tour: the live-view part it points at (its `data-tour` name) and what to say. */
export interface TourStep {
  target: string;
  title: string;
  text: string;
}

/** The tour over the live view, in the order an epoch shows its parts. */
export const TOUR_STEPS: readonly TourStep[] = [
  {
    target: 'timeline',
    title: "The epoch's stages",
    text: 'Design, hint, play, score, remember: the highlighted box is the stage the run is in now.',
  },
  {
    target: 'slot',
    title: 'A slot',
    text: 'Each slot is one environment the designer writes for one skill; its code streams in as the model writes it.',
  },
  {
    target: 'validation',
    title: 'Validation',
    text: 'The sandbox loads the code, probes reset and step with test actions, and checks that the same seed gives the same first observation. A failure names its stage, and the designer tries again.',
  },
  {
    target: 'hint',
    title: 'The hint',
    text: 'The same model reads the valid code and writes a short hint: the key insight and the answer format, never the answer.',
  },
  {
    target: 'arm-nohint',
    title: 'Plays without the hint',
    text: 'The agent plays K fresh instances on K seeds. These unhinted plays form the GRPO group: they are what the agent would be trained on.',
  },
  {
    target: 'arm-hint',
    title: 'Plays with the hint',
    text: 'The same seeds again, with the hint appended to the first observation. They only measure how much the hint helps.',
  },
  { target: 'regret', title: 'Regret', text: FORMULAS.regret },
  {
    target: 'score',
    title: 'The score card',
    text: "Win rate and its plateau, the run's designer reward and the advantages GRPO would train on, each next to its formula. Focus a term to read its definition.",
  },
  {
    target: 'memory',
    title: 'Remember',
    text: "After the epoch, each valid environment's win rate and regret go to the designer's memory. This list shows what each slot's designer will see next epoch.",
  },
];
