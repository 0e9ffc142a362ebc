import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { LongestFirstSequencer } from './tests/longest-first.ts';
import { nodeTestTiers } from './tests/tiers.ts';

// Three tiers by cost: unit (no Python, no processes), integration (real Pyodide, the CLI,
// subprocesses) and browser (real Chromium). tests/tiers.ts decides from each file's imports.
const tiers = nodeTestTiers(import.meta.dirname);

// The Node tiers' test files remove the temporary folders they made with tests/fixtures/temp-dirs.ts.
const REMOVE_TEMP_DIRS = 'tests/fixtures/temp-dirs-setup.ts';

// Browser files that assert how long something takes on the page (a main-thread stall, a cancel,
// a chart's first draw): they run last, one at a time, with nothing else on the cores.
const TIMED_BROWSER = ['charts-demo', 'sandbox-runtime', 'webllm-engine', 'webllm-files'].map(
  (name) => `tests/browser/${name}.test.ts`,
);

export default defineConfig({
  plugins: [svelte()],
  test: {
    // A test that checks nothing fails.
    expect: { requireAssertions: true },
    // Three phases (sequence.groupOrder), so that Chromium never shares the cores with the Node
    // tiers' Python children: the browser files, three at a time (300 s here, against 500 s one at a
    // time); then the Node tiers, two at a time (a file with Python children keeps about a core
    // busy); then the timed browser files, one at a time.
    maxWorkers: 2,
    // The longest files of each project start first, also on a fresh clone (tests/longest-first.ts).
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit,
          sequence: { groupOrder: 1 },
          // Pure tests share nothing between files, so a worker reuses its loaded modules across them.
          isolate: false,
          environment: 'node',
          setupFiles: [REMOVE_TEMP_DIRS],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          // No file stubs globals or leaves a runtime open, so a worker reuses its loaded modules and
          // the sandbox's once-per-process work (the worker bundle, the fence's launcher, the snapshot's
          // path) across files: a third less time for the same files.
          isolate: false,
          include: tiers.integration,
          sequence: { groupOrder: 1 },
          environment: 'node',
          setupFiles: [REMOVE_TEMP_DIRS],
          // Hang guards, not speed checks: two files share the cores, and CI machines run up to 2.5x slower.
          testTimeout: 180_000,
          hookTimeout: 300_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['tests/browser/**/*.test.ts'],
          exclude: TIMED_BROWSER,
          maxWorkers: 3,
          // Each file opens its own browser and server; sharing loaded modules (playwright-core,
          // the harness) across a worker's files saves about 30 CPU-s of imports a run.
          isolate: false,
          sequence: { groupOrder: 0 },
          globalSetup: ['tests/browser/vite-global-setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser-timed',
          include: TIMED_BROWSER,
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
          // One dev server for the four files (no build), not one each.
          globalSetup: ['tests/browser/vite-global-setup.ts'],
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
