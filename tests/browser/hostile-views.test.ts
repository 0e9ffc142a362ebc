// Views on hostile records, in the production build: Svelte's keyed lists throw
// `each_key_duplicate` there on a repeated key and the view never renders. Run archives are read
// by a test page as the app's import reads them (without re-validating, which needs Python): one
// whose environment has two design attempts both numbered 0, and three runs named "Twin",
// "Twin (2)" and "Twin", compared side by side (and on a 390 px phone).
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildArchiveFiles } from '../../src/formats/export/run-archive.ts';
import type { RunSnapshot } from '../../src/formats/export/run-snapshot.ts';
import { epochsOfDump, readV1Dump } from '../adapters/store/dump-fixture.ts';
import { testMeta } from '../adapters/store/store-fixtures.ts';
import { startRig, type BrowserRig } from './harness.ts';
import { shownTexts } from './page-text.ts';

const EPOCHS = epochsOfDump(readV1Dump(), 'real');
const ENV = 'e0000-s01';
const NAMES = ['Twin', 'Twin (2)', 'Twin'];

// A completed two-epoch run whose environment ENV's attempts are both numbered 0.
function hostileSnapshot(id: string, name: string): RunSnapshot {
  const environments = EPOCHS.flatMap((e) => e.environments).map((env) =>
    env.id === ENV ? { ...env, attempts: env.attempts.map((a) => ({ ...a, attempt: 0 })) } : env,
  );
  return {
    meta: { ...testMeta(id), name, status: 'completed', epochsCompleted: EPOCHS.length },
    state: EPOCHS.at(-1)!.nextState,
    epochs: EPOCHS.map((e) => ({ metrics: e.metrics, timings: e.timings })),
    environments,
    episodes: EPOCHS.flatMap((e) => e.episodes),
    rollouts: [],
    evaluations: [],
  };
}

let rig: BrowserRig;
let page: Page;
const errors: string[] = [];

beforeAll(async () => {
  expect(EPOCHS.flatMap((e) => e.environments).find((env) => env.id === ENV)!.attempts).toHaveLength(2);
  rig = await startRig();
  const context = await rig.browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: 'block' });
  page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())));
  await page.goto(`${rig.baseUrl}/tests/browser/pages/archive-restore.html`);
  await page.waitForFunction(() => typeof window.spadeRestoreArchive === 'function', undefined, { timeout: 60_000 });
  for (const [i, name] of NAMES.entries()) {
    const files = await buildArchiveFiles(hostileSnapshot(`twin-${i}`, name), async (text) =>
      createHash('sha256').update(text, 'utf8').digest('hex'),
    );
    expect(await page.evaluate((f) => window.spadeRestoreArchive(f), files)).toEqual([]);
  }
  await page.evaluate(() => localStorage.setItem('spade-lab-last-run', 'twin-0'));
  await page.goto(rig.appUrl);
  errors.length = 0;
}, 120_000);
afterAll(() => rig?.close());

describe('views on hostile records', () => {
  it('an environment with two attempts numbered 0 opens its page, both attempts listed', async () => {
    await page.getByRole('button', { name: 'Explorer' }).click();
    await page.getByRole('button', { name: ENV, exact: true }).click();
    await page.getByRole('heading', { name: `Environment ${ENV}` }).waitFor({ timeout: 30_000 });
    const attempts = page
      .getByRole('region', { name: 'Design attempts and their validation' })
      .locator('ol.attempts > li');
    await expect(attempts.count()).resolves.toBe(2);
    await expect(shownTexts(attempts)).resolves.toEqual([
      expect.stringMatching(/^Attempt 1/),
      expect.stringMatching(/^Attempt 1/),
    ]);
    expect(errors.filter((e) => /each_key_duplicate/.test(e))).toEqual([]);
  });

  it('runs named "Twin", "Twin (2)" and "Twin" are compared under three labels', async () => {
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    const twins = page.getByRole('checkbox', { name: 'Select Twin for comparison' });
    await twins.first().waitFor({ timeout: 30_000 });
    await expect(twins.count()).resolves.toBe(2);
    // Picked in the order of the names: "Twin", "Twin (2)", "Twin".
    await twins.nth(0).check();
    await page.getByRole('checkbox', { name: 'Select Twin (2) for comparison' }).check();
    await twins.nth(1).check();
    await page.getByRole('button', { name: 'Compare selected (3)' }).click();
    const legend = page.getByRole('list', { name: 'Runs' });
    await legend.waitFor({ timeout: 30_000 });
    const labels = (await shownTexts(legend.getByRole('listitem'))).map((text) => text.replace(/ ?\(scripted:.*$/, ''));
    expect([...labels].sort()).toEqual(['Twin', 'Twin (2)', 'Twin (3)']);
    const rows = await shownTexts(page.locator('table tbody th[scope="row"]'));
    expect(rows.filter((row) => row.startsWith('Twin')).sort()).toEqual(['Twin', 'Twin (2)', 'Twin (3)']);
    expect(errors.filter((e) => /each_key_duplicate/.test(e))).toEqual([]);
  });

  it('the comparison of the three runs fits a 390 px phone: its wide tables scroll in their own box, not the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('heading', { name: 'Final figures' }).waitFor();
    // Let the charts take the narrower width (they follow their box).
    await page
      .waitForFunction(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth, null, {
        timeout: 5_000,
      })
      .catch(() => undefined);
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    const finals = page.getByRole('region', { name: 'Final figures' });
    await expect(finals.evaluate((box) => box.scrollWidth > box.clientWidth)).resolves.toBe(true);
  });
});
