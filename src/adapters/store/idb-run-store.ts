import { openDB, type IDBPDatabase } from 'idb';
import { INITIAL_RUN_STATE, type EpochResult, type RunState } from '../../core/loop/epoch.ts';
import type { HashText } from '../../formats/export/files.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import { epochConflict, noRun, StoreError, StoreQuotaError } from '../../core/ports/store-errors.ts';
import {
  completeRunMeta,
  type EnvironmentQuery,
  type EnvironmentSummary,
  type EpochChartRow,
  type RunMeta,
  type RunStore,
} from '../../core/ports/store-port.ts';
import { epochRows } from './idb-rows.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';
import type { Lesson } from '../../core/playbook/lesson.ts';
import { countEnvironmentRows, queryEnvironmentRows, querySummaryRows, runRange } from './idb-query.ts';
import { ALL_STORES, DB_NAME, DB_VERSION, type SpadeDbSchema } from './idb-schema.ts';
import { upgradeDatabase } from './idb-upgrade.ts';
import { hashText as webCryptoHash } from './sha256.ts';

/** Why the store's connection closed. */
export type StoreCloseReason = 'versionchange' | 'terminated';

/** Options of the IndexedDB store. */
export interface IndexedDbStoreOptions {
  /** Database name (default `spade-lab-runs`). */
  name?: string;
  /** Called once when the connection closes under the app: another tab opened a newer schema, or the browser closed it. Reload to continue. */
  onClosed?: (reason: StoreCloseReason) => void;
  /** Called while opening waits for other tabs (with an older schema open) to close. */
  onBlocked?: () => void;
  /** Clock for updatedAt, in milliseconds since 1970. */
  now?: () => number;
  /** SHA-256 of environment code (default: Web Crypto). */
  hashText?: HashText;
}

/** True for the error a browser raises when storage is full. */
export function isQuotaError(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'QuotaExceededError' || name === 'NS_ERROR_DOM_QUOTA_REACHED';
}

/** Maps a failed write's error (or its transaction's) to a StoreError. */
export function toStoreError(error: unknown, txError: unknown, what: string): unknown {
  if (error instanceof StoreError) return error;
  if (isQuotaError(error) || isQuotaError(txError)) return new StoreQuotaError(what, { cause: error });
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'DataCloneError' || name === 'DataError')
    return new StoreError(
      'bad_record',
      `${what} holds a value IndexedDB cannot store (${String((error as Error).message)}); nothing of it was written. This is a bug: records must be plain data.`,
      {
        cause: error,
      },
    );
  if (name === 'InvalidStateError')
    return new StoreError(
      'closed',
      'The database connection is closed (another tab upgraded the app, or the browser closed it); reload the page to continue.',
      { cause: error },
    );
  return error;
}

/** Opens (creating or upgrading) the runs database and returns a RunStore over it. */
export async function openIndexedDbRunStore(options: IndexedDbStoreOptions = {}): Promise<IndexedDbRunStore> {
  let store: IndexedDbRunStore | null = null;
  const db = await openDB<SpadeDbSchema>(options.name ?? DB_NAME, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => upgradeDatabase(database, oldVersion, tx),
    blocked: () => options.onBlocked?.(),
    blocking: () => store?.closeFor('versionchange'),
    terminated: () => store?.closeFor('terminated'),
  });
  store = new IndexedDbRunStore(db, options);
  return store;
}

/** RunStore over IndexedDB: one atomic transaction per epoch, indexed explorer queries. */
export class IndexedDbRunStore implements RunStore {
  private closed = false;
  private readonly now: () => number;
  private readonly hash: HashText;

  constructor(
    readonly db: IDBPDatabase<SpadeDbSchema>,
    private readonly options: IndexedDbStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.hash = options.hashText ?? webCryptoHash;
  }

  /** Closes the connection (so another tab's upgrade can proceed) and tells the app why. */
  closeFor(reason: StoreCloseReason): void {
    if (this.closed) return;
    this.close();
    this.options.onClosed?.(reason);
  }

  /** Closes the connection; later calls fail with StoreError `closed`. */
  close(): void {
    this.closed = true;
    this.db.close();
  }

  private guard(): void {
    if (this.closed)
      throw new StoreError(
        'closed',
        'The database connection is closed (another tab opened a newer version of the app, or the browser closed it); reload the page to continue.',
      );
  }

  async createRun(meta: RunMeta): Promise<void> {
    this.guard();
    const tx = this.db.transaction('runs', 'readwrite');
    if (await tx.store.get(meta.id)) {
      tx.abort();
      await tx.done.catch(() => undefined);
      throw new StoreError(
        'run_exists',
        `A run with id ${JSON.stringify(meta.id)} already exists; pick another id or delete that run first.`,
      );
    }
    await Promise.all([tx.store.add(meta), tx.done]).catch((error: unknown) => {
      throw toStoreError(error, tx.error, `run ${meta.id}`);
    });
  }

  async listRuns(): Promise<RunMeta[]> {
    this.guard();
    const runs = (await this.db.getAll('runs')).map(completeRunMeta);
    return runs.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async loadRun(runId: string): Promise<{ meta: RunMeta; state: RunState } | null> {
    this.guard();
    const tx = this.db.transaction(['runs', 'state'], 'readonly');
    const [meta, state] = await Promise.all([
      tx.objectStore('runs').get(runId),
      tx.objectStore('state').get(runId),
      tx.done,
    ]);
    return meta ? { meta: completeRunMeta(meta), state: state?.state ?? INITIAL_RUN_STATE } : null;
  }

  async updateRun(runId: string, patch: Partial<Omit<RunMeta, 'id'>>): Promise<void> {
    this.guard();
    const tx = this.db.transaction('runs', 'readwrite');
    try {
      const meta = await tx.store.get(runId);
      if (!meta) throw noRun(runId);
      await tx.store.put({ ...meta, updatedAt: this.now(), ...patch, id: runId });
      await tx.done;
    } catch (error) {
      throw await this.abort(tx, error, `the update of run ${runId}`);
    }
  }

  /**
   * Writes an epoch in one readwrite transaction over every store: environments, episodes,
   * rollouts, metrics and timings, the next state, and the run's epochsCompleted. Any failure
   * (quota, a record that cannot be cloned, an epoch that does not follow the last one) aborts
   * the transaction, so nothing of the epoch is written.
   */
  async commitEpoch(runId: string, result: EpochResult): Promise<void> {
    this.guard();
    const rows = epochRows(runId, result, await Promise.all(result.environments.map((env) => this.hash(env.code))));
    const tx = this.db.transaction(ALL_STORES, 'readwrite');
    const writes: Array<Promise<unknown>> = [];
    const track = (write: Promise<unknown>) => writes.push(write);
    try {
      const meta = await tx.objectStore('runs').get(runId);
      if (!meta) throw noRun(runId);
      if (meta.epochsCompleted !== result.epoch) throw epochConflict(runId, meta.epochsCompleted, result.epoch);
      track(tx.objectStore('epochs').put(rows.epoch));
      for (const row of rows.environments) track(tx.objectStore('environments').put(row));
      for (const row of rows.summaries) track(tx.objectStore('envSummaries').put(row));
      for (const row of rows.episodes) track(tx.objectStore('episodes').put(row));
      for (const row of rows.rollouts) track(tx.objectStore('rollouts').put(row));
      track(tx.objectStore('state').put(rows.state));
      const evalCount = await tx.objectStore('evals').count(runRange(runId));
      for (const row of rows.evals(evalCount)) track(tx.objectStore('evals').put(row));
      track(tx.objectStore('runs').put({ ...meta, epochsCompleted: result.epoch + 1, updatedAt: this.now() }));
      await Promise.all([...writes, tx.done]);
    } catch (error) {
      throw await this.abort(tx, error, `epoch ${result.epoch} of run ${runId}`, writes);
    }
  }

  private async abort(
    tx: { abort(): void; done: Promise<void>; error: DOMException | null },
    error: unknown,
    what: string,
    writes: Array<Promise<unknown>> = [],
  ): Promise<unknown> {
    for (const write of writes) write.catch(() => undefined);
    try {
      tx.abort();
    } catch {
      // already committed or aborted
    }
    await tx.done.catch(() => undefined);
    return toStoreError(error, tx.error, what);
  }

  async deleteRun(runId: string): Promise<void> {
    this.guard();
    const tx = this.db.transaction(ALL_STORES, 'readwrite');
    const range = runRange(runId);
    await Promise.all([
      tx.objectStore('runs').delete(runId),
      tx.objectStore('state').delete(runId),
      tx.objectStore('epochs').delete(range),
      tx.objectStore('environments').delete(range),
      tx.objectStore('episodes').delete(range),
      tx.objectStore('rollouts').delete(range),
      tx.objectStore('evals').delete(range),
      tx.objectStore('envSummaries').delete(range),
      tx.done,
    ]);
  }

  queryEnvironments(runId: string, query?: EnvironmentQuery): Promise<EnvironmentRecord[]> {
    this.guard();
    return queryEnvironmentRows(this.db, runId, query);
  }

  countEnvironments(runId: string, query?: EnvironmentQuery): Promise<number> {
    this.guard();
    return countEnvironmentRows(this.db, runId, query);
  }

  queryEnvironmentSummaries(runId: string, query?: EnvironmentQuery): Promise<EnvironmentSummary[]> {
    this.guard();
    return querySummaryRows(this.db, runId, query);
  }

  async getEnvironment(runId: string, envId: string): Promise<EnvironmentRecord | null> {
    this.guard();
    return (await this.db.get('environments', [runId, envId]))?.record ?? null;
  }

  async episodesOf(runId: string, envId: string): Promise<Episode[]> {
    this.guard();
    return (await this.db.getAllFromIndex('episodes', 'byEnv', [runId, envId])).map((r) => r.episode);
  }

  async metricsOf(runId: string): Promise<EpochMetrics[]> {
    this.guard();
    return (await this.db.getAll('epochs', runRange(runId))).map((r) => r.metrics);
  }

  async timingsOf(runId: string): Promise<EpochTimings[]> {
    this.guard();
    return (await this.db.getAll('epochs', runRange(runId))).map((r) => r.timings);
  }

  async chartRowsOf(runId: string): Promise<EpochChartRow[]> {
    this.guard();
    return (await this.db.getAll('epochs', runRange(runId))).map((r) => ({
      metrics: r.metrics,
      timings: r.timings,
      environments: r.envSummary,
    }));
  }

  async rolloutsOf(runId: string): Promise<RolloutRow[]> {
    this.guard();
    return (await this.db.getAll('rollouts', runRange(runId))).map((r) => r.row);
  }

  /** Adds the evaluation after the run's others, in one transaction that checks the run exists. */
  async addEvaluation(runId: string, record: EvalRecord): Promise<void> {
    this.guard();
    const tx = this.db.transaction(['runs', 'evals'], 'readwrite');
    const writes: Array<Promise<unknown>> = [];
    try {
      if (!(await tx.objectStore('runs').get(runId))) throw noRun(runId);
      const seq = await tx.objectStore('evals').count(runRange(runId));
      writes.push(tx.objectStore('evals').put({ runId, seq, record }));
      await Promise.all([...writes, tx.done]);
    } catch (error) {
      throw await this.abort(tx, error, `an evaluation of run ${runId}`, writes);
    }
  }

  async evaluationsOf(runId: string): Promise<EvalRecord[]> {
    this.guard();
    return (await this.db.getAll('evals', runRange(runId))).map((r) => r.record);
  }

  /** Replaces the playbook in the run's stored state, in one transaction. */
  async updatePlaybook(runId: string, playbook: Lesson[]): Promise<void> {
    this.guard();
    const tx = this.db.transaction(['runs', 'state'], 'readwrite');
    const writes: Array<Promise<unknown>> = [];
    try {
      if (!(await tx.objectStore('runs').get(runId))) throw noRun(runId);
      const state = (await tx.objectStore('state').get(runId))?.state ?? INITIAL_RUN_STATE;
      writes.push(tx.objectStore('state').put({ runId, state: { ...state, playbook } }));
      await Promise.all([...writes, tx.done]);
    } catch (error) {
      throw await this.abort(tx, error, `the playbook of run ${runId}`, writes);
    }
  }
}
