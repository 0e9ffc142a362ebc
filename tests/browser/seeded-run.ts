// A big run seeded into the app's own IndexedDB (pages/explorer-seed.html) for the explorer and
// environment-page files. Node builds the featured environments in its sandbox (a Pyodide start of
// several seconds) while Chromium starts and the page writes the earlier epochs: the two overlap
// instead of following each other.
import type { Page } from 'playwright-core';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import { featuredEnvironments, SEED_CONFIG, seedMeta } from './explorer-fixtures.ts';
import { startRig, type BrowserRig } from './harness.ts';
import type { SeedSummary } from './pages/explorer-seed.ts';

/** Seeds run `runId` of `epochs` epochs (SEED_CONFIG's slots each), remembers it as the last run and opens the app on it at 1280x900. */
export async function openSeededRun(
  runId: string,
  epochs: number,
): Promise<{ rig: BrowserRig; page: Page; summary: SeedSummary }> {
  const sandbox = createNodeSandboxRuntime();
  const featured = featuredEnvironments(sandbox, epochs - 1).finally(() => sandbox.close());
  // Handled below, once the page can take them; a failure meanwhile is not an unhandled rejection.
  featured.catch(() => undefined);
  const rig = await startRig();
  try {
    const context = await rig.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
    const page = await context.newPage();
    await page.goto(`${rig.baseUrl}/tests/browser/pages/explorer-seed.html`);
    await page.waitForFunction(() => typeof window.spadeExplorerSeed === 'function', undefined, { timeout: 60_000 });
    const request = { meta: seedMeta(runId, epochs), epochs, slots: SEED_CONFIG.slotsPerEpoch };
    const [summary] = await Promise.all([
      page.evaluate((seeding) => window.spadeExplorerSeed(seeding), request),
      featured.then((built) => page.evaluate((given) => window.spadeExplorerFeatured(given), built)),
    ]);
    await page.evaluate((id) => localStorage.setItem('spade-lab-last-run', id), runId);
    await page.goto(rig.appUrl);
    return { rig, page, summary };
  } catch (error) {
    await rig.close();
    throw error;
  }
}
