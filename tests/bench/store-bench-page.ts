// Benchmark-only page module: runs the store workload on real IndexedDB (tests/bench/store-bench.ts).
import { openIndexedDbRunStore } from '../../src/adapters/store/idb-run-store.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import { runStoreWorkload, type StoreFigures, type StoreWorkload } from './store-workload.ts';

declare global {
  interface Window {
    spadeStoreBench: (base: EpochResult, workload: StoreWorkload) => Promise<StoreFigures>;
  }
}

window.spadeStoreBench = async (base, workload) => {
  const store = await openIndexedDbRunStore({ name: `store-bench-${Date.now()}` });
  try {
    return await runStoreWorkload(store, base, () => performance.now(), workload);
  } finally {
    store.close();
  }
};
