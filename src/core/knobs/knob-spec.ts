import type { Config } from './config-interface.ts';

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
export type SpecOf<T> = [T] extends [number]
  ? NumberKnobSpec
  : [T] extends [boolean]
    ? ToggleKnobSpec
    : ValueKnobSpec<T>;

/** The whole table's type: one row per field of Config. */
export type ConfigTable = { readonly [K in keyof Config]: SpecOf<Config[K]> };

/** Some rows of the table, as one group's file holds them. */
export type KnobRows = Partial<ConfigTable>;

/** A row of the table with its key. */
export type Knob = { [K in keyof Config]: SpecOf<Config[K]> & { key: K } }[keyof Config];

/** A numeric knob's row with its key. */
export type NumberKnob = Extract<Knob, { kind: 'number' }>;

/** An on/off knob's row with its key. */
export type ToggleKnob = Extract<Knob, { kind: 'toggle' }>;
