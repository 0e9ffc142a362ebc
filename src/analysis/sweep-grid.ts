import { configProblems, DEFAULT_CONFIG, type Config, type DifficultyMode } from '../core/config.ts';
import { DIFFICULTY_MODES, KNOBS, type Knob } from '../core/config-table.ts';
import { REWARD_VARIANTS, type RewardVariant } from '../core/scoring/designer-reward.ts';
import { GAME_SKILLS } from '../core/skills.ts';

/** A mistake in a sweep grid or its seeds; the message says what was expected and what was seen. */
export class SweepGridError extends Error {
  override readonly name = 'SweepGridError';
}

/** One value an axis takes: as written, the config it sets, and the `spade run` flags that set it. */
export interface SweepValue {
  text: string;
  patch: Partial<Config>;
  args: string[];
}

/** One axis of a sweep: the name it was written with (used in cell names), the knob it sets and its values. */
export interface SweepAxis {
  name: string;
  key: keyof Config;
  values: SweepValue[];
}

/** A parsed grid: its axes in the order written. */
export type SweepGrid = SweepAxis[];

/** One cell of a sweep: a value of every axis and a run seed, with a file-safe name and the config patch it makes. */
export interface SweepCell {
  /** e.g. `reward-blend_memory-on_seed-1`. */
  name: string;
  seed: number;
  /** The axis values of the cell, in axis order. */
  values: Array<{ axis: string; value: string }>;
  /** The settings the cell changes, its seed included. */
  patch: Partial<Config>;
  /** The `spade run` flags that make the same changes, seed excluded. */
  args: string[];
}

/** Grid names of on/off knobs besides their keys and flags. */
export const SWEEP_ALIASES: Readonly<Record<string, keyof Config>> = {
  memory: 'useMemory',
  corpus: 'useCorpus',
  playbook: 'usePlaybook',
  repair: 'repairMode',
};

const fold = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, '');

/** The knob a grid key names: an alias, a config key or a command-line flag, not a `no-` one (case and dashes ignored). */
function knobNamed(name: string): Knob {
  const alias = SWEEP_ALIASES[name.toLowerCase()];
  const knob = KNOBS.find(
    (k) => k.key === alias || [k.key, k.flag].some((n) => n !== undefined && fold(n) === fold(name)),
  );
  if (!knob)
    throw new SweepGridError(
      `unknown grid key ${JSON.stringify(name)}; expected a run flag or config key (e.g. reward, slots, plays, difficulty) or ${Object.keys(SWEEP_ALIASES).join(', ')}`,
    );
  if (knob.key === 'seed') throw new SweepGridError('the seed is not a grid key; give the seeds with --seeds 1,2,3');
  return knob;
}

function choice<T extends string>(name: string, text: string, options: readonly T[]): T {
  if (!(options as readonly string[]).includes(text))
    throw new SweepGridError(`${name}=${text}: expected one of ${options.join(', ')}`);
  return text as T;
}

function skillList(name: string, text: string): string[] {
  const byFold = new Map(Object.keys(GAME_SKILLS).map((s) => [fold(s), s]));
  return text.split('+').map((part) => {
    const skill = byFold.get(fold(part));
    if (!skill)
      throw new SweepGridError(
        `${name}=${text}: unknown skill ${JSON.stringify(part.trim())}; choose from ${Object.keys(GAME_SKILLS).join(', ')} (join several with +)`,
      );
    return skill;
  });
}

/** The config change and run flags of one value of a knob's axis. */
function valueOf(name: string, knob: Knob, text: string): Omit<SweepValue, 'text'> {
  if (knob.kind === 'number') {
    if (!(knob.integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(text))
      throw new SweepGridError(`${name}=${text}: expected a ${knob.integer ? 'whole' : 'non-negative'} number`);
    return { patch: { [knob.key]: Number(text) }, args: [`--${knob.flag}`, text] };
  }
  if (knob.kind === 'toggle') {
    const on = choice(name, text, ['on', 'off']) === 'on';
    const flag = on ? knob.flag : knob.negatedFlag;
    return { patch: { [knob.key]: on }, args: flag ? [`--${flag}`] : [] };
  }
  if (knob.key === 'reward')
    return { patch: { reward: choice<RewardVariant>(name, text, REWARD_VARIANTS) }, args: ['--reward', text] };
  if (knob.key === 'difficulty')
    return {
      patch: { difficulty: choice<DifficultyMode>(name, text, DIFFICULTY_MODES) },
      args: ['--difficulty', text],
    };
  if (knob.key === 'skills') {
    const skills = skillList(name, text);
    return { patch: { skills }, args: ['--skills', skills.join(',')] };
  }
  throw new SweepGridError(`${name} cannot be swept: it has no command-line flag`);
}

/** One `key=a,b` part of a grid. */
function parseAxis(part: string): SweepAxis {
  const eq = part.indexOf('=');
  if (eq < 0) throw new SweepGridError(`expected key=value,value in the grid, saw ${JSON.stringify(part)}`);
  const name = part.slice(0, eq).trim();
  const knob = knobNamed(name);
  const texts = part
    .slice(eq + 1)
    .split(',')
    .map((t) => t.trim());
  if (texts.some((t) => t === ''))
    throw new SweepGridError(
      `${name}: expected a comma-separated list of values, saw ${JSON.stringify(part.slice(eq + 1))}`,
    );
  if (new Set(texts).size !== texts.length)
    throw new SweepGridError(`${name}: a value is repeated in ${JSON.stringify(texts.join(','))}`);
  const values = texts.map((text) => {
    const value = { text, ...valueOf(name, knob, text) };
    const problems = configProblems({ ...DEFAULT_CONFIG, ...value.patch });
    if (problems.length > 0) throw new SweepGridError(`${name}=${text}: ${problems.join('; ')}`);
    return value;
  });
  return { name, key: knob.key, values };
}

/**
 * Reads a sweep grid, `key=v1,v2;key=v1,v2`: each key a run knob by its command-line flag or config
 * key (`reward`, `slots`, `plays`, `difficulty`, `eval-every`) or an alias of an on/off knob
 * (`memory`, `corpus`, `playbook`, `repair`, with values on and off); skills are joined with `+`.
 * Every value is checked against the knob's limits. Throws SweepGridError on any mistake.
 */
export function parseSweepGrid(text: string): SweepGrid {
  const parts = text
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  if (parts.length === 0)
    throw new SweepGridError('the grid is empty; expected e.g. reward=blend,regret;memory=on,off');
  const grid = parts.map(parseAxis);
  const keys = grid.map((axis) => axis.key);
  const repeated = grid.find((axis, i) => keys.indexOf(axis.key) !== i);
  if (repeated) throw new SweepGridError(`${repeated.name}: the grid sets ${repeated.key} twice`);
  return grid;
}

const fileSafe = (text: string) => text.replace(/[^A-Za-z0-9.-]+/g, '-');

/**
 * The cells of a sweep: every combination of the axes' values (the first axis changing slowest)
 * times every seed (innermost). Without a `hint-plays` axis, a `plays` value sets the hinted plays
 * too, as `spade run --plays` does.
 */
export function sweepCells(grid: SweepGrid, seeds: readonly number[]): SweepCell[] {
  if (seeds.length === 0) throw new SweepGridError('expected at least one seed');
  for (const seed of seeds)
    if (!Number.isSafeInteger(seed) || seed < 0)
      throw new SweepGridError(`expected seeds that are non-negative integers, saw ${seed}`);
  if (new Set(seeds).size !== seeds.length) throw new SweepGridError(`a seed is repeated in ${seeds.join(',')}`);
  const followsPlays = !grid.some((axis) => axis.key === 'hintPlays');
  let combos: Array<Array<{ axis: SweepAxis; value: SweepValue }>> = [[]];
  for (const axis of grid) combos = combos.flatMap((combo) => axis.values.map((value) => [...combo, { axis, value }]));
  const cells = combos.flatMap((combo) =>
    seeds.map((seed): SweepCell => {
      const patch: Partial<Config> = Object.assign({}, ...combo.map(({ value }) => value.patch), { seed });
      if (followsPlays && patch.playsPerArm !== undefined) patch.hintPlays = patch.playsPerArm;
      return {
        name: [
          ...combo.map(({ axis, value }) => `${fileSafe(axis.name)}-${fileSafe(value.text)}`),
          `seed-${seed}`,
        ].join('_'),
        seed,
        values: combo.map(({ axis, value }) => ({ axis: axis.name, value: value.text })),
        patch,
        args: combo.flatMap(({ value }) => value.args),
      };
    }),
  );
  const names = cells.map((c) => c.name);
  const clash = names.find((name, i) => names.indexOf(name) !== i);
  if (clash)
    throw new SweepGridError(
      `two cells would share the directory ${clash}; write the values so they differ in letters or digits`,
    );
  return cells;
}
