// Issue 13 in the real app (real IndexedDB, real sandbox, the scripted demo model at instant
// pace): a run with the playbook on and an evaluation every epoch, its held-out chart, the
// playbook panel (a lesson learned, then edited and kept across a reload), "Evaluate now", and a
// fixed-pool run (the baseline without a designer) from an imported and the bundled pool, then
// "Evaluate now" on another stored run's pool.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, type BrowserRig } from './harness.ts';
import { DEMO_TEST_TIMEOUT_MS, screenshot, seriousViolations } from './app-helpers.ts';
import { asShown, shownPattern, shownText, shownTexts } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
});
afterAll(async () => {
  await rig?.close();
});

const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const heldOut = () => page.locator('[data-testid="chart"][data-chart="held-out"]');
const lessons = () => page.getByTestId('playbook').getByTestId('lesson');
const EDITED = 'Try the action that rules out the most options first, then commit.';

describe('held-out evaluation and the playbook in the app', () => {
  it(
    'runs an epoch with the playbook and evaluations, charts them, and shows the lesson learned',
    async () => {
      await nav('Model').click();
      await page.getByRole('button', { name: 'Start the demo' }).click();
      await page.getByLabel('Epochs', { exact: true }).fill('1');
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      await page.getByRole('group', { name: /^Playbook and held-out evaluation/ }).waitFor();
      await expect(shownText(page.getByTestId('demo-notice'))).resolves.toMatch(
        /do not change with environment memory, .*the prompt templates\..*labelled scripted learner/s,
      );
      await page.getByRole('button', { name: /^Use the learning demo settings/ }).click();
      await expect(page.getByRole('checkbox', { name: /^Agent's playbook/ }).isChecked()).resolves.toBe(true);
      await expect(page.getByRole('spinbutton', { name: /^Evaluate every N epochs/ }).inputValue()).resolves.toBe('1');
      await page.getByRole('spinbutton', { name: /^Seeds per held-out environment/ }).fill('1');
      // Every text the live view's main area shows before the first epoch's first event, and whether it ever said "Press Start" while running.
      await page.evaluate(() => {
        const seen: string[] = [];
        (window as unknown as { startingSeen: string[] }).startingSeen = seen;
        const main = document.querySelector('main')!;
        // Cheap reads only: the page streams an epoch meanwhile.
        const observer = new MutationObserver(() => {
          const shown = main.querySelector('[data-testid="starting-work"]')?.textContent;
          if (shown && seen.at(-1) !== shown) seen.push(shown);
          const status = main.querySelector('[data-testid="run-status"]')?.textContent;
          if (
            status === 'running' &&
            main.querySelector('[data-testid="press-start"]') &&
            seen.at(-1) !== 'Press Start'
          )
            seen.push('Press Start');
          if (main.querySelector('[data-testid="slot"], section.live')) observer.disconnect();
        });
        observer.observe(main, { subtree: true, childList: true, characterData: true });
      });
      await page.getByRole('button', { name: 'Create run' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 240_000 });
      const starting = (
        (await page.evaluate(() => (window as unknown as { startingSeen: string[] }).startingSeen)) as string[]
      ).map(asShown);
      expect(starting).not.toContain('Press Start');
      expect(
        starting.some((t) =>
          /^Before epoch 1: the held-out evaluation measures the untrained agent, .* Held-out play \d+ of 24 \(\d+ won so far\); epoch 1 starts when it is done\.$/.test(
            t,
          ),
        ),
      ).toBe(true);

      // The scripted learner wins the 4 held-out games of each skill it has a lesson for: 8 of 24 plays.
      await expect(shownText(page.getByTestId('eval-progress'))).resolves.toMatch(
        /^Scheduled held-out evaluation after 1 epoch: win rate 0\.33 \(95% interval /,
      );
      await expect(shownText(page.getByTestId('live-lessons'))).resolves.toMatch(/Lesson learned from e0000-s0\d/);
      await expect(shownText(page.getByTestId('playbook-mode'))).resolves.toContain('Playbook on.');
      await lessons().first().waitFor({ timeout: 10_000 });
      await expect(shownText(lessons().first())).resolves.toMatch(/learned from e0000-s0\d, epoch 1/);
      await expect(shownText(lessons().first().getByTestId('lesson-effect'))).resolves.toMatch(/^not measured yet/);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'experiments-run');

      await nav('Charts').click();
      await heldOut().locator('canvas').waitFor({ timeout: 30_000 });
      await expect(heldOut().getAttribute('data-points')).resolves.toBe('2');
      await expect(shownText(heldOut().getByTestId('interval-label'))).resolves.toBe(
        '95% interval: bootstrap over environments',
      );
      await expect(
        page.locator('[data-testid="chart"][data-chart="held-out-skills"]').getAttribute('data-points'),
      ).resolves.not.toBe('0');
      await screenshot(page, 'experiments-charts');
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it('edits a lesson, keeps the edit across a reload, and evaluates the agent on demand', async () => {
    await nav('Live run').click();
    const first = lessons().first();
    await first.getByRole('button', { name: /^Edit/ }).click();
    await first.getByLabel(shownPattern(/^Lesson text/)).fill(EDITED);
    await first.getByRole('button', { name: 'Save lesson' }).click();
    await lessons().filter({ hasText: EDITED }).waitFor({ timeout: 10_000 });
    await expect(shownText(lessons().first())).resolves.toMatch(/edited by a person; learned from e0000-s0\d/);

    await page.reload();
    await page.getByTestId('playbook').waitFor({ timeout: 30_000 });
    await lessons().filter({ hasText: EDITED }).waitFor({ timeout: 10_000 });

    await page.getByRole('button', { name: 'Evaluate now' }).click();
    await page
      .getByTestId('eval-progress')
      .filter({ hasText: shownPattern(/^On-demand held-out evaluation after 1 epoch: win rate /) })
      .waitFor({ timeout: 120_000 });
    await nav('Charts').click();
    await heldOut().and(page.locator('[data-points="3"]')).waitFor({ timeout: 30_000 });
    await expect(shownText(heldOut().locator('figcaption'))).resolves.toMatch(
      /^Held-out win rate, epochs trained: 1 \(the latest of 3\)/,
    );
  });

  it('validates an imported pool (rejects listed), then runs the bundled pool as a fixed-pool baseline', async () => {
    await nav('Model').click();
    await page.getByRole('button', { name: 'Start the demo' }).click();
    await page.getByLabel('Epochs', { exact: true }).fill('1');
    await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
    await page.getByRole('radio', { name: /^Fixed pool \(baseline, no designer\)/ }).check();
    await expect(page.getByRole('button', { name: 'Create run' }).isDisabled()).resolves.toBe(true);
    const pool = page.getByTestId('fixed-pool');
    await pool
      .getByLabel(shownPattern(/^Import a pool file/))
      .setInputFiles(['tests/fixtures/demo-envs/liars_gate_broken.py', 'public/pools/starter/games/valve_fountain.py']);
    await pool.getByTestId('pool-ready').waitFor({ timeout: 60_000 });
    await expect(shownText(pool.getByTestId('pool-ready'))).resolves.toMatch(/1 valid environments .*; 1 left out/);
    await expect(shownText(pool.getByRole('list'))).resolves.toMatch(
      /liars_gate_broken: invalid at probe \(step_bad_return\)/,
    );
    await pool.getByRole('button', { name: 'Use the bundled starter pool' }).click();
    await pool
      .getByTestId('pool-ready')
      .filter({ hasText: 'Pool starter from the bundled pool: 16 valid environments' })
      .waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Create run' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
    await expect(shownTexts(page.getByTestId('pool-slot'))).resolves.toEqual([
      'From the fixed pool: balance_coins (no designer in this run; the environment is played as it is)',
      'From the fixed pool: cargo_loader (no designer in this run; the environment is played as it is)',
    ]);
    await expect(
      page.getByText(shownPattern(/fixed pool starter \(16 environments, no designer: the baseline\)/)).count(),
    ).resolves.toBe(1);
  });

  it('evaluates the open run now on another stored run’s pool frozen at an epoch', async () => {
    const chooser = page.getByTestId('demand-suite');
    await chooser.getByRole('radio', { name: /^A stored run's pool at an epoch/ }).check();
    // Newest first: the open fixed-pool run itself, marked; the designed run of the first test is next.
    const options = chooser.getByRole('combobox', { name: 'Run' }).locator('option');
    await expect(shownText(options.first())).resolves.toMatch(/\(this run\): 1 epoch$/);
    const other = (await shownText(options.nth(1))).replace(/: 1 epoch$/, '');
    await chooser.getByRole('combobox', { name: 'Run' }).selectOption({ index: 1 });
    await chooser
      .getByTestId('run-suite-ready')
      .filter({ hasText: `Suite run ${other} at epoch 1: 2 valid environments` })
      .waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Evaluate now' }).click();
    const done = page
      .getByTestId('eval-progress')
      .filter({ hasText: `over 2 environments of run ${other} at epoch 1, 4 plays` });
    await done.waitFor({ timeout: 60_000 });
    await expect(shownText(done)).resolves.toMatch(/^On-demand held-out evaluation after 1 epoch: win rate /);
    // The demo designs the starter pool's first two games, which this fixed-pool run trains on.
    await expect(shownText(page.getByTestId('eval-overlap'))).resolves.toMatch(
      /^Not held out: 2 of the 2 suite environments \(e0000-s00, e0000-s01\) have the same code/,
    );
  });
});
