import { mkdirSync } from 'node:fs';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import type { DemoSpeed } from '../../src/app/run/demo-speed.ts';

/** Where browser tests save screenshots when asked (SPADE_SCREENSHOTS=1; ignored by git). */
export const SCREENSHOT_DIR = 'test-results/screenshots';
/** Time allowed a test that watches whole demo epochs (the demo is paced to be watched: about 33 s an epoch here). */
export const DEMO_TEST_TIMEOUT_MS = 300_000;

/** Creates and starts a demo run of `epochs` epochs and two slots per epoch from the Model view (the view the app opens on when no run is stored). */
export async function createDemoRun(page: Page, name: string, epochs: number): Promise<void> {
  await page.getByRole('button', { name: 'Model', exact: true }).click();
  await page.getByRole('button', { name: 'Start the demo' }).click();
  await page.getByLabel('Name').fill(name);
  await page.getByLabel('Epochs', { exact: true }).fill(String(epochs));
  await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
  await page.getByRole('button', { name: 'Create run' }).click();
}

/**
 * Sets the demo speed from inside the page, through the live view's speed control as a person
 * would but without moving the focus: at once, or with `when` as soon as an element matching that
 * selector is in the page (a page-side observer, so no round trip lets the demo run on at the old
 * speed). Tests use it to stream at once the stretches they do not watch.
 */
export async function paceDemo(page: Page, speed: DemoSpeed, when?: string): Promise<void> {
  await page.evaluate(
    ({ speed, when }) => {
      const control = () =>
        [...document.querySelectorAll('label')]
          .find((label) => label.textContent?.trim().startsWith('Demo speed'))
          ?.querySelector('select');
      const apply = (): boolean => {
        if (when && !document.querySelector(when)) return false;
        const select = control();
        if (!select) return false;
        select.value = speed;
        select.dispatchEvent(new Event('input', { bubbles: true }));
        select.dispatchEvent(new Event('change', { bubbles: true }));
        return true;
      };
      if (!when && !control()) throw new Error('There is no Demo speed control in the page.');
      if (apply()) return;
      const observer = new MutationObserver(() => {
        if (apply()) observer.disconnect();
      });
      observer.observe(document.body, { subtree: true, childList: true });
    },
    { speed, when },
  );
}

/** Saves a screenshot (the full page, or the viewport with `fullPage: false`) under SCREENSHOT_DIR when SPADE_SCREENSHOTS=1 (each costs the tier about 0.2 CPU-s, and nothing checks them), and returns its path, or null. */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string | null> {
  if (process.env.SPADE_SCREENSHOTS !== '1') return null;
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const path = `${SCREENSHOT_DIR}/${name}.png`;
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A violation axe-core reports. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: number;
}

/** Runs axe-core on the page and returns the serious and critical violations; axe is added to a document once, not at every check (parsing its 650 kB took 0.6 to 2.9 s here). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(`typeof window.axe?.run === 'function'`);
  if (!loaded) await page.addScriptTag({ content: AXE_SOURCE });
  const violations = (await page.evaluate(
    `axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.length })))`,
  )) as AxeViolation[];
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/** Starts recording main-thread long tasks; read them with `longTasks`. */
export async function recordLongTasks(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.__longTasks = [];
    new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask' });
  })()`);
}

/** Durations (ms) of the long tasks seen since `recordLongTasks`. */
export async function longTasks(page: Page): Promise<number[]> {
  return (await page.evaluate('window.__longTasks ?? []')) as number[];
}
