import { completeConfig, type Config } from '../config.ts';
import type { CorpusIdentity } from '../loop/corpus.ts';
import type { EpochResult, RunState } from '../loop/epoch.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../records.ts';
import type { EvalRecord } from '../eval/eval-record.ts';
import type { Lesson } from '../playbook/lesson.ts';
import type { SuiteEnvironment } from '../eval/suite.ts';
import type { RunSetting } from '../skills.ts';

/**
 * Where a held-out suite other than the built-in one comes from, kept so a run loads it again after
 * a reload: another stored run's pool frozen at an epoch (counted as the app shows epochs, 1 the
 * first), or an imported pool kept whole. Absent: the built-in suite (or one the CLI read from files).
 */
export type EvalSuiteSource =
  { kind: 'run'; runId: string; epoch: number } | { kind: 'pool'; environments: SuiteEnvironment[] };

/**
 * Where a run stands, as stored: `running` while a tab (or the CLI) runs it, and left so when that
 * process dies; `aborted` (a person stopped it) and `stopped` (storage filled up) continue from the
 * last committed epoch; `paused`: stopped by an older version, or imported while it ran.
 */
export type RunStatus = 'new' | 'running' | 'paused' | 'aborted' | 'stopped' | 'completed' | 'failed';

/** Every run status, for checking one read from a file. */
export const RUN_STATUSES: readonly RunStatus[] = [
  'new',
  'running',
  'paused',
  'aborted',
  'stopped',
  'completed',
  'failed',
];

/** A run's identity and settings. */
export interface RunMeta {
  id: string;
  name: string;
  /** Milliseconds since the epoch (the calendar one). */
  createdAt: number;
  updatedAt: number;
  config: Config;
  /** The model's id, e.g. `scripted:demo` or `webllm:Qwen3-4B-q4f16_1-MLC`. */
  modelId: string;
  status: RunStatus;
  /** Epochs committed so far. */
  epochsCompleted: number;
  /** Epochs the user asked for. */
  epochsPlanned: number;
  /** Last error shown to the user, if the run stopped on one. */
  lastError: string | null;
  /** The grounding corpus of the run's first epoch (absent in runs that did not record it, e.g. from the command line). */
  corpus?: CorpusIdentity;
  /** The held-out suite its scheduled evaluations play (absent: none scheduled, or the run predates evaluations). */
  evalSuite?: { name: string; sha256: string; source?: EvalSuiteSource };
  /** A fixed-pool run's pool (SPADE's `fixed_env` mode: no designer), kept whole so the run can continue. */
  fixedPool?: { name: string; sha256: string; environments: SuiteEnvironment[] };
}

/** Filters of the environment explorer. */
export interface EnvironmentQuery {
  skill?: string;
  status?: EnvironmentRecord['status'];
  /** Only games or only tool use (see environmentSetting). */
  setting?: RunSetting;
  /** Only tool-use tasks set in this domain. */
  domain?: string;
  epoch?: number;
  /** Sort key; default: epoch then slot. */
  sortBy?: 'epoch' | 'regret' | 'winRate' | 'designerReward';
  descending?: boolean;
  offset?: number;
  limit?: number;
}

/** What the explorer lists of one environment: its keys, scores and rejection reason, without code, attempts or transcripts. */
export interface EnvironmentSummary {
  id: string;
  epoch: number;
  slot: number;
  skill: string;
  /** The environment's class (`NumberLadderEnv`), or null when none could be read (see environmentClassName). */
  className: string | null;
  /** Cognitive game or tool use (environmentSetting; a skill of neither setting counts as a game). */
  setting: RunSetting;
  /** A tool-use task's everyday domain, null for games and tool-use environments without one. */
  domain: string | null;
  status: EnvironmentRecord['status'];
  /** True when all three scores are finite (see isScored): only then does it sort by a score. */
  scored: boolean;
  /** Each score, null when absent or not finite. */
  winRate: number | null;
  regret: number | null;
  designerReward: number | null;
  /** Why the last design attempt was rejected (`stage/code: message`), null when valid. */
  reason: string | null;
}

/** What the charts need from one epoch's valid environments, kept with the epoch when it is committed. */
export interface EpochEnvSummary {
  epoch: number;
  /** Valid environments of the epoch. */
  environments: number;
  /** Valid environments with at least one won unhinted play (stats.turnsToWin set). */
  wonEnvironments: number;
  /** Mean of the won environments' turns to win (each the mean over its won unhinted plays); null when none was won. */
  meanTurnsToWin: number | null;
  /** Mean code length in characters (Unicode code points) of the valid environments; null when there are none. */
  meanCodeChars: number | null;
  /** Mean designer reward per skill over the scored valid environments; skills without any are absent. */
  designerRewardBySkill: Record<string, number>;
  /** Tool use: mean win rate and regret per domain over the scored valid environments; absent when no environment has a domain (games, and rows stored before it). */
  byDomain?: Record<string, { winRate: number; regret: number }>;
}

/** One committed epoch as the charts read it: its metrics, timings and the summary of its valid environments. */
export interface EpochChartRow {
  metrics: EpochMetrics;
  timings: EpochTimings;
  environments: EpochEnvSummary;
}

/** Persistence of runs. `commitEpoch` is atomic: after a crash the store holds whole epochs only. */
export interface RunStore {
  createRun(meta: RunMeta): Promise<void>;
  listRuns(): Promise<RunMeta[]>;
  /** The run and the state to continue from (its last committed epoch), or null. */
  loadRun(runId: string): Promise<{ meta: RunMeta; state: RunState } | null>;
  updateRun(runId: string, patch: Partial<Omit<RunMeta, 'id'>>): Promise<void>;
  /** Writes everything an epoch produced and the next state in one transaction. */
  commitEpoch(runId: string, result: EpochResult): Promise<void>;
  deleteRun(runId: string): Promise<void>;
  queryEnvironments(runId: string, query?: EnvironmentQuery): Promise<EnvironmentRecord[]>;
  countEnvironments(runId: string, query?: EnvironmentQuery): Promise<number>;
  /** The explorer's rows: the summaries of the environments queryEnvironments returns, in the same order. */
  queryEnvironmentSummaries(runId: string, query?: EnvironmentQuery): Promise<EnvironmentSummary[]>;
  getEnvironment(runId: string, envId: string): Promise<EnvironmentRecord | null>;
  episodesOf(runId: string, envId: string): Promise<Episode[]>;
  metricsOf(runId: string): Promise<EpochMetrics[]>;
  timingsOf(runId: string): Promise<EpochTimings[]>;
  /** Every committed epoch's chart row, in epoch order (the environment summaries were taken when the epoch was committed). */
  chartRowsOf(runId: string): Promise<EpochChartRow[]>;
  rolloutsOf(runId: string): Promise<RolloutRow[]>;
  /** Adds an on-demand evaluation of the run's agent (scheduled ones come with their epoch's commit). */
  addEvaluation(runId: string, record: EvalRecord): Promise<void>;
  /** Every held-out evaluation of the run, in the order they were stored. */
  evaluationsOf(runId: string): Promise<EvalRecord[]>;
  /** Replaces the playbook of the run's latest state (a person's edits between epochs). */
  updatePlaybook(runId: string, playbook: Lesson[]): Promise<void>;
}

/** A stored run's meta with its config completed for this version (see completeConfig). */
export function completeRunMeta(meta: RunMeta): RunMeta {
  return { ...meta, config: completeConfig(meta.config) };
}
