import { completeConfig } from '../core/config.ts';
import type { EvalRecord } from '../core/eval/eval-record.ts';
import type { RunMeta } from '../core/ports/store-port.ts';
import { DEFAULT_TEMPLATES, type PromptTemplates } from '../core/prompts/templates.ts';
import type { EpochMetrics } from '../core/records.ts';
import { epochFigures } from '../core/scoring/epoch-figures.ts';
import { heldOutDifference, seedGroup, type HeldOutDifference, type SeedGroup } from './held-out-pairs.ts';

/** One setting's value as a comparison shows it: a number, a switch, a word, or null when the run has none. */
export type SettingValue = string | number | boolean | null;

/** A setting's value in words, as every comparison table shows it: a switch on or off, no value `-`. */
export const settingText = (value: SettingValue): string =>
  value === null ? '-' : typeof value === 'boolean' ? (value ? 'on' : 'off') : String(value);

/** What a comparison reads of one run. */
export interface ComparedRun {
  /** How the comparison names the run (its name, or the directory it was read from). */
  label: string;
  meta: RunMeta;
  metrics: readonly EpochMetrics[];
  evaluations: readonly EvalRecord[];
}

/** A setting that is not the same in every run: its key (`reward`, `agent.temperature`, `model`) and each run's value, in run order. */
export interface SettingDifference {
  key: string;
  values: SettingValue[];
}

/** The figures of a run's last held-out evaluation. */
export interface HeldOutFigures {
  suite: string;
  winRate: number;
  ci95: [number, number];
  afterEpochs: number;
  /** Whether the playbook's lessons were shown in that evaluation. */
  playbook: boolean;
}

/** Where one run ended: its last epoch's means (null: none, as for a fixed pool's validity or an epoch that scored no environment) and its last held-out evaluation (null: none). */
export interface RunFinals {
  label: string;
  epochs: number;
  winRate: number | null;
  regret: number | null;
  validity: number | null;
  designerReward: number | null;
  heldOut: HeldOutFigures | null;
}

/** Runs side by side: the settings that differ, each run's final figures, its held-out difference from the first run, and the runs grouped over seeds. */
export interface RunComparison {
  differences: SettingDifference[];
  runs: RunFinals[];
  /** Each run's last held-out win rate minus the first run's, paired over environments (the first run's own entry is null). */
  versusFirst: Array<HeldOutDifference | null>;
  /** Runs that differ only in their seed, in order of first appearance (one group per run when no two share their other settings). */
  seedGroups: SeedGroup[];
}

const PROMPT_PREFIX = 'prompts.';

/** A fixed pool or suite as one comparable word: its name and the start of its digest. */
const suiteWord = (suite: { name: string; sha256: string } | undefined): SettingValue =>
  suite ? `${suite.name} (${suite.sha256.slice(0, 12)})` : null;

/** Every setting of a run, flattened: the model (named by `modelName`), the fixed pool, the held-out suite, then each config key (`agent.temperature`, `prompts.hint`). */
function settingsOf(meta: RunMeta, modelName: (modelId: string) => string): Map<string, SettingValue> {
  const settings = new Map<string, SettingValue>([
    ['model', modelName(meta.modelId)],
    ['fixedPool', suiteWord(meta.fixedPool)],
    ['evalSuite', suiteWord(meta.evalSuite)],
  ]);
  for (const [key, value] of Object.entries(completeConfig(meta.config))) {
    if (Array.isArray(value)) settings.set(key, value.join(', '));
    else if (typeof value === 'object' && value !== null)
      for (const [part, inner] of Object.entries(value)) settings.set(`${key}.${part}`, inner as SettingValue);
    else settings.set(key, value as SettingValue);
  }
  return settings;
}

/** Prompt texts are compared, never shown: `default`, or `custom 1`, `custom 2`.. numbered in the order the runs first use them. */
function promptLabels(key: string, values: readonly SettingValue[]): SettingValue[] {
  const fallback = DEFAULT_TEMPLATES[key.slice(PROMPT_PREFIX.length) as keyof PromptTemplates];
  const custom: SettingValue[] = [];
  return values.map((value) => {
    if (value === null) return null;
    if (value === fallback) return 'default';
    if (!custom.includes(value)) custom.push(value);
    return `custom ${custom.indexOf(value) + 1}`;
  });
}

function finalsOf(run: ComparedRun): RunFinals {
  const last = run.metrics.reduce<EpochMetrics | null>(
    (best, m) => (best === null || m.epoch > best.epoch ? m : best),
    null,
  );
  const evaluation = run.evaluations.at(-1);
  const figures = last ? epochFigures(last) : null;
  return {
    label: run.label,
    epochs: run.meta.epochsCompleted,
    winRate: figures?.winRate ?? null,
    regret: figures?.regret ?? null,
    validity: figures?.validity ?? null,
    designerReward: figures?.designerReward ?? null,
    heldOut: evaluation
      ? {
          suite: evaluation.suite,
          winRate: evaluation.winRate,
          ci95: evaluation.ci95,
          afterEpochs: evaluation.afterEpochs,
          playbook: evaluation.playbook,
        }
      : null,
  };
}

/**
 * Compares runs: every setting (config keys flattened, prompts by equality, plus the model, the
 * fixed pool and the held-out suite) whose value is not the same in all of them, and each run's
 * final figures (the last epoch's mean win rate, regret, validity and designer reward, and the last
 * held-out evaluation's win rate with its 95% interval), each run's held-out difference from the
 * first run with its paired interval, and the runs grouped over seeds (mean and interval per group).
 * `modelName` names each run's model, so two ids of one model (the bundled demo script recorded by
 * the tab and by the command line) are not a difference; by default the id as recorded.
 */
export function compareRuns(
  runs: readonly ComparedRun[],
  modelName: (modelId: string) => string = (id) => id,
): RunComparison {
  const settings = runs.map((run) => settingsOf(run.meta, modelName));
  const keys = [...new Set(settings.flatMap((s) => [...s.keys()]))];
  const differences: SettingDifference[] = [];
  for (const key of keys) {
    const values = settings.map((s) => s.get(key) ?? null);
    if (values.every((v) => v === values[0])) continue;
    differences.push({ key, values: key.startsWith(PROMPT_PREFIX) ? promptLabels(key, values) : values });
  }
  return {
    differences,
    runs: runs.map(finalsOf),
    versusFirst: runs.map((run, i) =>
      i === 0 ? null : heldOutDifference(run.evaluations.at(-1), runs[0]!.evaluations.at(-1)),
    ),
    seedGroups: seedGroupsOf(runs, differences),
  };
}

/** Groups runs by every setting but the seed; each group is labelled by its values of the settings that differ (seed apart). */
function seedGroupsOf(runs: readonly ComparedRun[], differences: readonly SettingDifference[]): SeedGroup[] {
  const shown = differences.filter((d) => d.key !== 'seed');
  const groups = new Map<string, number[]>();
  runs.forEach((_, i) => {
    const key = JSON.stringify(shown.map((d) => d.values[i] ?? null));
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  return [...groups.values()].map((members) => {
    const first = members[0]!;
    const label =
      shown.length === 0
        ? 'every run'
        : shown.map((d) => `${d.key}=${settingText(d.values[first] ?? null)}`).join(', ');
    return seedGroup(
      label,
      members.map((i) => ({
        label: runs[i]!.label,
        seed: runs[i]!.meta.config.seed,
        last: runs[i]!.evaluations.at(-1),
      })),
    );
  });
}
