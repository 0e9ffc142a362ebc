// Lecture mode on a projector (issue 16 item 4): at 1920x1080 the slot being worked on and the
// score card stay on screen while the demo designs and plays, validated code folds, space pauses
// and resumes, and the right arrow steps one unit with a visible "step running" state, a second
// press meanwhile refused rather than queued.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startRig, type BrowserRig } from './harness.ts';
import { DEMO_TEST_TIMEOUT_MS, paceDemo, screenshot, seriousViolations } from './app-helpers.ts';
import { asShown, shownPattern, shownText } from './page-text.ts';

const VIEWPORT = { width: 1920, height: 1080 };

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  rig = await startRig();
  // Instant until the first design starts; the test then paces the demo (paceDemo) so that what it
  // watches streams at the normal pace and the stretches it does not watch stream at once.
  page = await rig.open('/', { demoSpeed: 'instant' });
  await page.setViewportSize(VIEWPORT);
});
afterAll(async () => {
  await rig?.close();
});

/** Saves what the projector shows (the viewport) and the full page, with the other test screenshots. */
async function shoot(name: string): Promise<void> {
  await screenshot(page, `lecture-${name}-viewport`, { fullPage: false });
  await screenshot(page, `lecture-${name}`);
}

/** Where the followed work and the score card are on screen, read in one go in the page. */
interface OnScreen {
  /** The slot's heading, the element being worked on in it (a streaming design or a running play), the side score card; null when absent. */
  heading: DOMRect | null;
  work: DOMRect | null;
  scores: DOMRect | null;
}

/** The boxes of slot `slot`'s heading, of its work (`work` selects it inside the slot), and of the score card. */
function boxes(slot: number, work: string): Promise<OnScreen> {
  return page.evaluate(
    ({ slot, work }) => {
      const section = document.querySelector(`[data-slot="${slot}"]`);
      const box = (el: Element | null | undefined) => (el ? el.getBoundingClientRect().toJSON() : null);
      const running = [...(section?.querySelectorAll(work) ?? [])].find(
        (el) => !el.matches('article') || el.textContent?.replace(/[ \t\n\r\f]+/g, ' ').includes('playing, turn'),
      );
      return {
        heading: box(section?.querySelector('h3')),
        work: box(running),
        scores: box(document.querySelector('[data-testid="lecture-scores"]')),
      };
    },
    { slot, work },
  );
}

const inside = (box: DOMRect | null) =>
  box !== null && box.top >= 0 && box.left >= 0 && box.bottom <= VIEWPORT.height && box.right <= VIEWPORT.width;

/** Waits until slot `slot`'s heading, its work and the score card are all within the viewport (the view scrolls smoothly). */
async function expectOnScreen(slot: number, work: string, what: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const seen = await boxes(slot, work);
        return { heading: inside(seen.heading), work: inside(seen.work), scores: inside(seen.scores) };
      },
      { timeout: 15_000, interval: 100, message: what },
    )
    .toEqual({ heading: true, work: true, scores: true });
}

const status = () => shownText(page.getByTestId('run-status'));

/** Finished plays shown in the live view (each says its return; whitespace read as asShown does). */
function finishedPlays(): Promise<number> {
  return page.evaluate(
    () =>
      [...document.querySelectorAll('article[data-part^="play-"]')].filter((el) =>
        /return -?\d/.test(el.textContent?.replace(/[ \t\n\r\f]+/g, ' ') ?? ''),
      ).length,
  );
}

/** Plays under way in the live view (whitespace read as asShown does). */
function runningPlays(): Promise<number> {
  return page.evaluate(
    () =>
      [...document.querySelectorAll('article[data-part^="play-"]')].filter((el) =>
        el.textContent?.replace(/[ \t\n\r\f]+/g, ' ').includes('playing, turn'),
      ).length,
  );
}

describe('lecture mode at 1920x1080', () => {
  it(
    'follows the work with the score card beside it, folds validated code, and takes space and the right arrow without queueing',
    async () => {
      const started = Date.now();
      await page.getByRole('button', { name: 'Model', exact: true }).click();
      await page.getByRole('button', { name: 'Start the demo' }).click();
      await page.getByLabel('Epochs', { exact: true }).fill('1');
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      // The first design streams at once; the normal pace from then on (the second slot's design is watched).
      await paceDemo(page, 'normal', '[data-slot="0"] details[data-part^="attempt-"]');
      await page.getByRole('button', { name: 'Create run' }).click();

      const toggle = page.getByRole('button', { name: 'Lecture mode' });
      await toggle.click();
      await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
      await expect(page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).resolves.toBe('20px');
      await expect(page.evaluate(() => localStorage.getItem('spade-lab-lecture'))).resolves.toBe('on');
      // The demo's speed control sits with the run controls beside the work.
      await expect(
        page.getByRole('complementary', { name: 'Run controls and scores' }).getByLabel('Demo speed').isVisible(),
      ).resolves.toBe(true);

      // Designing: the second slot's design streams on screen, the first slot's validated code folded above it.
      await page.locator('[data-slot="1"] .phase[data-phase="designing"]').waitFor({ timeout: 120_000 });
      await expectOnScreen(1, 'details[open][data-part^="attempt-"]', 'slot 2 designing and the score card on screen');
      await expect(shownText(page.getByTestId('scores-waiting'))).resolves.toMatch(/^Being designed\./);
      await shoot('designing');
      const slot1Attempts = page.locator('[data-slot="0"] details[data-part^="attempt-"]');
      await expect(slot1Attempts.count()).resolves.toBeGreaterThan(0);
      expect(await slot1Attempts.evaluateAll((all) => all.map((d) => (d as HTMLDetailsElement).open))).toEqual(
        Array(await slot1Attempts.count()).fill(false),
      );
      await expect(
        page.locator('[data-slot="0"] summary', { hasText: shownPattern(/valid: \w+Env/) }).count(),
      ).resolves.toBe(1);

      // The rest of the designs stream at once, the first slot's plays at the normal pace again.
      await paceDemo(page, 'normal', '[data-slot="0"] article[data-part^="play-"]');
      await paceDemo(page, 'instant');

      // Playing the first slot: its running play and the score card on screen.
      await page.locator('[data-slot="0"] article[data-part^="play-"]').first().waitFor({ timeout: 120_000 });
      await expectOnScreen(0, 'article[data-part^="play-"]', 'slot 1 playing and the score card on screen');
      const slot2Attempts = page.locator('[data-slot="1"] details[data-part^="attempt-"]');
      expect(await slot2Attempts.evaluateAll((all) => all.every((d) => !(d as HTMLDetailsElement).open))).toBe(true);

      // Space pauses, even with the focus still on the lecture-mode button (which space does not press).
      await expect(page.evaluate(() => document.activeElement?.textContent ?? '').then(asShown)).resolves.toBe(
        'Lecture mode',
      );
      await page.keyboard.press('Space');
      await page.getByTestId('run-status').filter({ hasText: 'paused' }).waitFor();
      await expect(toggle.getAttribute('aria-pressed')).resolves.toBe('true');
      // The unit under way when the pause came finishes; then nothing moves.
      await expect.poll(runningPlays, { timeout: 30_000 }).toBe(0);
      const before = await finishedPlays();
      // Keys typed in a code view stay there: no step, no resume.
      await page.locator('[data-slot="0"] summary').first().click();
      await page.locator('[data-slot="0"] .cm-content').first().focus();
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('Space');
      await page.waitForTimeout(1000);
      await expect(page.getByTestId('step-running').count()).resolves.toBe(0);
      expect(await status()).toBe('paused');
      expect(await finishedPlays()).toBe(before);
      await page.locator('[data-slot="0"] summary').first().click();

      // The right arrow steps one play; a second press while it runs is refused, visibly, not queued.
      const stepButton = page.getByTestId('step-button');
      await page.keyboard.press('ArrowRight');
      await expect(shownText(stepButton)).resolves.toBe('Step running…');
      await expect(stepButton.getAttribute('aria-disabled')).resolves.toBe('true');
      await expect(page.getByTestId('step-running').isVisible()).resolves.toBe(true);
      await page.keyboard.press('ArrowRight');
      await expect(shownText(page.getByTestId('step-refused'))).resolves.toMatch(/the last step is still running/);
      // A click meanwhile is refused the same way (the button keeps the focus); forced, as Playwright itself waits for an aria-disabled button.
      await stepButton.click({ force: true });
      await expect(stepButton.evaluate((el) => el === document.activeElement)).resolves.toBe(true);
      await shoot('step-running');
      await expect.poll(() => shownText(stepButton), { timeout: 60_000 }).toBe('Step');
      await expect(stepButton.getAttribute('aria-disabled')).resolves.toBe('false');
      expect(await finishedPlays()).toBe(before + 1);
      // Nothing was queued: the run stays paused with no play started.
      await page.waitForTimeout(1500);
      expect(await finishedPlays()).toBe(before + 1);
      expect(await runningPlays()).toBe(0);
      expect(await status()).toBe('paused');

      // Space resumes; the view moves on to the second slot's plays and keeps it and the score card on screen.
      await page.keyboard.press('Space');
      await page.getByTestId('run-status').filter({ hasText: 'running' }).waitFor();
      // The first slot's other plays stream at once, the second slot's at the normal pace.
      await paceDemo(page, 'normal', '[data-slot="1"] article[data-part^="play-"]');
      await paceDemo(page, 'instant');
      await page.locator('[data-slot="1"] article[data-part^="play-"]').first().waitFor({ timeout: 120_000 });
      await expectOnScreen(1, 'article[data-part^="play-"]', 'slot 2 playing and the score card on screen');
      await shoot('playing');

      // The rest at once: the score card shows the final scores, still on screen.
      await page.getByLabel('Demo speed').selectOption('instant');
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
      const card = page.getByTestId('lecture-scores');
      await expect(card.locator('dt', { hasText: shownPattern(/^designer reward$/) }).count()).resolves.toBe(1);
      await shoot('complete');
      expect(inside(await card.evaluate((el) => el.getBoundingClientRect().toJSON() as DOMRect))).toBe(true);
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('Demo speed').selectOption('normal');

      // Kept across a reload.
      await page.reload();
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 30_000 });
      await expect(page.getByRole('button', { name: 'Lecture mode' }).getAttribute('aria-pressed')).resolves.toBe(
        'true',
      );
      await page.getByRole('button', { name: 'Lecture mode' }).click();
      await expect(page.evaluate(() => getComputedStyle(document.documentElement).fontSize)).resolves.toBe('16px');
      console.log(`lecture-mode test: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    },
    DEMO_TEST_TIMEOUT_MS,
  );
});
