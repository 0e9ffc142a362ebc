import { DEFAULT_TEMPLATES } from './prompts/templates.ts';
import type { Config } from './knobs/config-interface.ts';
import { DESIGN_KNOBS } from './knobs/design-knobs.ts';
import { GROUNDING_KNOBS } from './knobs/grounding-knobs.ts';
import type { ConfigTable, Knob, NumberKnob, ToggleKnob } from './knobs/knob-spec.ts';
import { LEARNING_KNOBS } from './knobs/learning-knobs.ts';
import { MODEL_KNOBS } from './knobs/model-knobs.ts';
import { PLAY_KNOBS } from './knobs/play-knobs.ts';
import { RULE_KNOBS } from './knobs/rule-knobs.ts';
import { RUN_KNOBS } from './knobs/run-knobs.ts';
import { SANDBOX_KNOBS } from './knobs/sandbox-knobs.ts';

export { DIFFICULTY_MODES, type Config, type DifficultyMode, type SamplingConfig } from './knobs/config-interface.ts';
export {
  KNOB_GROUPS,
  type Knob,
  type KnobGroup,
  type NumberKnob,
  type NumberKnobSpec,
  type ToggleKnob,
  type ToggleKnobSpec,
  type ValueKnobSpec,
} from './knobs/knob-spec.ts';

/**
 * Every knob of a run, one row each, in the order a config lists them (and its files record them):
 * the groups' rows (src/core/knobs/) in that order, then the prompts.
 */
export const CONFIG_TABLE: ConfigTable = {
  ...RUN_KNOBS,
  ...DESIGN_KNOBS,
  ...PLAY_KNOBS,
  ...RULE_KNOBS,
  ...MODEL_KNOBS,
  ...LEARNING_KNOBS,
  ...GROUNDING_KNOBS,
  ...SANDBOX_KNOBS,
  prompts: {
    kind: 'value',
    group: 'models',
    doc: 'The prompt templates of the run (recorded with it; editable per run).',
    default: DEFAULT_TEMPLATES,
  },
};

/** Every row with its key, in table order. */
export const KNOBS: readonly Knob[] = (Object.keys(CONFIG_TABLE) as Array<keyof Config>).map(
  (key) => ({ ...CONFIG_TABLE[key], key }) as Knob,
);

/** The numeric knobs, in table order. */
export const NUMBER_KNOBS: readonly NumberKnob[] = KNOBS.filter((knob): knob is NumberKnob => knob.kind === 'number');

/** The on/off knobs, in table order. */
export const TOGGLE_KNOBS: readonly ToggleKnob[] = KNOBS.filter((knob): knob is ToggleKnob => knob.kind === 'toggle');
