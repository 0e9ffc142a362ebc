import type { Config } from '../core/config.ts';

/** A numeric setting of a new run, with its one-line documentation. */
export interface NumberField {
  key: 'seed' | 'slotsPerEpoch' | 'skillsPerEpoch' | 'attemptsPerSlot' | 'playsPerArm' | 'hintPlays' | 'rolloutsPerEpoch' | 'maxTurns' | 'corpusWordBudget' | 'validateTimeoutMs' | 'stepTimeoutMs';
  label: string;
  help: string;
  min: number;
  max: number;
}

/** The numeric settings the new-run form shows. */
export const NUMBER_FIELDS: readonly NumberField[] = [
  { key: 'seed', label: 'Seed', help: 'Every document choice, memory sample, play seed and model seed derives from it.', min: 0, max: 2_147_483_647 },
  { key: 'slotsPerEpoch', label: 'Slots per epoch', help: 'Environments designed each epoch (the paper: 24).', min: 1, max: 64 },
  { key: 'skillsPerEpoch', label: 'Skills per epoch', help: 'Active skills each epoch, rotating; each gets slots / this many slots, so designs of a skill can be compared (the paper: 3 of 6).', min: 1, max: 6 },
  { key: 'attemptsPerSlot', label: 'Attempts per slot', help: 'Designs tried before a slot gives up (the paper: 5).', min: 1, max: 10 },
  { key: 'playsPerArm', label: 'Unhinted plays per rollout (K)', help: 'Plays without the hint, per rollout; the agent trains on these (the paper: 8).', min: 1, max: 32 },
  { key: 'hintPlays', label: 'Hinted plays', help: 'Plays with the hint in the first rollout, on the first unhinted seeds; they only measure the hint (the paper: 16).', min: 1, max: 32 },
  { key: 'rolloutsPerEpoch', label: 'Rollouts per epoch (R)', help: 'Later rollouts add unhinted plays to the win-rate window.', min: 1, max: 8 },
  { key: 'maxTurns', label: 'Turn cap', help: 'Most agent turns per episode (the paper: 25).', min: 1, max: 50 },
  { key: 'corpusWordBudget', label: 'Document words', help: 'Words of the grounding document shown to the designer.', min: 50, max: 6000 },
  { key: 'validateTimeoutMs', label: 'Validation budget (ms)', help: 'Hard limit for validating one environment.', min: 100, max: 60_000 },
  { key: 'stepTimeoutMs', label: 'Step limit (ms)', help: 'Hard limit for one reset or step; a hang is killed.', min: 50, max: 30_000 },
];

/** A switch of a new run, with its one-line documentation. */
export interface ToggleField {
  key: 'repairMode' | 'useMemory' | 'useCorpus';
  label: string;
  help: string;
}

/** The on/off settings (the ablations that make sense without weight updates). */
export const TOGGLE_FIELDS: readonly ToggleField[] = [
  { key: 'useCorpus', label: 'Ground in the corpus', help: 'Off = the "no grounding corpus" ablation.' },
  { key: 'useMemory', label: 'Environment memory', help: 'Off = the "no memory" ablation.' },
  { key: 'repairMode', label: 'Repair mode', help: 'Feed the first validation error back once and ask for a fix.' },
];

/** Copies a config with one numeric field set, clamped to its range. */
export function withNumber(config: Config, field: NumberField, value: number): Config {
  const clamped = Math.min(field.max, Math.max(field.min, Math.round(Number.isFinite(value) ? value : field.min)));
  return { ...config, [field.key]: clamped };
}

/** Core settings the form needs, re-exported so the UI imports only the app layer. */
export { DEFAULT_CONFIG, GAME_SKILLS, configProblems, withPreset, type PresetName } from '../core/config.ts';
export { DEFAULT_TEMPLATES, TEMPLATE_PLACEHOLDERS, type PromptTemplates } from '../core/prompts/templates.ts';
export { REWARD_VARIANTS } from '../core/scoring/designer-reward.ts';
