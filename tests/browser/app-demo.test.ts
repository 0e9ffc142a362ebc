import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startRig, type BrowserRig } from './harness.ts';
import { DEMO_TEST_TIMEOUT_MS, longTasks, recordLongTasks, screenshot, seriousViolations } from './app-helpers.ts';
import { shownPattern, shownText, shownTexts } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  rig = await startRig();
  page = await rig.open('/');
  await page.setViewportSize({ width: 1280, height: 900 });
});
afterAll(async () => {
  await rig?.close();
});

const status = () => shownText(page.getByTestId('run-status'));

async function startDemoRun(epochs: number): Promise<void> {
  await page.getByRole('button', { name: 'Model', exact: true }).click();
  await page.getByRole('button', { name: 'Start the demo' }).click();
  await page.getByLabel('Epochs', { exact: true }).fill(String(epochs));
  await page.getByRole('button', { name: 'Create run' }).click();
}

describe('first run: the demo runs two epochs end to end', () => {
  it('offers four labelled ways in, each kept inside its card, with no serious accessibility violations', async () => {
    await page.getByRole('button', { name: 'Start the demo' }).waitFor({ timeout: 30_000 });
    await expect(page.getByRole('heading', { name: 'Demo without a model', level: 3 }).count()).resolves.toBe(1);
    await expect(page.getByRole('heading', { name: 'An OpenAI-compatible server', level: 3 }).count()).resolves.toBe(1);
    await expect(
      page.getByRole('heading', { name: 'A local model in this tab (WebGPU)', level: 3 }).count(),
    ).resolves.toBe(1);
    await expect(
      page.getByRole('heading', { name: 'A local model on the CPU (any browser, no WebGPU needed)', level: 3 }).count(),
    ).resolves.toBe(1);
    await page.getByTestId('cpu-model-setup').waitFor();
    // Every card keeps its content inside its own box (no text running into the next card).
    const overflowing = await page.evaluate(
      `[...document.querySelectorAll('.ways > *')].filter((card) => card.scrollWidth > card.clientWidth).length`,
    );
    expect(overflowing).toBe(0);
    await screenshot(page, 'first-run');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the new-run settings with their docs', async () => {
    await page.getByRole('button', { name: 'Start the demo' }).click();
    await page.getByRole('heading', { name: 'New run' }).waitFor();
    await expect(
      page.getByText('Plays without the hint, per rollout; the agent trains on these (the paper: 8).').count(),
    ).resolves.toBe(1);
    await screenshot(page, 'new-run');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it(
    'runs two epochs with every stage visible, the tab responsive, numbers shown',
    async () => {
      await page.getByLabel('Epochs', { exact: true }).fill('2');
      // Two slots an epoch at the normal pace: every stage still shows, in half the time of four.
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      await recordLongTasks(page);
      await page.getByRole('button', { name: 'Create run' }).click();
      await page.getByText('Design attempt 1').first().waitFor({ timeout: 60_000 });
      await page.getByText('invalid: probe/step_bad_return').waitFor({ timeout: 60_000 });
      await expect(page.getByText(shownPattern(/Expected step\(\) to return a 5-tuple/)).count()).resolves.toBe(1);
      await page.getByText('Without the hint').first().waitFor({ timeout: 120_000 });
      await screenshot(page, 'live-epoch-playing');
      // Every stage has shown at the normal pace; the speed control applies mid-run, so the rest streams at once.
      await page.getByLabel('Demo speed').selectOption('instant');
      // The first epoch's final score cards stay on screen (the default hold) before the second epoch replaces them, with the epoch's designer scale.
      const hold = page.getByTestId('score-hold');
      await hold.waitFor({ timeout: 300_000 });
      await expect(shownText(hold)).resolves.toMatch(/Scores held: epoch 2 starts in \d s\./);
      await expect(shownText(page.locator('#live-title'))).resolves.toMatch(/^Epoch 1 \(complete\)$/);
      await expect(shownText(page.getByTestId('designer-scale').first())).resolves.toMatch(
        /^Designer scale this epoch = min\(N_agent \/ N_designer x R, 50\) = min\(\d+ \/ \d x 1, 50\) = /,
      );
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 300_000 });
      // The first epoch stays reachable: the picker shows its two score cards again.
      const picker = page.getByRole('group', { name: 'Show the scores of epoch' });
      await picker.getByRole('button', { name: '1', exact: true }).click();
      await expect(shownText(page.locator('#live-title'))).resolves.toMatch(/Epoch 1 \(complete, an earlier epoch\)/);
      await expect(page.locator('dt', { hasText: shownPattern(/^regret$/) }).count()).resolves.toBe(2);
      await picker.getByRole('button', { name: '2 (latest)' }).click();
      await expect(shownText(page.locator('#live-title'))).resolves.toMatch(/^Epoch 2 \(complete\)$/);
      const rows = page.getByTestId('epoch-row');
      await expect(rows.count()).resolves.toBe(2);
      // The last epoch's two slots each show their regret.
      const regretLabels = await page.locator('dt', { hasText: shownPattern(/^regret$/) }).count();
      expect(regretLabels).toBe(2);
      await expect(
        page.getByText(shownPattern(/Designer reward \(blend\) = 0\.4 x clip/)).count(),
      ).resolves.toBeGreaterThan(0);
      const tasks = await longTasks(page);
      console.log(
        `long tasks during the two-epoch demo: ${tasks.length}, max ${Math.max(0, ...tasks).toFixed(0)} ms, over 50 ms: ${tasks.filter((t) => t > 50).length}`,
      );
      await screenshot(page, 'live-epoch-complete');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Demo speed').selectOption('normal');
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it('keeps the run after a reload', async () => {
    await page.reload();
    await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('epoch-row').nth(1).waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('epoch-row').count()).resolves.toBe(2);
    await page.getByRole('button', { name: 'Runs' }).click();
    const listed = page.getByText(shownPattern(/scripted:spade-lab-demo · completed · epochs 2\/2/));
    await listed.waitFor({ timeout: 30_000 });
    await expect(listed.count()).resolves.toBe(1);
    await screenshot(page, 'runs');
  });

  it('offers a demo speed control whose choice is kept across reloads', async () => {
    await page.getByRole('button', { name: 'Live run' }).click();
    const speed = page.getByLabel('Demo speed');
    await expect(speed.inputValue()).resolves.toBe('normal');
    await expect(shownTexts(speed.locator('option'))).resolves.toEqual(['slow', 'normal', 'instant']);
    await speed.selectOption('instant');
    await page.reload();
    await page.getByRole('button', { name: 'Live run' }).click();
    await expect(page.getByLabel('Demo speed').inputValue()).resolves.toBe('instant');
    await page.getByLabel('Demo speed').selectOption('normal');
    // Back where the next tests start: the Runs view.
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
  });
});

describe('data: export and import from the app', () => {
  it('exports the demo run as a SPADE pool and imports it back, listing a corrupt entry with its reason', async () => {
    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export pool' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/-pool\.zip$/);
    const zipPath = await download.path();
    await page.getByText(shownPattern(/^Saved .*-pool\.zip \(\d+ items\)\./)).waitFor();
    await page.getByLabel('Files').setInputFiles([
      { name: 'demo-pool.zip', mimeType: 'application/zip', buffer: readFileSync(zipPath) },
      { name: 'game_999999.py', mimeType: 'text/x-python', buffer: Buffer.from('class BrokenEnv(:\n    pass\n') },
    ]);
    const report = page.getByTestId('import-report');
    await report.waitFor({ timeout: 120_000 });
    const text = await shownText(report);
    expect(text).toMatch(/Imported pool: \d+ of \d+ kept as a new run/);
    expect(text).toContain('game_999999.py');
    expect(text).toMatch(/syntax_error|SyntaxError/);
    await screenshot(page, 'runs-data');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('opens the imported pool in the explorer, on an environment page and in the charts', async () => {
    const imported = Number(/Imported pool: (\d+) of/.exec(await shownText(page.getByTestId('import-report')))![1]);
    await page.getByRole('button', { name: 'Imported pool' }).first().click();
    await page.getByRole('button', { name: 'Explorer', exact: true }).click();
    await page
      .getByTestId('explorer-status')
      .filter({ hasText: `${imported} environment` })
      .waitFor({ timeout: 30_000 });
    await page.getByTestId('explorer-row').first().getByRole('button').first().click();
    await page.getByRole('heading', { name: /^Environment /, level: 2 }).waitFor({ timeout: 30_000 });
    await expect(page.getByText(shownPattern(/class \w+Env/)).count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'imported-pool-environment');
    await page.getByRole('button', { name: 'Charts', exact: true }).click();
    await page.getByRole('heading', { name: 'Charts', level: 2 }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('run controls', () => {
  it('pause stops before the next unit, step runs one, resume continues, abort keeps committed epochs', async () => {
    await startDemoRun(1);
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'paused' }).waitFor();
    await page.waitForTimeout(1000);
    const attemptsBefore = await page.getByText(shownPattern(/^Design attempt/)).count();
    await page.waitForTimeout(1000);
    expect(await page.getByText(shownPattern(/^Design attempt/)).count()).toBe(attemptsBefore);
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await expect(
      page
        .locator('li.current')
        .getByRole('button', { name: /^Delete run / })
        .isDisabled(),
    ).resolves.toBe(true);
    await page.getByRole('button', { name: 'Live run', exact: true }).click();
    await page.getByRole('button', { name: 'Step' }).click();
    await page.waitForFunction(
      (n) => document.querySelectorAll('summary').length > n || document.body.innerText.includes('Slot 2'),
      attemptsBefore,
      { timeout: 30_000 },
    );
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'running' }).waitFor();
    await page.getByRole('button', { name: 'Abort' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'aborted' }).waitFor({ timeout: 30_000 });
    expect(await status()).toBe('aborted');
    await expect(
      page
        .getByRole('button', { name: 'Continue' })
        .or(page.getByRole('button', { name: 'Start' }))
        .isEnabled(),
    ).resolves.toBe(true);
  });

  it('works in the dark theme and at tablet width', async () => {
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.evaluate('document.documentElement.dataset.theme')).resolves.toBe('dark');
    await page.setViewportSize({ width: 768, height: 1024 });
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    await screenshot(page, 'run-dark-tablet');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
