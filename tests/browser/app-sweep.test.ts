import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, type BrowserRig } from './harness.ts';
import { DEMO_TEST_TIMEOUT_MS, screenshot, seriousViolations } from './app-helpers.ts';
import { asShown, shownPattern, shownTexts } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
});
afterAll(async () => {
  await rig?.close();
});

const cells = () => page.getByTestId('sweep-cell');

describe('a sweep in the tab, then its runs side by side', () => {
  it(
    'runs a two-cell demo sweep, picks it up after a reload mid-sweep, and compares the two runs',
    async () => {
      await page.getByRole('button', { name: 'Sweeps', exact: true }).click();
      // A first sweep starts from a grid the scripted demo responds to; one over what it ignores says so before it runs.
      await expect(
        Promise.all([
          page.getByLabel('Grid').inputValue(),
          page.getByLabel('Seeds').inputValue(),
          page.getByLabel('Shared settings (optional)').inputValue(),
        ]),
      ).resolves.toEqual(['playbook=off,on', '1,2', 'eval-every=1']);
      await page
        .getByText(
          '4 runs of 2 epochs: playbook-off_seed-1, playbook-off_seed-2, playbook-on_seed-1, playbook-on_seed-2',
        )
        .waitFor();
      await expect(page.getByTestId('sweep-demo-note').count()).resolves.toBe(0);
      await page.getByLabel('Grid').fill('reward=blend,regret');
      await page
        .getByTestId('sweep-demo-note')
        .filter({
          hasText:
            "The scripted demo's replies ignore reward (the reward variant): every cell of this grid gives the same environments",
        })
        .waitFor();
      await page.getByLabel('Seeds').fill('1');
      await page.getByLabel('Epochs per run').fill('1');
      // One slot and one play per arm: the sweep's queue and resume are the point, not the demo's games.
      await page.getByLabel('Shared settings (optional)').fill('slots=1;plays=1;skills-per-epoch=1;corpus=off');
      await page.getByText('2 runs of 1 epoch: reward-blend_seed-1, reward-regret_seed-1').waitFor();
      await page.getByLabel('Grid').fill('reward=blend,best');
      await page.getByTestId('sweep-error').filter({ hasText: 'reward=best: expected one of blend, regret' }).waitFor();
      await page.getByLabel('Grid').fill('reward=blend,regret');
      await page.getByText('The commands').click();
      await screenshot(page, 'sweep-form');

      await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
      await page.getByRole('button', { name: 'Copy as commands' }).click();
      await page.getByText('Copied 2 command lines.').waitFor();
      await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(
        [
          'npm run --silent spade -- run --model scripted:public/demo/demo-script.json --epochs 1 --out runs/sweep/reward-blend_seed-1 --seed 1 --slots 1 --plays 1 --skills-per-epoch 1 --no-corpus --reward blend',
          'npm run --silent spade -- run --model scripted:public/demo/demo-script.json --epochs 1 --out runs/sweep/reward-regret_seed-1 --seed 1 --slots 1 --plays 1 --skills-per-epoch 1 --no-corpus --reward regret',
          '',
        ].join('\n'),
      );

      await page.getByRole('button', { name: 'Start the sweep' }).click();
      await cells().first().and(page.locator('[data-status="running"]')).waitFor({ timeout: 30_000 });
      await page.reload();
      await page.getByText('A reload interrupted this sweep at cell 1 of 2').waitFor({ timeout: 30_000 });
      await page
        .getByTestId('sweep-progress')
        .and(page.locator('[data-status="finished"]'))
        .waitFor({ timeout: 180_000 });
      await expect(cells().evaluateAll((items) => items.map((li) => li.getAttribute('data-status')))).resolves.toEqual([
        'completed',
        'completed',
      ]);

      await page.getByRole('button', { name: 'Compare these runs' }).click();
      await page.getByTestId('compare-view').and(page.locator('[data-rendered="true"]')).waitFor({ timeout: 30_000 });
      const differences = await shownTexts(page.getByTestId('differences').locator('tbody tr'));
      expect(differences).toEqual(['rewardblendregret']);
      await expect(page.getByTestId('overlay-chart').count()).resolves.toBe(5);
      // Four charts drawn with both runs' points; the held-out one says that neither run was evaluated.
      await expect(page.locator('[data-testid="overlay-chart"][data-drawn="true"] canvas').count()).resolves.toBe(4);
      await page
        .locator('[data-chart="held-out"]')
        .getByText('None of these runs has a held-out evaluation yet.')
        .waitFor();
      await expect(page.locator('[data-chart="win-rate"]').getAttribute('data-points')).resolves.toBe('2');
      await page.getByTestId('unevaluated').filter({ hasText: 'reward-blend_seed-1, reward-regret_seed-1' }).waitFor();
      const downloading = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export CSV of the comparison' }).click();
      const download = await downloading;
      expect(download.suggestedFilename()).toBe('spade-comparison-2-runs.csv');
      const csv = readFileSync((await download.path())!, 'utf8').split('\n');
      expect([csv[0], csv[1]!.split(',')[0], csv[1]!.split(',').at(-1), csv[2]!.split(',').at(-1)]).toEqual([
        'run,epochs,winRate,regret,validity,designerReward,heldOutSuite,heldOutWinRate,heldOutCi95Low,heldOutCi95High,heldOutAfterEpochs,heldOutMinusFirst,heldOutMinusFirstLow,heldOutMinusFirstHigh,reward',
        'reward-blend_seed-1',
        'blend',
        'regret',
      ]);
      await screenshot(page, 'compare-view');
      expect(await seriousViolations(page)).toEqual([]);

      // The Runs list shows each run's settings and numbers, and the same comparison from its checkboxes.
      await page.getByRole('button', { name: 'Runs', exact: true }).click();
      await page.getByText('reward regret · memory on · corpus off · playbook off · seed 1 · K 1 · designer').waitFor();
      await expect(page.getByText(shownPattern(/^not evaluated · last epoch 1: win rate /)).count()).resolves.toBe(2);
      await expect(page.getByRole('button', { name: 'Compare selected (2)' }).isEnabled()).resolves.toBe(true);
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it(
    "brings the progress up on start and shows each cell's held-out mean and interval, the figures of the comparison",
    async () => {
      await page.getByRole('button', { name: 'Sweeps', exact: true }).click();
      await page.getByLabel('Grid').fill('playbook=off,on');
      await page.getByLabel('Seeds', { exact: true }).fill('1');
      await page.getByLabel('Epochs per run').fill('1');
      // One play per held-out environment: the figures are the point, not the demo's games.
      await page
        .getByLabel('Shared settings (optional)')
        .fill('slots=1;plays=1;skills-per-epoch=1;corpus=off;eval-every=1;eval-seeds=1');
      await page.getByText('2 runs of 1 epoch: playbook-off_seed-1, playbook-on_seed-1').waitFor();
      await page.getByRole('button', { name: 'Start the sweep' }).click();
      await cells().first().filter({ hasText: 'playbook-off_seed-1' }).waitFor();
      // Focus moves to the progress heading once the runs are created (a wait that times out when it never does).
      await page.waitForFunction(() => document.activeElement?.id === 'sweep-progress-title', undefined, {
        timeout: 30_000,
      });
      const title = page.locator('#sweep-progress-title');
      const box = await title.boundingBox();
      expect(box!.y).toBeGreaterThanOrEqual(0);
      expect(box!.y + box!.height).toBeLessThanOrEqual(page.viewportSize()!.height);

      await page
        .getByTestId('sweep-progress')
        .and(page.locator('[data-status="finished"]'))
        .waitFor({ timeout: 240_000 });
      const figure = /^\d\.\d\d \(\d\.\d\d to \d\.\d\d\)$/;
      const rows = page.getByTestId('sweep-figures').locator('tbody tr');
      await rows.nth(1).locator('td').nth(2).filter({ hasText: figure }).waitFor({ timeout: 30_000 });
      const table = (
        await rows.evaluateAll((trs) => trs.map((tr) => [...tr.children].map((cell) => cell.textContent!)))
      ).map((row) => row.map(asShown));
      expect(table.map((row) => row.slice(0, 3))).toEqual([
        ['usePlaybook=off', '1', '1 of 1 run completed'],
        ['usePlaybook=on', '1', '1 of 1 run completed'],
      ]);
      expect(table.map((row) => row[3])).toEqual([expect.stringMatching(figure), expect.stringMatching(figure)]);
      await screenshot(page, 'sweep-figures');

      // The same numbers as the comparison of the two runs: one seed each, so each cell's mean is its run's own figure.
      await page.getByRole('button', { name: 'Compare these runs' }).click();
      const finals = page.getByTestId('finals').locator('tbody tr');
      await finals.first().waitFor({ timeout: 30_000 });
      const compared = (await finals.evaluateAll((trs) => trs.map((tr) => tr.children[6]!.textContent!))).map(
        (cell) => asShown(cell).split(' after ')[0],
      );
      expect(compared).toEqual(table.map((row) => row[3]));
    },
    DEMO_TEST_TIMEOUT_MS,
  );
});
