// Compare view benchmark: 10 synthetic stored runs of 50 epochs each (metrics and an evaluation
// every 5 epochs) in Chromium's real IndexedDB; the figure is the view's render after the data
// is loaded (mount to every overlay chart drawn), median over the repeats after a warm-up.
import { startRig } from '../browser/harness.ts';
import type { CompareBenchTimes } from './compare-bench-page.ts';

/** What the benchmark reports. */
export interface CompareFigures {
  runs: number;
  epochs: number;
  renderMedianMs: number;
  renderMaxMs: number;
  loadMedianMs: number;
  repeats: number;
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Runs the compare view benchmark in Chromium: `repeats` timed renders after one warm-up. */
export async function measureCompareView(runs = 10, epochs = 50, repeats = 9): Promise<CompareFigures> {
  const rig = await startRig();
  try {
    const page = await rig.open('/tests/bench/compare-bench-page.html');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.waitForFunction('typeof window.spadeCompareBench === "function"', undefined, { timeout: 60_000 });
    const times = (await page.evaluate(([r, e, n]) => window.spadeCompareBench(r, e, n), [
      runs,
      epochs,
      repeats + 1,
    ] as const)) as CompareBenchTimes;
    const render = times.renderMs.slice(1);
    return {
      runs,
      epochs,
      renderMedianMs: median(render),
      renderMaxMs: Math.max(...render),
      loadMedianMs: median(times.loadMs.slice(1)),
      repeats,
    };
  } finally {
    await rig.close();
  }
}

/** Formats the figures for the terminal. */
export function formatCompareFigures(f: CompareFigures): string {
  return [
    `Compare view (Chromium, real IndexedDB, synthetic stored runs)`,
    `  compare view: ${f.runs} runs x ${f.epochs} epochs, render after data load   median ${f.renderMedianMs.toFixed(1)} ms   max ${f.renderMaxMs.toFixed(1)} ms   (${f.repeats} renders after a warm-up)`,
    `  comparison read from the store                     median ${f.loadMedianMs.toFixed(1)} ms`,
    '',
  ].join('\n');
}
