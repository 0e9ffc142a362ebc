// Two tabs of one browser (one context: the same IndexedDB, Web Locks and BroadcastChannel): tab A
// runs the demo; tab B sees the run as running in another tab, follows it read-only and live, and
// sees it complete; a tab closed mid-run leaves its run interrupted, in the live view and the Runs
// list alike.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { startRig, type BrowserRig } from './harness.ts';
import { createDemoRun, DEMO_TEST_TIMEOUT_MS, screenshot } from './app-helpers.ts';
import { shownPattern, shownText } from './page-text.ts';

let rig: BrowserRig;
let tabA: Page;
let tabB: Page;
beforeAll(async () => {
  rig = await startRig();
  // The normal pace: an epoch lasts long enough to be watched from the other tab. No score hold
  // between the epochs (not what this file tests): the second epoch starts at the first's commit.
  tabA = await rig.open('/', { demoSpeed: 'normal', scoreHold: 'off' });
});
afterAll(async () => {
  await rig?.close();
});

/** Opens another tab of tab A's browser at the app. */
async function newTab(): Promise<Page> {
  const page = await tabA.context().newPage();
  await page.goto(rig.appUrl);
  return page;
}

/** A run's line in a tab's Runs list: its model, status and epochs (the status word also in `data-status`). */
function listedStatus(page: Page, name: string): Locator {
  return page
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name, exact: true }) })
    .getByTestId('run-list-status');
}

async function showRuns(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Runs', exact: true }).click();
  await page.getByRole('heading', { name: 'Runs', level: 2 }).waitFor();
}

/** The current epoch's progress as tab B shows it (0..1), or -1 before there is one. */
async function progressOf(page: Page): Promise<number> {
  const bar = page.getByRole('region', { name: 'Run controls' }).locator('progress');
  return (await bar.count()) === 0 ? -1 : Number(await bar.getAttribute('value'));
}

describe('a second tab on a run another tab runs', () => {
  it(
    'lists it as running in another tab, follows it read-only and live, and shows it completed',
    async () => {
      await createDemoRun(tabA, 'followed', 2);
      await tabA.getByTestId('run-status').filter({ hasText: 'running' }).waitFor({ timeout: 30_000 });
      tabB = await newTab();
      await showRuns(tabB);
      await listedStatus(tabB, 'followed').filter({ hasText: 'running in another tab' }).waitFor({ timeout: 15_000 });
      const deleteButton = tabB.getByRole('button', { name: 'Delete run followed' });
      await expect(deleteButton.isDisabled()).resolves.toBe(true);
      await screenshot(tabB, 'second-tab-list-running');

      await tabB.getByRole('button', { name: 'followed', exact: true }).click();
      await tabB.getByTestId('read-only-note').waitFor({ timeout: 15_000 });
      await expect(shownText(tabB.getByTestId('read-only-note'))).resolves.toContain('Running in another tab.');
      await expect(shownText(tabB.getByTestId('run-status'))).resolves.toBe('running');
      for (const name of ['Start', 'Continue', 'Pause', 'Step', 'Resume', 'Abort'])
        await expect(tabB.getByRole('button', { name, exact: true }).count()).resolves.toBe(0);
      await expect(tabB.getByText(shownPattern(/interrupted/)).count()).resolves.toBe(0);

      // The current epoch's progress grows in B as A works, and B's slot cards fill in.
      await tabB.getByRole('region', { name: 'Run controls' }).locator('progress').waitFor({ timeout: 30_000 });
      const first = await progressOf(tabB);
      await tabB.waitForFunction(
        (before) =>
          Number(document.querySelector('[aria-label="Run controls"] progress')?.getAttribute('value') ?? -1) > before,
        first,
        { timeout: 60_000, polling: 200 },
      );
      await tabB.getByText('Design attempt 1').first().waitFor({ timeout: 30_000 });
      await screenshot(tabB, 'second-tab-read-only');
      // Following live is shown: tab A finishes the rest at once (the rest of the test is about the commits).
      await tabA.getByLabel('Demo speed').selectOption('instant');

      // The first commit shows in B while A goes on with epoch 2.
      await tabB.getByText(shownPattern(/epochs 1 \/ 2/)).waitFor({ timeout: 180_000 });
      await tabB.getByTestId('epoch-row').first().waitFor({ timeout: 30_000 });
      await expect(shownText(tabB.getByTestId('run-status'))).resolves.toMatch(/^(running|completed)$/);

      await tabA.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 240_000 });
      await tabB.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 15_000 });
      await expect(tabB.getByTestId('read-only-note').count()).resolves.toBe(0);
      await expect(tabB.getByTestId('epoch-row').count()).resolves.toBe(2);
      await screenshot(tabB, 'second-tab-completed');
      await showRuns(tabB);
      await expect(listedStatus(tabB, 'followed').getAttribute('data-status')).resolves.toBe('completed');
      await expect(shownText(listedStatus(tabB, 'followed'))).resolves.toContain(' · completed · epochs 2/2');
      // Later tabs of this browser stream at the normal pace again (the speed is kept in its storage).
      await tabA.getByLabel('Demo speed').selectOption('normal');
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it(
    'shows a run whose tab closed mid-run as interrupted, in the live view and the Runs list alike',
    async () => {
      const tabC = await newTab();
      await createDemoRun(tabC, 'abandoned', 2);
      await tabC.getByText(shownPattern(/Epoch 1: slots/)).waitFor({ timeout: 60_000 });
      await listedStatus(tabB, 'abandoned').filter({ hasText: 'running in another tab' }).waitFor({ timeout: 15_000 });
      await tabB.getByRole('button', { name: 'abandoned', exact: true }).click();
      await tabB.getByTestId('read-only-note').waitFor({ timeout: 15_000 });
      await tabB.getByRole('region', { name: 'Run controls' }).locator('progress').waitFor({ timeout: 30_000 });

      await tabC.close();
      await tabB.getByTestId('run-status').filter({ hasText: 'interrupted' }).waitFor({ timeout: 15_000 });
      await tabB.getByText(shownPattern(/This run was interrupted during epoch 1/)).waitFor({ timeout: 5_000 });
      await expect(tabB.getByTestId('read-only-note').count()).resolves.toBe(0);
      await expect(tabB.getByRole('button', { name: 'Start', exact: true }).isEnabled()).resolves.toBe(true);
      await screenshot(tabB, 'second-tab-interrupted');
      await showRuns(tabB);
      await expect(listedStatus(tabB, 'abandoned').getAttribute('data-status')).resolves.toBe('interrupted');
      await expect(shownText(listedStatus(tabB, 'abandoned'))).resolves.toContain(' · interrupted · epochs 0/2');
      await expect(tabB.getByRole('button', { name: 'Delete run abandoned' }).isEnabled()).resolves.toBe(true);
      await screenshot(tabB, 'second-tab-list-interrupted');

      // Tab A's list says the same.
      await showRuns(tabA);
      await expect(listedStatus(tabA, 'abandoned').getAttribute('data-status')).resolves.toBe('interrupted');
    },
    DEMO_TEST_TIMEOUT_MS,
  );
});
