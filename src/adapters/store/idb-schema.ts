import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { isScored } from '../../analysis/env-query.ts';
import type { RunState } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import type { EnvironmentSummary, EpochEnvSummary, RunMeta } from '../../core/ports/store-port.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';

/** Default database name. */
export const DB_NAME = 'spade-lab-runs';
/** Current schema version. */
export const DB_VERSION = 5;

/** One environment with the explorer's sort and filter keys at the top level (absent when unscored, so unindexed). */
export interface EnvironmentRow {
  runId: string;
  envId: string;
  epoch: number;
  slot: number;
  skill: string;
  status: EnvironmentRecord['status'];
  /** SHA-256 of the code's UTF-8 bytes. */
  sha256: string;
  regret?: number;
  winRate?: number;
  designerReward?: number;
  /** 1 when scored, 0 when not (v2; lets unscored environments be listed after scored ones). */
  scored: 0 | 1;
  record: EnvironmentRecord;
}

/** One committed epoch's metrics and timings, and the charts' summary of its valid environments (v4). */
export interface EpochRow {
  runId: string;
  epoch: number;
  metrics: EpochMetrics;
  timings: EpochTimings;
  envSummary: EpochEnvSummary;
}

/** What the explorer lists of one environment, with its keys in the explorer's orders (v4; see orderKeys in idb-summaries.ts). */
export interface EnvSummaryRow {
  runId: string;
  envId: string;
  epoch: number;
  slot: number;
  summary: EnvironmentSummary;
  /** Indexed one by one (multiEntry `byOrder`). */
  keys: IDBValidKey[][];
}

/** An episode, keyed by its position in its epoch so episodes come back in play order. */
export interface EpisodeRow {
  runId: string;
  epoch: number;
  seq: number;
  envId: string;
  episode: Episode;
}

/** A rollout row, keyed by its position in its epoch. */
export interface RolloutRowRecord {
  runId: string;
  epoch: number;
  seq: number;
  row: RolloutRow;
}

/** A held-out evaluation, keyed by its position among the run's evaluations (v3). */
export interface EvalRow {
  runId: string;
  seq: number;
  record: EvalRecord;
}

/** The state after a run's last committed epoch (memory and moving averages); one per run. */
export interface StateRow {
  runId: string;
  state: RunState;
}

/** The schema (version 5). */
export interface SpadeDbSchema extends DBSchema {
  runs: { key: string; value: RunMeta };
  epochs: { key: [string, number]; value: EpochRow };
  environments: {
    key: [string, string];
    value: EnvironmentRow;
    indexes: {
      byEpoch: [string, number, number];
      bySkill: [string, string];
      byStatus: [string, string];
      byRegret: [string, number];
      byWinRate: [string, number];
      byDesignerReward: [string, number];
      byScored: [string, number];
    };
  };
  episodes: { key: [string, number, number]; value: EpisodeRow; indexes: { byEnv: [string, string] } };
  rollouts: { key: [string, number, number]; value: RolloutRowRecord };
  state: { key: string; value: StateRow };
  evals: { key: [string, number]; value: EvalRow };
  envSummaries: {
    key: [string, string];
    value: EnvSummaryRow;
    indexes: { byEpoch: [string, number, number]; byOrder: IDBValidKey[] };
  };
}

/** Every object store, for transactions that span them all. */
export const ALL_STORES: Array<StoreNames<SpadeDbSchema>> = [
  'runs',
  'epochs',
  'environments',
  'episodes',
  'rollouts',
  'state',
  'evals',
  'envSummaries',
];

/** Index of each environment sort key. */
export const SORT_INDEX = {
  epoch: 'byEpoch',
  regret: 'byRegret',
  winRate: 'byWinRate',
  designerReward: 'byDesignerReward',
} as const;

/** The database as an upgrade sees it. */
export type UpgradeDb = IDBPDatabase<SpadeDbSchema>;
/** The upgrade's one versionchange transaction. */
export type UpgradeTx = IDBPTransaction<SpadeDbSchema, Array<StoreNames<SpadeDbSchema>>, 'versionchange'>;

/** The v2 field derived from a v1 environment row. */
export function scoredFlag(record: EnvironmentRecord): 0 | 1 {
  return isScored(record) ? 1 : 0;
}
