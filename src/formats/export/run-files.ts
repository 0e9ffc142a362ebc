import type { Config } from '../../core/config.ts';
import type { EpochResult, RunState } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import { toJsonLines } from './files.ts';

/** Files of a run directory written one whole epoch at a time, one JSON object per line. */
export const RUN_FILES = [
  'environments.jsonl',
  'episodes.jsonl',
  'epochs.jsonl',
  'rollouts.jsonl',
  'timings.jsonl',
  'evals.jsonl',
] as const;

/** One of RUN_FILES. */
export type RunFileName = (typeof RUN_FILES)[number];

/** The run's model and config: `{"model": ..., "config": {...}}`, pretty-printed. */
export const CONFIG_FILE = 'config.json';
/** The run's RunMeta (its id, name, status, timestamps). */
export const RUN_META_FILE = 'run.json';
/** The commit marker: the RunState after the last committed epoch, and the run files' sizes at that moment. */
export const STATE_FILE = 'state.json';

/** Text of config.json. */
export function configFileText(config: Config, modelId: string): string {
  return JSON.stringify({ model: modelId, config }, null, 2) + '\n';
}

/** environments.jsonl lines: each record followed by the sha256 of its code (`codeSha256[i]` for record i). */
export function environmentsJsonl(envs: readonly EnvironmentRecord[], codeSha256: readonly string[]): string {
  if (codeSha256.length !== envs.length) throw new Error('environmentsJsonl needs one sha256 per environment');
  return toJsonLines(envs.map((env, i) => ({ ...env, sha256: codeSha256[i] })));
}

/** The lines one epoch appends to each run file. */
export function epochFileTexts(result: EpochResult, codeSha256: readonly string[]): Record<RunFileName, string> {
  return {
    'environments.jsonl': environmentsJsonl(result.environments, codeSha256),
    'episodes.jsonl': toJsonLines(result.episodes),
    'epochs.jsonl': toJsonLines([result.metrics]),
    'rollouts.jsonl': toJsonLines(result.rollouts),
    'timings.jsonl': toJsonLines([result.timings]),
    'evals.jsonl': toJsonLines(result.evaluations),
  };
}

/** Contents of state.json. */
export interface StateFile {
  /** Epochs committed; records of later epochs in the run files are leftovers of an interrupted write. */
  epochsCompleted: number;
  /** Byte size of each run file right after the last commit (file store only; absent in archives). */
  sizes?: Partial<Record<RunFileName, number>>;
  state: RunState;
}
