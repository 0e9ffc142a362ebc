import { rebuildSummaries } from './idb-summaries.ts';
import { scoredFlag, type EnvironmentRow, type UpgradeDb, type UpgradeTx } from './idb-schema.ts';

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
