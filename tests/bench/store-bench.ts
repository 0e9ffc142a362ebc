// Store benchmark: commitEpoch median and p95, explorer queries over 10,000 environments and
// 100,000 episodes, and the export of 1,000 environments; in Node on fake-indexeddb (an
// in-memory JavaScript IndexedDB, so its numbers are not a browser's) and in Chromium on real
// IndexedDB. The workload is in store-workload.ts.
import { IDBFactory } from 'fake-indexeddb';
import 'fake-indexeddb/auto';
import { performance } from 'node:perf_hooks';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { openIndexedDbRunStore } from '../../src/adapters/store/idb-run-store.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import { scriptedEpochs } from '../adapters/store/store-fixtures.ts';
import { startRig } from '../browser/harness.ts';
import { ISSUE_WORKLOAD, runStoreWorkload, type StoreFigures, type StoreWorkload } from './store-workload.ts';

/** One real scripted epoch (2 environments, 8 episodes), the template of the synthetic ones. */
export async function baseEpoch(): Promise<EpochResult> {
  const sandbox = createNodeSandboxRuntime();
  try {
    return (await scriptedEpochs(sandbox, 1))[0]!;
  } finally {
    await sandbox.close();
  }
}

/** The workload on fake-indexeddb in this Node process (a fresh factory). */
export async function measureStoreNode(
  base: EpochResult,
  workload: StoreWorkload = ISSUE_WORKLOAD,
): Promise<StoreFigures> {
  globalThis.indexedDB = new IDBFactory();
  const store = await openIndexedDbRunStore({ name: 'store-bench' });
  try {
    return await runStoreWorkload(store, base, () => performance.now(), workload);
  } finally {
    store.close();
  }
}

/** The workload on real IndexedDB in Chromium (tests/bench/store-bench-page.html). */
export async function measureStoreBrowser(
  base: EpochResult,
  workload: StoreWorkload = ISSUE_WORKLOAD,
): Promise<StoreFigures> {
  const rig = await startRig();
  try {
    const page = await rig.open('/tests/bench/store-bench-page.html');
    await page.waitForFunction('typeof window.spadeStoreBench === "function"', undefined, { timeout: 60_000 });
    return (await page.evaluate(([b, w]) => window.spadeStoreBench(b, w), [base, workload] as const)) as StoreFigures;
  } finally {
    await rig.close();
  }
}

/** Formats the figures for the terminal. */
export function formatStoreFigures(name: string, f: StoreFigures): string {
  const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 0)} ms`;
  return [
    `Store (${name}): ${f.environments.toLocaleString('en')} environments, ${f.episodes.toLocaleString('en')} episodes`,
    `  commitEpoch median            ${ms(f.commitMedianMs)}   p95 ${ms(f.commitP95Ms)}   (4 environments, 40 episodes, 40 rollout rows each)`,
    ...Object.entries(f.queries).map(([label, v]) => `  ${label.padEnd(56)}${ms(v)}`),
    `  export pool, 1,000 environments  ${ms(f.exportPoolMs)}   (${(f.exportPoolBytes / 1024).toFixed(0)} KiB zip)`,
    `  export archive, same run         ${ms(f.exportArchiveMs)}`,
    `  charts data, first read          ${ms(f.charts.coldLoadMs)}   (every epoch of the big run)`,
    `  charts data, re-read             ${ms(f.charts.warmLoadMs)}   (epochs already summarised)`,
    `  chart series built               ${ms(f.charts.buildMs)}   (${f.charts.points.toLocaleString('en')} points)`,
    '',
  ].join('\n');
}
