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
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: tiers.unit,
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
          testTimeout: 60_000,
          hookTimeout: 120_000,
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
