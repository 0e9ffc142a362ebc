import { defineConfig } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { nodeTestTiers } from './tests/tiers.ts';

// Three tiers by cost: unit (no Python, no processes), integration (real Pyodide, the CLI,
// subprocesses) and browser (real Chromium). tests/tiers.ts decides from each file's imports.
const tiers = nodeTestTiers(import.meta.dirname);

export default defineConfig({
  plugins: [svelte()],
  test: {
    // A test that checks nothing fails.
    expect: { requireAssertions: true },
    // Vitest's default on 2 cores is one worker, and the node tiers then leave a core idle while a
    // test waits on its Python child; the browser tier stays one file at a time (fileParallelism).
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit,
          // Pure tests share nothing between files, so a worker reuses its loaded modules across them.
          isolate: false,
          environment: 'node',
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: tiers.integration,
          environment: 'node',
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
          globalSetup: ['tests/browser/vite-global-setup.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
