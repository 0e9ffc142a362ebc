// IndexedDB-only behaviour on fake-indexeddb: all-or-nothing epochs, quota errors, versionchange
// and blocked, and the storage helpers. Epochs come from the frozen dump (real scripted epochs).
import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  isQuotaError,
  openIndexedDbRunStore,
  toStoreError,
  type IndexedDbRunStore,
} from '../../../src/adapters/store/idb-run-store.ts';
import { DB_VERSION } from '../../../src/adapters/store/idb-schema.ts';
import { upgradeToV1 } from '../../../src/adapters/store/idb-upgrade.ts';
import { estimateStorage, requestPersistentStorage } from '../../../src/adapters/store/storage-quota.ts';
import { INITIAL_RUN_STATE, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { StoreError, StoreQuotaError } from '../../../src/core/ports/store-errors.ts';
import { epochsOfDump, readV1Dump } from './dump-fixture.ts';
import { testMeta } from './store-fixtures.ts';

const EPOCHS = epochsOfDump(readV1Dump(), 'real');
let n = 0;
const fresh = () => `idb-${++n}`;

async function expectNothingOfEpoch(store: IndexedDbRunStore, result: EpochResult): Promise<void> {
  const loaded = await store.loadRun('r');
  expect(loaded?.meta.epochsCompleted).toBe(result.epoch);
  expect(await store.countEnvironments('r', { epoch: result.epoch })).toBe(0);
  expect(await store.metricsOf('r')).toHaveLength(result.epoch);
  expect((await store.rolloutsOf('r')).filter((r) => r.epoch === result.epoch)).toEqual([]);
  for (const env of result.environments) expect(await store.episodesOf('r', env.id)).toEqual([]);
  expect(await store.db.count('episodes')).toBe(0);
}

afterEach(() => vi.restoreAllMocks());

describe('commitEpoch is one transaction', () => {
  it('a record that cannot be cloned, met after the environments and episodes were put, leaves nothing of the epoch', async () => {
    const store = await openIndexedDbRunStore({ name: fresh() });
    await store.createRun(testMeta('r'));
    const bad = structuredClone(EPOCHS[0]!);
    (bad.rollouts[bad.rollouts.length - 1]!.messages[0] as unknown as { content: unknown }).content = () => 'not data';
    const error = await store.commitEpoch('r', bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreError);
    expect(error).toMatchObject({ code: 'bad_record' });
    expect((error as Error).message).toMatch(/epoch 0 of run r .*nothing of it was written/);
    await expectNothingOfEpoch(store, bad);
    expect((await store.loadRun('r'))!.state).toEqual(INITIAL_RUN_STATE);
    await store.commitEpoch('r', EPOCHS[0]!);
    expect(await store.countEnvironments('r')).toBe(2);
  });

  it('a full disk (QuotaExceededError) becomes StoreQuotaError; the store is unchanged and the run continues once space is back', async () => {
    const store = await openIndexedDbRunStore({ name: fresh() });
    await store.createRun(testMeta('r'));
    await store.commitEpoch('r', EPOCHS[0]!);
    const realPut = IDBObjectStore.prototype.put;
    let puts = 0;
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['put']>
    ) {
      if (++puts === 6) throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      return realPut.apply(this, args);
    });
    const error = await store.commitEpoch('r', EPOCHS[1]!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StoreQuotaError);
    expect(error).toMatchObject({ code: 'quota_exceeded', name: 'StoreQuotaError' });
    expect((error as Error).message).toMatch(
      /^Storage is full: epoch 1 of run r did not fit .* nothing of it was written/,
    );
    expect(puts).toBe(6);
    vi.restoreAllMocks();
    const loaded = await store.loadRun('r');
    expect(loaded!.meta.epochsCompleted).toBe(1);
    expect(loaded!.state).toEqual(EPOCHS[0]!.nextState);
    expect(await store.countEnvironments('r', { epoch: 1 })).toBe(0);
    expect(await store.metricsOf('r')).toEqual([EPOCHS[0]!.metrics]);
    await store.commitEpoch('r', EPOCHS[1]!);
    expect((await store.loadRun('r'))!.state).toEqual(EPOCHS[1]!.nextState);
  });

  it('maps quota errors raised at commit time (AbortError with the transaction error) too', () => {
    const quota = new DOMException('full', 'QuotaExceededError');
    expect(toStoreError(new DOMException('aborted', 'AbortError'), quota, 'epoch 3 of run x')).toBeInstanceOf(
      StoreQuotaError,
    );
    expect(isQuotaError({ name: 'NS_ERROR_DOM_QUOTA_REACHED' })).toBe(true);
    expect(isQuotaError(new DOMException('x', 'AbortError'))).toBe(false);
    const other = new Error('boom');
    expect(toStoreError(other, null, 'x')).toBe(other);
  });
});

describe('other tabs', () => {
  it('a newer schema opened elsewhere closes this connection and tells the app (versionchange)', async () => {
    const name = fresh();
    const onClosed = vi.fn();
    const store = await openIndexedDbRunStore({ name, onClosed });
    await store.createRun(testMeta('r'));
    const newer = await openDB(name, DB_VERSION + 1);
    expect(newer.version).toBe(DB_VERSION + 1);
    expect(onClosed).toHaveBeenCalledExactlyOnceWith('versionchange');
    await expect(store.listRuns()).rejects.toMatchObject({ code: 'closed' });
    expect(() => store.queryEnvironments('r')).toThrow(/reload the page/);
    newer.close();
  });

  it('an older connection that stays open blocks the upgrade; the app hears of it and the open finishes once it closes', async () => {
    const name = fresh();
    const old = await openDB(name, 1, { upgrade: (db) => upgradeToV1(db as never) });
    const onBlocked = vi.fn();
    const opening = openIndexedDbRunStore({ name, onBlocked });
    await vi.waitFor(() => expect(onBlocked).toHaveBeenCalled());
    let settled = false;
    void opening.then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(settled).toBe(false);
    old.close();
    const store = await opening;
    expect(store.db.version).toBe(DB_VERSION);
    store.close();
  });
});

describe('storage helpers degrade where the API is missing', () => {
  it('persist: granted, already persisted, denied, unavailable, throwing', async () => {
    expect(await requestPersistentStorage({ persist: async () => true, persisted: async () => false })).toBe('granted');
    expect(await requestPersistentStorage({ persist: vi.fn(async () => false), persisted: async () => true })).toBe(
      'granted',
    );
    expect(await requestPersistentStorage({ persist: async () => false })).toBe('denied');
    expect(await requestPersistentStorage(undefined)).toBe('unavailable');
    expect(await requestPersistentStorage({ persist: async () => Promise.reject(new Error('no')) })).toBe(
      'unavailable',
    );
  });

  it('estimate: usage, quota and fraction, or null', async () => {
    expect(await estimateStorage({ estimate: async () => ({ usage: 25, quota: 100 }) })).toEqual({
      usage: 25,
      quota: 100,
      fraction: 0.25,
    });
    expect(await estimateStorage({ estimate: async () => ({}) })).toEqual({ usage: 0, quota: 0, fraction: 0 });
    expect(await estimateStorage({})).toBeNull();
    expect(await estimateStorage({ estimate: async () => Promise.reject(new Error('x')) })).toBeNull();
  });
});
