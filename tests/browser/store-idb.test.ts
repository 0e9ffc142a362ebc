// The IndexedDB RunStore in real Chromium: epochs survive a reload, export then import gives the
// same environments (the import re-validates in the browser sandbox), and a full quota rolls an
// epoch back with StoreQuotaError. Epochs are scripted ones whose games ran as in-process doubles
// (the store is the point; the stored code is the real Python, which the import re-validates).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_VERSION } from '../../src/adapters/store/idb-schema.ts';
import { selectEnvironments } from '../../src/analysis/env-query.ts';
import { summarizeEnvironment } from '../../src/analysis/env-summary.ts';
import { summarizeEnvironments } from '../../src/analysis/epoch-summary.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import { scriptedEpochs, testMeta } from '../adapters/store/store-fixtures.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { startRig, type BrowserRig } from './harness.ts';

const PAGE = '/tests/browser/pages/store.html';
let rig: BrowserRig;
let page: Page;
let epochs: EpochResult[];

async function ready(p: Page): Promise<void> {
  await p.waitForFunction(() => typeof window.spadeStore?.open === 'function', undefined, { timeout: 60_000 });
}

beforeAll(async () => {
  epochs = await scriptedEpochs(fakeSandbox(HINT_HELPS_DOUBLES), 2);
  rig = await startRig();
  page = await rig.open(PAGE);
  await ready(page);
});
afterAll(() => rig?.close());

describe('IndexedDB store in Chromium', () => {
  it('commits epochs that are still there after a reload, and continues from the last one', async () => {
    expect(await page.evaluate(() => window.spadeStore.open('reload'))).toBe(DB_VERSION);
    expect(await page.evaluate((meta) => window.spadeStore.createRun('reload', meta), testMeta('r'))).toEqual({
      ok: true,
    });
    expect(await page.evaluate((e) => window.spadeStore.commitEpoch('reload', 'r', e), epochs[0]!)).toEqual({
      ok: true,
    });
    const before = await page.evaluate(() => window.spadeStore.snapshot('reload', 'r'));
    await page.reload();
    await ready(page);
    await page.evaluate(() => window.spadeStore.open('reload'));
    const after = await page.evaluate(() => window.spadeStore.snapshot('reload', 'r'));
    expect(after).toEqual(before);
    expect(after!.meta.epochsCompleted).toBe(1);
    expect(after!.state).toEqual(epochs[0]!.nextState);
    expect(after!.environments).toEqual(epochs[0]!.environments);
    expect(after!.episodes).toEqual(epochs[0]!.episodes);
    const replay = await page.evaluate((e) => window.spadeStore.commitEpoch('reload', 'r', e), epochs[0]!);
    expect(replay).toMatchObject({ ok: false, error: { code: 'epoch_conflict' } });
    expect(await page.evaluate((e) => window.spadeStore.commitEpoch('reload', 'r', e), epochs[1]!)).toEqual({
      ok: true,
    });
    const all = epochs.flatMap((e) => e.environments);
    for (const query of [
      { sortBy: 'regret', descending: true, limit: 2 },
      { sortBy: 'winRate', offset: 1 },
      { epoch: 1 },
    ] as const) {
      expect(await page.evaluate((q) => window.spadeStore.query('reload', 'r', q), query)).toEqual(
        selectEnvironments(all, query).map((e) => e.id),
      );
    }
  });

  it('upgrades a v3 database with data to the current version in place: nothing is lost, the explorer and the charts read the run', async () => {
    await page.evaluate(([meta, e]) => window.spadeStore.makeV3('v3', meta, e), [testMeta('old'), epochs] as const);
    expect(await page.evaluate(() => window.spadeStore.open('v3'))).toBe(DB_VERSION);
    const all = epochs.flatMap((e) => e.environments);
    const kept = await page.evaluate(() => window.spadeStore.snapshot('v3', 'old'));
    expect(kept).toMatchObject({
      environments: all,
      episodes: epochs.flatMap((e) => e.episodes),
      state: epochs[1]!.nextState,
      epochs: epochs.map((e) => ({ metrics: e.metrics, timings: e.timings })),
    });
    for (const query of [
      {},
      { sortBy: 'regret', descending: true, limit: 3 },
      { status: 'valid', sortBy: 'winRate', offset: 1, limit: 2 },
      { epoch: 1 },
    ] as const) {
      expect(await page.evaluate((q) => window.spadeStore.summaries('v3', 'old', q), query)).toEqual(
        selectEnvironments(all, query).map(summarizeEnvironment),
      );
    }
    const rows = await page.evaluate(() => window.spadeStore.chartRows('v3', 'old'));
    expect(rows.map((r) => r.environments)).toEqual(epochs.map((e) => summarizeEnvironments(e.epoch, e.environments)));
  });

  it('export then import into another database gives identical environments and checksums', async () => {
    await page.evaluate(() => Promise.all([window.spadeStore.open('source'), window.spadeStore.open('target')]));
    await page.evaluate((meta) => window.spadeStore.createRun('source', meta), testMeta('s'));
    for (const e of epochs) await page.evaluate((x) => window.spadeStore.commitEpoch('source', 's', x), e);
    const pool = await page.evaluate(() =>
      window.spadeStore.exportThenImport('source', 's', 'pool', 'target', 'pool-run'),
    );
    expect(pool).toMatchObject({ kind: 'pool', found: 4, imported: 4, problems: [], runId: 'pool-run' });
    const first = await page.evaluate(() => window.spadeStore.exportFiles('source', 's', 'pool'));
    const second = await page.evaluate(() => window.spadeStore.exportFiles('target', 'pool-run', 'pool'));
    const sums = (x: typeof first) => x.files.find((f) => f.path === 'checksums.sha256')!.text;
    expect(sums(second)).toBe(sums(first));
    expect(sums(first).trim().split('\n')).toHaveLength(4);
    const archive = await page.evaluate(() => window.spadeStore.exportThenImport('source', 's', 'archive', 'target'));
    expect(archive).toMatchObject({ kind: 'archive', imported: 4, problems: [], runId: 's' });
    const [a, b] = await page.evaluate(() =>
      Promise.all([window.spadeStore.snapshot('source', 's'), window.spadeStore.snapshot('target', 's')]),
    );
    expect(b!.environments).toEqual(a!.environments);
    expect(b!.episodes).toEqual(a!.episodes);
    expect(b!.rollouts).toEqual(a!.rollouts);
    expect(b!.state).toEqual(a!.state);
  });

  it('a full quota rolls the epoch back with StoreQuotaError; the run continues with an epoch that fits', async () => {
    const quotaPage = await rig.open(PAGE);
    await ready(quotaPage);
    // Chromium applies a quota override only to storage first used after it (and estimate() keeps
    // reporting the real quota), so the 4 MB quota is set before the page opens its database.
    const cdp = await quotaPage.context().newCDPSession(quotaPage);
    await cdp.send('Storage.overrideQuotaForOrigin', { origin: rig.baseUrl, quotaSize: 4 * 1024 * 1024 });
    await quotaPage.evaluate(() => window.spadeStore.open('quota'));
    await quotaPage.evaluate((meta) => window.spadeStore.createRun('quota', meta), testMeta('q'));
    expect(await quotaPage.evaluate((e) => window.spadeStore.commitEpoch('quota', 'q', e), epochs[0]!)).toEqual({
      ok: true,
    });
    const full = await quotaPage.evaluate((e) => window.spadeStore.commitPadded('quota', 'q', e, 8), epochs[1]!);
    expect(full).toMatchObject({
      ok: false,
      error: {
        name: 'StoreQuotaError',
        code: 'quota_exceeded',
        message: expect.stringMatching(/^Storage is full: epoch 1 of run q/),
      },
    });
    const kept = await quotaPage.evaluate(() => window.spadeStore.snapshot('quota', 'q'));
    expect(kept!.meta.epochsCompleted).toBe(1);
    expect(kept!.environments.map((e) => e.id)).toEqual(['e0000-s00', 'e0000-s01']);
    expect(kept!.episodes).toEqual(epochs[0]!.episodes);
    expect(kept!.state).toEqual(epochs[0]!.nextState);
    expect(await quotaPage.evaluate((e) => window.spadeStore.commitEpoch('quota', 'q', e), epochs[1]!)).toEqual({
      ok: true,
    });
    expect((await quotaPage.evaluate(() => window.spadeStore.snapshot('quota', 'q')))!.meta.epochsCompleted).toBe(2);
    expect(['granted', 'denied']).toContain(await quotaPage.evaluate(() => window.spadeStore.persist()));
    expect((await quotaPage.evaluate(() => window.spadeStore.estimate()))!.quota).toBeGreaterThan(0);
  });
});
