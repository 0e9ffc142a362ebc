// The app's rough edges a first-time visitor hits, on one page with one demo run (issue 16 item 7):
// the keyboard focus stays on the run controls after Start, Pause and Resume, and moves to an
// environment's heading when it opens; a completed run runs more epochs from its controls; a
// refused clipboard is not reported as copied; and every view fits the window at 390 and 1366 px
// (no sideways scroll; at 1366 the header is one row and the content starts at the same place on
// every view), and at 390 px the new-run form with its demo notice fits and the header stays short
// (issue 33 item 10). Chromium draws classic scrollbars here, as a desktop browser does.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TEST_TIMEOUT_MS, screenshot } from './app-helpers.ts';
import { startRig, type BrowserRig } from './harness.ts';
import { asShown, shownPattern, shownText } from './page-text.ts';

const VIEWS = ['Live run', 'Runs', 'Explorer', 'Charts', 'Compare', 'Sweeps', 'Learn', 'Model', 'Sandbox'] as const;

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  rig = await startRig([], { scrollbars: true });
  page = await rig.open('/', { demoSpeed: 'slow' });
  await page.setViewportSize({ width: 1366, height: 768 });
});
afterAll(() => rig?.close());

/** Waits until the focused element is the button (or heading) showing this text (whitespace read as asShown does). */
const focusOn = (text: string) =>
  page.waitForFunction(
    (wanted) => document.activeElement?.textContent?.replace(/[ \t\n\r\f]+/g, ' ').trim() === wanted,
    text,
    { timeout: 60_000 },
  );
const status = () => shownText(page.getByTestId('run-status'));
const nav = (view: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: view, exact: true });

describe('keyboard focus and the run controls', () => {
  it(
    'keeps the focus on the controls after Start, Pause and Resume, gives a completed run more epochs, and focuses an opened environment',
    async () => {
      await page.getByRole('button', { name: 'Start the demo' }).click();
      // The form takes the focus at the run's name, and Create run is two Tabs and Enter away (not 37 Tabs from the page's start).
      await page.waitForFunction(
        () => document.activeElement === document.querySelector('form input[required]'),
        null,
        { timeout: 30_000 },
      );
      await page.keyboard.press('Tab');
      await page.keyboard.press('Tab');
      await expect(page.evaluate(() => document.activeElement?.textContent ?? '').then(asShown)).resolves.toBe(
        'Skip to Create run (every other setting keeps its value)',
      );
      await page.keyboard.press('Enter');
      await focusOn('Create run');
      await page.getByLabel('Epochs', { exact: true }).fill('1');
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      await page.getByRole('button', { name: 'Create run' }).press('Enter');
      await focusOn('Pause');
      await page.keyboard.press('Enter');
      await focusOn('Resume');
      await expect(status()).resolves.toBe('paused');
      await page.keyboard.press('Enter');
      await focusOn('Pause');
      await page.getByLabel('Demo speed').selectOption('instant');
      await page
        .getByTestId('run-status')
        .filter({ hasText: shownPattern(/^completed$/) })
        .waitFor({ timeout: 180_000 });

      const more = page.getByRole('button', { name: 'Run 1 more epoch' });
      await more.press('Enter');
      await page.getByText('epochs 2 / 2').waitFor({ timeout: 120_000 });
      await page
        .getByTestId('run-status')
        .filter({ hasText: shownPattern(/^completed$/) })
        .waitFor({ timeout: 120_000 });
      await expect(page.getByTestId('epoch-row').count()).resolves.toBe(2);
      await focusOn('Run 1 more epoch');

      await nav('Explorer').click();
      const first = page.getByRole('button', { name: /^e\d+-s\d+$/ }).first();
      const id = await shownText(first);
      await first.press('Enter');
      await focusOn(`Environment ${id}`);
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it('says "Copied" only when the clipboard took the link', async () => {
    await nav('Live run').click();
    await page.getByText('Share these settings').click();
    await page.evaluate(() =>
      Object.defineProperty(navigator, 'clipboard', {
        value: { writeText: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')) },
      }),
    );
    await page.getByRole('button', { name: 'Copy link' }).click();
    await page.getByText('Not copied: The browser refused the clipboard (Write permission denied.).').waitFor();
    await expect(page.getByRole('button', { name: 'Copied' }).count()).resolves.toBe(0);
  });
});

/** The page's width, the header's rows and where the content starts, on the view shown. */
function layout(target: Page) {
  return target.evaluate(() => {
    const root = document.documentElement;
    const main = document.querySelector('main')!.getBoundingClientRect();
    const rows = new Set(
      [...document.querySelectorAll('nav[aria-label="Main"] button')].map((b) =>
        Math.round(b.getBoundingClientRect().top),
      ),
    );
    const title = document.querySelector('h1')!.getBoundingClientRect();
    const navBox = document.querySelector('nav[aria-label="Main"]')!.getBoundingClientRect();
    return {
      overflow: root.scrollWidth - root.clientWidth,
      navRows: rows.size,
      titleBesideNav: title.top < navBox.bottom && navBox.top < title.bottom,
      contentTop: Math.round(main.top + scrollY),
      contentLeft: Math.round(main.left),
    };
  });
}

describe('the new-run form', () => {
  it.each([1280, 390])('at %i px shows the whole default name of a run', async (width) => {
    await page.setViewportSize({ width, height: 800 });
    await nav('Model').click();
    await page.getByRole('button', { name: 'Start the demo' }).click();
    const name = page.getByLabel('Name', { exact: true });
    await expect(name.inputValue()).resolves.toMatch(/^Run .*\d/);
    const [scroll, client] = await name.evaluate((input) => [input.scrollWidth, input.clientWidth]);
    expect(scroll).toBeLessThanOrEqual(client);
  });
});

describe('every view fits the window', () => {
  it.each([1366, 390])(
    'at %i px: no sideways scroll; at 1366 one header row and the content in one place',
    async (width) => {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 768 });
      const seen: Array<Awaited<ReturnType<typeof layout>> & { view: string }> = [];
      for (const view of VIEWS) {
        await nav(view).click();
        await page.getByText('Loading the view…').first().waitFor({ state: 'detached' });
        seen.push({ view, ...(await layout(page)) });
        if (view === 'Runs' || view === 'Live run')
          await screenshot(page, `layout-${width}-${view.toLowerCase().replace(' ', '-')}`);
      }
      await nav('Explorer').click();
      await page
        .getByRole('button', { name: /^e\d+-s\d+$/ })
        .first()
        .click();
      await page.getByRole('heading', { name: /^Environment e/ }).waitFor();
      seen.push({ view: 'environment page', ...(await layout(page)) });
      if (width === 390) {
        // A phone: the new-run form and its demo notice fit, and the header leaves the screen to the work, in lecture mode too.
        await nav('Model').click();
        await page.getByRole('button', { name: 'Start the demo' }).click();
        await page.getByRole('heading', { name: 'New run' }).waitFor();
        seen.push({ view: 'new-run form', ...(await layout(page)) });
        const notice = await page
          .getByTestId('demo-notice')
          .evaluate((n) => n.getBoundingClientRect().right - document.documentElement.clientWidth);
        expect(notice).toBeLessThanOrEqual(0);
        await screenshot(page, 'layout-390-new-run');
        const header = () =>
          page.evaluate(() => Math.round(document.querySelector('header')!.getBoundingClientRect().height));
        const heights = [await header()];
        await nav('Live run').click();
        await page.getByRole('button', { name: 'Lecture mode' }).click();
        heights.push(await header());
        await page.getByRole('button', { name: 'Lecture mode' }).click();
        expect(heights[0]).toBeLessThanOrEqual(160);
        expect(heights[1]).toBeLessThanOrEqual(200);
      }
      expect(seen.filter((s) => s.overflow > 0)).toEqual([]);
      if (width === 1366) {
        expect(seen.filter((s) => s.navRows !== 1 || !s.titleBesideNav)).toEqual([]);
        expect(new Set(seen.map((s) => `${s.contentTop},${s.contentLeft}`)).size).toBe(1);
      }
    },
  );
});
