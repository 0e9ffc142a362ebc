import { DIFFICULTY_MODES } from './config-interface.ts';
import type { KnobRows } from './knob-spec.ts';

/** What the designer is shown: the grounding document, the environment memory and the difficulty word. */
export const GROUNDING_KNOBS = {
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
} satisfies KnobRows;
