import { RUN_SETTINGS } from '../skills.ts';
import type { KnobRows } from './knob-spec.ts';

/** The run as a whole: its seed and its setting (games or tool use). */
export const RUN_KNOBS = {
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
} satisfies KnobRows;
