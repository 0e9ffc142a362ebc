// The explorer over a seeded store of 10,000 environments in real Chromium and real IndexedDB:
// filters and sort (time to first rows printed, no timed assertion), virtualisation while
// scrolling to the end, keyboard operation, opening an environment, the run's charts (time to the
// first chart printed); axe and screenshots.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { screenshot, seriousViolations } from './app-helpers.ts';
import type { BrowserRig } from './harness.ts';
import type { SeedSummary } from './pages/explorer-seed.ts';
import { openSeededRun } from './seeded-run.ts';
import { asShown, shownPattern, shownText } from './page-text.ts';

const EPOCHS = 500;
const RUN_ID = 'run-explorer-10k';
let rig: BrowserRig;
let page: Page;
let summary: SeedSummary;

beforeAll(async () => {
  ({ rig, page, summary } = await openSeededRun(RUN_ID, EPOCHS));
  console.log(`seeded ${summary.environments} environments into IndexedDB in ${(summary.ms / 1000).toFixed(1)} s`);
}, 300_000);
afterAll(() => rig?.close());

const status = () => page.getByTestId('explorer-status');
const rows = () => page.getByTestId('explorer-row');

/** Waits until the explorer shows `count` environments and returns [wall ms, in-app ms]. */
async function firstRows(action: () => Promise<unknown>, count: number): Promise<[number, number]> {
  const started = Date.now();
  await action();
  await status()
    .filter({
      hasText: shownPattern(new RegExp(`^${count.toLocaleString('en')} environments? · first rows in \\d+ ms`)),
    })
    .waitFor({ timeout: 30_000 });
  const wall = Date.now() - started;
  const inApp = Number(await page.locator('table[data-load-ms]').getAttribute('data-load-ms'));
  return [wall, inApp];
}

/** Waits until the column headed by the `name` sort button says it is sorted in `order`. */
async function sortedBy(name: string, order: 'ascending' | 'descending'): Promise<void> {
  await page
    .locator(`th[aria-sort="${order}"]`, { has: page.getByRole('button', { name }) })
    .waitFor({ timeout: 30_000 });
}

async function column(index: number): Promise<string[]> {
  return (
    await page.$$eval(
      'tr[data-testid="explorer-row"]',
      (trs, i) => trs.filter((tr) => tr.children.length > 1).map((tr) => tr.children[i]!.textContent!),
      index,
    )
  ).map(asShown);
}

describe('explorer over 10,000 environments', () => {
  it('lists every environment of the run the app opened', async () => {
    expect(summary.environments).toBe(10_000);
    const [wall, inApp] = await firstRows(() => page.getByRole('button', { name: 'Explorer' }).click(), 10_000);
    console.log(
      `explorer, all 10,000: first rows in ${inApp.toFixed(0)} ms in the app (${wall} ms wall, with the click)`,
    );
    expect(await column(0)).toEqual(expect.arrayContaining(['e0000-s00', 'e0000-s01']));
    expect(await rows().count()).toBeLessThan(60);
    await screenshot(page, 'explorer-10k');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('filters by skill and status, and sorts by regret, matching the seeded counts', async () => {
    let [wall, inApp] = await firstRows(
      () => page.getByLabel('Skill').selectOption('Optimization'),
      summary.perSkill['Optimization']!,
    );
    console.log(
      `explorer, skill filter (${summary.perSkill['Optimization']} rows): first rows in ${inApp.toFixed(0)} ms in the app (${wall} ms wall)`,
    );
    expect(new Set(await column(2))).toEqual(new Set(['Optimization']));
    // Each row names its environment's class beside the skill, in full.
    expect((await column(1)).every((name) => /^Synthetic\d+Env$/.test(name))).toBe(true);
    const rejected = summary.rejectedPerSkill['Optimization']!;
    expect(rejected).toBeGreaterThan(0);
    [wall, inApp] = await firstRows(() => page.getByLabel('Status').selectOption('rejected'), rejected);
    console.log(
      `explorer, skill + status rejected (${rejected} rows): first rows in ${inApp.toFixed(0)} ms in the app (${wall} ms wall)`,
    );
    expect(new Set(await column(4))).toEqual(new Set(['rejected']));
    expect((await column(9)).every((reason) => reason.startsWith('probe/step_bad_return: Expected step()'))).toBe(true);
    const validOptimization = summary.perSkill['Optimization']! - rejected;
    await firstRows(() => page.getByLabel('Status').selectOption('valid'), validOptimization);
    expect(new Set(await column(4))).toEqual(new Set(['valid']));
    // The count is the same before and after the sort: wait for the header to change first, or
    // the old status line would pass for the sorted one.
    [wall, inApp] = await firstRows(async () => {
      await page.getByRole('button', { name: 'Regret' }).click();
      await sortedBy('Regret', 'descending');
    }, validOptimization);
    console.log(
      `explorer, skill + status filter, sorted by regret (${validOptimization} rows): first rows in ${inApp.toFixed(0)} ms in the app (${wall} ms wall)`,
    );
    await expect(
      page.locator('th', { has: page.getByRole('button', { name: 'Regret' }) }).getAttribute('aria-sort'),
    ).resolves.toBe('descending');
    const regrets = (await column(6)).map(Number);
    expect(regrets.length).toBeGreaterThan(10);
    expect(regrets).toEqual([...regrets].sort((a, b) => b - a));
    await screenshot(page, 'explorer-filtered-sorted');
  });

  it('scrolls to the end with only a few rows in the page at any time', async () => {
    await page.getByLabel('Skill').selectOption('');
    await page.getByLabel('Status').selectOption('');
    await status()
      .filter({ hasText: shownPattern(/^10,000 environments · first rows in/) })
      .waitFor();
    const started = Date.now();
    await page.getByTestId('explorer-scroller').evaluate((el) => (el.scrollTop = el.scrollHeight));
    const last = page.locator('tr[aria-rowindex="10001"] button');
    await last.waitFor({ timeout: 30_000 });
    console.log(
      `explorer, scrolled to row 10,000: its row rendered in ${Date.now() - started} ms; ${await rows().count()} rows in the DOM`,
    );
    expect(await rows().count()).toBeLessThan(60);
    expect(await page.locator('tr').count()).toBeLessThan(70);
    // Sorted by regret, descending: the unscored (rejected) environments come last.
    await expect(shownText(page.locator('tr[aria-rowindex="10001"] td').nth(3))).resolves.toBe('rejected');
  });

  it('is keyboard operable: epoch filter, sort header, arrow keys between rows, Enter opens', async () => {
    await firstRows(() => page.getByLabel('Epoch').selectOption({ label: `Epoch ${EPOCHS}` }), 20);
    await page.getByRole('button', { name: 'Epoch' }).focus();
    await page.keyboard.press('Enter');
    await sortedBy('Epoch', 'ascending');
    await page.locator('tr[aria-rowindex="2"] button').waitFor();
    expect((await column(0)).slice(0, 2)).toEqual([`e0${EPOCHS - 1}-s00`, `e0${EPOCHS - 1}-s01`]);
    const rejected = page.locator('tr[aria-rowindex="3"]');
    await expect(shownText(rejected.locator('td').nth(3))).resolves.toBe('rejected');
    await expect(shownText(rejected.locator('td.reason'))).resolves.toMatch(
      /^probe\/step_bad_return: Expected step\(\) to return a 5-tuple/,
    );
    await expect(shownText(page.locator('tr[aria-rowindex="2"] td').nth(7))).resolves.toBe('yes');
    await page.locator('tr[aria-rowindex="2"] button').focus();
    await page.keyboard.press('ArrowDown');
    await expect(page.evaluate(() => document.activeElement?.textContent ?? '').then(asShown)).resolves.toBe(
      `e0${EPOCHS - 1}-s01`,
    );
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Environment e0${EPOCHS - 1}-s00` }).waitFor({ timeout: 30_000 });
    await expect(page.getByText('Multiplying late gets you further').count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'env-page-from-10k');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('comes back to the same filters', async () => {
    await page.getByRole('button', { name: 'Back to the explorer' }).click();
    await status()
      .filter({ hasText: shownPattern(/^20 environments · first rows in/) })
      .waitFor();
    await expect(page.getByLabel('Epoch').inputValue()).resolves.toBe(String(EPOCHS - 1));
  });

  it('charts the 500-epoch run: the first chart drawn, then every one, with data (times printed)', async () => {
    const started = Date.now();
    await page.getByRole('button', { name: 'Charts', exact: true }).click();
    await page.locator('[data-testid="chart"][data-render-ms] canvas').first().waitFor({ timeout: 30_000 });
    const firstChart = Date.now() - started;
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll('[data-testid="chart"]')].every((card) => card.hasAttribute('data-render-ms')),
      undefined,
      { timeout: 30_000 },
    );
    const allCharts = Date.now() - started;
    const points = await page
      .locator('[data-testid="chart"]')
      .evaluateAll((cards) => cards.map((card) => Number(card.getAttribute('data-points'))));
    console.log(
      `charts of the 500-epoch run: first chart drawn ${firstChart} ms after the click, all ${points.length} in ${allCharts} ms (${points.reduce((a, b) => a + b, 0)} points)`,
    );
    expect(points.length).toBeGreaterThan(3);
    expect(Math.max(...points)).toBeGreaterThanOrEqual(EPOCHS);
  });
});
