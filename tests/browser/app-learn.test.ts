import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, type BrowserRig } from './harness.ts';
import { DEMO_TEST_TIMEOUT_MS, screenshot, seriousViolations } from './app-helpers.ts';
import { TOUR_STEPS } from '../../src/app/learn/tour-steps.ts';
import { asShown, shownPattern, shownText } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
  // The tour then scrolls at once, so each screenshot shows the highlighted part where it stays.
  await page.emulateMedia({ reducedMotion: 'reduce' });
});
afterAll(async () => {
  await rig?.close();
});

/** The `data-tour` name of the part the tour highlights now, or null. */
const highlighted = () =>
  page.evaluate(() => document.querySelector('[data-tour-active]')?.getAttribute('data-tour') ?? null);

describe('Learn without a run, then the guided tour over the demo', () => {
  it("shows the loop, why regret and the glossary with no run, and a term's definition on focus", async () => {
    await page.getByRole('button', { name: 'Learn', exact: true }).click();
    await page.getByRole('heading', { name: 'How SPADE works', exact: true }).waitFor({ timeout: 30_000 });
    const diagram = page.getByTestId('loop-diagram');
    await expect(diagram.locator('[data-stage]').count()).resolves.toBe(7);
    await expect(diagram.getByText('Plays without the hint').count()).resolves.toBe(1);
    const table = page.getByTestId('why-regret');
    await expect(table.locator('tbody tr').count()).resolves.toBe(4);
    // The frontier row carries the highest reward under blend, regret and (tied with the coin flip) solve_rate.
    const frontier = table.locator('tbody tr', { hasText: 'Frontier' }).locator('td.best');
    await expect(
      frontier.evaluateAll((cells) => cells.map((c) => (c as HTMLElement).innerText.trim())),
    ).resolves.toEqual(['1.000 (highest)', '0.250 (highest)', '1.000 (highest)']);
    // The regret measured (r_hint - r_nohint) and the reward of the regret variant are two columns with two names.
    const headers = await table
      .locator('thead th')
      .evaluateAll((cells) => cells.map((c) => (c as HTMLElement).innerText.trim()));
    expect(headers.filter((h) => /regret/.test(h))).toEqual(['regret (r_hint - r_nohint)', 'regret reward']);
    expect(new Set(headers).size).toBe(headers.length);
    await expect(shownText(page.locator('#glossary-plateau'))).resolves.toBe('plateau');

    await page.getByTestId('why-regret').getByRole('button', { name: 'plateau(w)' }).focus();
    const tip = page.getByTestId('term-tip');
    await tip.waitFor();
    await expect(shownText(tip)).resolves.toContain('plateau(w) = 1 on [0.4, 0.6]');
    await screenshot(page, 'learn-no-run');
    await page.keyboard.press('Escape');
    await expect(tip.count()).resolves.toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it(
    'starts the demo from Learn and takes the tour through every step, ending at what the designer sees next epoch',
    async () => {
      await page.getByRole('button', { name: 'Start the demo and take the tour' }).click();
      await page.getByLabel('Epochs', { exact: true }).fill('1');
      await page.getByRole('button', { name: 'Create run' }).click();
      const tour = page.getByRole('dialog');
      for (const [i, step] of TOUR_STEPS.entries()) {
        await page.getByRole('heading', { name: step.title, exact: true }).waitFor({ timeout: 30_000 });
        // The part appears when the epoch reaches it (Python may still be starting): wait for the highlight, not a fixed time.
        await page.waitForFunction(
          (target) => document.querySelector('[data-tour-active]')?.getAttribute('data-tour') === target,
          step.target,
          { timeout: 180_000 },
        );
        await expect(highlighted()).resolves.toBe(step.target);
        await expect(tour.getByText(`step ${i + 1} of ${TOUR_STEPS.length}`).count()).resolves.toBe(1);
        // What the screen shows at this step: the highlighted part with the tour beside it.
        if (['validation', 'arm-hint', 'score', 'memory'].includes(step.target))
          await screenshot(page, `learn-tour-${step.target}`, { fullPage: false });
        if (i === 1) {
          // Keyboard: back with the left arrow, forward with the right one.
          await page.keyboard.press('ArrowLeft');
          await page.getByRole('heading', { name: TOUR_STEPS[0]!.title, exact: true }).waitFor();
          await page.keyboard.press('ArrowRight');
          await page.getByRole('heading', { name: step.title, exact: true }).waitFor();
        }
        if (i < TOUR_STEPS.length - 1) await tour.getByRole('button', { name: 'Next' }).press('Enter');
      }
      const memory = page.getByTestId('next-memory');
      await expect(
        memory.getByRole('heading', { name: 'The designer will see these next epoch' }).count(),
      ).resolves.toBe(1);
      await memory.getByTestId('next-memory-row').first().waitFor();
      // Every slot of the next epoch is listed, with what it will be shown or "none".
      const firstCells = await memory
        .getByTestId('next-memory-row')
        .evaluateAll((rows) => rows.map((r) => r.querySelector('td')!.textContent!));
      const slots = [...new Set(firstCells.map((cell) => asShown(cell).replace(/ \(.*$/, '')))];
      expect(slots).toEqual(['Slot 1', 'Slot 2', 'Slot 3', 'Slot 4']);
      await expect(memory.getByText(shownPattern(/Each designer prompt of epoch 2 shows/)).count()).resolves.toBe(1);
      await tour.getByRole('button', { name: 'Finish' }).click();
      await expect(tour.count()).resolves.toBe(0);
      await expect(highlighted()).resolves.toBeNull();
      // Learn with the run open: the diagram carries its numbers, and the same next-epoch list.
      await page.getByRole('button', { name: 'Learn', exact: true }).click();
      await page.getByRole('heading', { name: "How SPADE works, on this run's numbers" }).waitFor();
      const diagram = page.getByTestId('loop-diagram');
      await expect(diagram.getByText(shownPattern(/slots designed in 1 epoch$/)).count()).resolves.toBe(1);
      // The Validate box counts the rejected attempt too, as the tally below does: never "0 rejected".
      await expect(
        diagram
          .getByText(shownPattern(/^\d+ valid(; [1-9]\d* rejected attempts? tried again|, .* rejected in all)$/))
          .count(),
      ).resolves.toBe(1);
      await expect(diagram.getByText(shownPattern(/\b0 rejected/)).count()).resolves.toBe(0);
      // The demo's first design attempt fails the probe: the designer's tally counts it, and never says nothing was rejected.
      const roles = page.locator('p', { hasText: 'is the Environment Designer' });
      await expect(shownText(roles)).resolves.toMatch(
        /: [1-9]\d* of its \d+ attempts (was|were) rejected by the sandbox's checks .*every slot ended with a valid environment|rejected after all attempts/s,
      );
      await expect(page.getByText('no slot was rejected').count()).resolves.toBe(0);
      await page.getByTestId('next-memory').getByTestId('next-memory-row').first().waitFor();
      await screenshot(page, 'learn-with-run');
    },
    DEMO_TEST_TIMEOUT_MS,
  );
});
