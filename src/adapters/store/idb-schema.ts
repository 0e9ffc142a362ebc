import type { DBSchema, IDBPDatabase, IDBPTransaction, StoreNames } from 'idb';
import { isScored } from '../../core/ports/env-query.ts';
import type { RunState } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';
import type { EnvironmentSummary } from '../../core/ports/env-summary.ts';
import type { EpochEnvSummary } from '../../core/ports/epoch-summary.ts';
import { rebuildSummaries } from './idb-summaries.ts';

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
  envSummaries: { key: [string, string]; value: EnvSummaryRow; indexes: { byEpoch: [string, number, number]; byOrder: IDBValidKey[] } };
}

/** Every object store, for transactions that span them all. */
export const ALL_STORES: Array<StoreNames<SpadeDbSchema>> = ['runs', 'epochs', 'environments', 'episodes', 'rollouts', 'state', 'evals', 'envSummaries'];

/** Index of each environment sort key. */
export const SORT_INDEX = { epoch: 'byEpoch', regret: 'byRegret', winRate: 'byWinRate', designerReward: 'byDesignerReward' } as const;

type UpgradeDb = IDBPDatabase<SpadeDbSchema>;
type UpgradeTx = IDBPTransaction<SpadeDbSchema, Array<StoreNames<SpadeDbSchema>>, 'versionchange'>;

/** Version 1: runs, epochs, environments (indexed by epoch/slot, skill, status, regret, win rate, designer reward), episodes by environment, rollouts, state. */
export function upgradeToV1(db: UpgradeDb): void {
  db.createObjectStore('runs', { keyPath: 'id' });
  db.createObjectStore('epochs', { keyPath: ['runId', 'epoch'] });
  const envs = db.createObjectStore('environments', { keyPath: ['runId', 'envId'] });
  envs.createIndex('byEpoch', ['runId', 'epoch', 'slot']);
  envs.createIndex('bySkill', ['runId', 'skill']);
  envs.createIndex('byStatus', ['runId', 'status']);
  envs.createIndex('byRegret', ['runId', 'regret']);
  envs.createIndex('byWinRate', ['runId', 'winRate']);
  envs.createIndex('byDesignerReward', ['runId', 'designerReward']);
  const episodes = db.createObjectStore('episodes', { keyPath: ['runId', 'epoch', 'seq'] });
  episodes.createIndex('byEnv', ['runId', 'envId']);
  db.createObjectStore('rollouts', { keyPath: ['runId', 'epoch', 'seq'] });
  db.createObjectStore('state', { keyPath: 'runId' });
}

/** The v2 field derived from a v1 environment row. */
export function scoredFlag(record: EnvironmentRecord): 0 | 1 {
  return isScored(record) ? 1 : 0;
}

/**
 * Version 2: every environment gets `scored` (derived from its stored record) and the
 * `byScored` index, so explorer queries sorted by a statistic can list unscored environments
 * last without scanning the run. Runs inside the upgrade transaction; a failure aborts the upgrade.
 */
export async function upgradeToV2(tx: UpgradeTx): Promise<void> {
  const envs = tx.objectStore('environments');
  envs.createIndex('byScored', ['runId', 'scored']);
  let cursor = await envs.openCursor();
  while (cursor) {
    const row = cursor.value as Omit<EnvironmentRow, 'scored'> & { scored?: 0 | 1 };
    await cursor.update({ ...row, scored: scoredFlag(row.record) });
    cursor = await cursor.continue();
  }
}

/** Version 3: held-out evaluations, one row per evaluation in stored order. */
export function upgradeToV3(db: UpgradeDb): void {
  db.createObjectStore('evals', { keyPath: ['runId', 'seq'] });
}

/**
 * Version 4: the explorer's summary of every environment with its order keys (store
 * `envSummaries`, indexed by epoch and slot and by order key), and each epoch row's chart summary,
 * all derived from the stored records inside the upgrade transaction.
 */
export async function upgradeToV4(db: UpgradeDb, tx: UpgradeTx): Promise<void> {
  const summaries = db.createObjectStore('envSummaries', { keyPath: ['runId', 'envId'] });
  summaries.createIndex('byEpoch', ['runId', 'epoch', 'slot']);
  summaries.createIndex('byOrder', 'keys', { multiEntry: true });
  await rebuildSummaries(tx);
}

/** Version 5: every environment's summary carries its class name, setting and domain, with order keys for the setting and domain filters (rebuilt from the stored records; the stores are unchanged). */
export async function upgradeToV5(tx: UpgradeTx): Promise<void> {
  await rebuildSummaries(tx);
}

const abortOnFailure = (tx: UpgradeTx) => () => {
  try {
    tx.abort();
  } catch {
    // the transaction already ended; open() reports the failure
  }
};

/** Runs every upgrade from `oldVersion` to the current version, in order. */
export function upgradeDatabase(db: UpgradeDb, oldVersion: number, tx: UpgradeTx): void {
  // An aborted upgrade rejects the open() call; the transaction's own promise need not report it again.
  tx.done.catch(() => undefined);
  if (oldVersion < 1) upgradeToV1(db);
  // Each async step queues its requests on the one upgrade transaction, so they run in order.
  if (oldVersion < 2) upgradeToV2(tx).catch(abortOnFailure(tx));
  if (oldVersion < 3) upgradeToV3(db);
  if (oldVersion < 4) upgradeToV4(db, tx).catch(abortOnFailure(tx));
  // Version 4 built the summaries with class names already.
  else if (oldVersion < 5) upgradeToV5(tx).catch(abortOnFailure(tx));
}
