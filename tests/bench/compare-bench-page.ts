// Benchmark-only page module: stores synthetic runs in real IndexedDB, reads their comparison, then
// times the compare view from the data in hand to every chart drawn (tests/bench/compare-bench.ts).
import { mount, unmount } from 'svelte';
import '../../src/ui/shell/theme.css';
import { openIndexedDbRunStore } from '../../src/adapters/store/idb-run-store.ts';
import { Comparison } from '../../src/app/compare/comparison.svelte.ts';
import CompareView from '../../src/ui/compare/CompareView.svelte';
import { storeSyntheticRuns } from '../app/compare-fixtures.ts';

/** Milliseconds per repeat: reading the comparison from the store, and drawing the view after it. */
export interface CompareBenchTimes {
  loadMs: number[];
  renderMs: number[];
}

declare global {
  interface Window {
    spadeCompareBench: (runs: number, epochs: number, repeats: number) => Promise<CompareBenchTimes>;
  }
}

window.spadeCompareBench = async (runs, epochs, repeats) => {
  const store = await openIndexedDbRunStore({ name: `compare-bench-${Date.now()}` });
  const host = document.getElementById('host')!;
  const times: CompareBenchTimes = { loadMs: [], renderMs: [] };
  try {
    const ids = await storeSyntheticRuns(store, runs, epochs);
    for (let i = 0; i < repeats; i++) {
      const compare = new Comparison({ store, save: () => undefined });
      compare.select(ids);
      const started = performance.now();
      await compare.load();
      const loaded = performance.now();
      let view: ReturnType<typeof mount> | null = null;
      await new Promise<void>(
        (resolve) =>
          (view = mount(CompareView, { target: host, props: { compare, dark: false, onrendered: resolve } })),
      );
      times.renderMs.push(performance.now() - loaded);
      times.loadMs.push(loaded - started);
      await unmount(view!);
    }
    return times;
  } finally {
    store.close();
  }
};
