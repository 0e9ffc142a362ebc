import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openApp, type BrowserRig } from './harness.ts';
import { DEMO_TEST_TIMEOUT_MS, screenshot, seriousViolations } from './app-helpers.ts';
import { asShown, shownText, shownTexts } from './page-text.ts';

let rig: BrowserRig;
let page: Page;
beforeAll(async () => {
  ({ rig, page } = await openApp());
});
afterAll(async () => {
  await rig?.close();
});

const CHART_IDS = [
  'win-rate',
  'regret',
  'validity',
  'designer-reward',
  'turns-to-win',
  'code-length',
  'tokens',
  'time',
];
const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true });
const chart = (id: string) => page.locator(`[data-testid="chart"][data-chart="${id}"]`);
const status = () => page.getByTestId('charts').getByRole('status');

/** The chart's data table (opened) as header cells and body rows of text. */
async function dataTable(id: string): Promise<{ head: string[]; rows: string[][] }> {
  const details = chart(id).locator('details');
  if (!(await details.evaluate((d) => (d as HTMLDetailsElement).open))) await details.locator('summary').click();
  const table = details.locator('table');
  await table.waitFor();
  const head = await shownTexts(table.locator('thead th'));
  const rows = (
    await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent!)))
  ).map((row) => row.map(asShown));
  return { head: head.map((h) => h.trim()), rows };
}

async function downloadCsv(title: string): Promise<{ name: string; text: string }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: `Export CSV of ${title}` }).click(),
  ]);
  const path = await download.path();
  return { name: download.suggestedFilename(), text: readFileSync(path, 'utf8') };
}

describe('charts of a demo run', () => {
  it(
    'fill in as the epochs of a running demo are committed',
    async () => {
      await nav('Model').click();
      await page.getByRole('button', { name: 'Start the demo' }).click();
      await page.getByLabel('Epochs', { exact: true }).fill('2');
      // Two slots per epoch: the charts are the point, not the demo's games.
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      await page.getByRole('button', { name: 'Create run' }).click();
      await page.getByTestId('run-status').waitFor({ timeout: 30_000 });
      await nav('Charts').click();
      await status().filter({ hasText: 'No epoch of' }).waitFor({ timeout: 30_000 });
      expect(await page.locator('[data-testid="chart"]').count()).toBe(0);
      await status().filter({ hasText: '1 committed epoch.' }).waitFor({ timeout: 240_000 });
      await expect(page.locator('[data-testid="chart"] canvas').count()).resolves.toBe(CHART_IDS.length);
      await expect(shownText(chart('validity').locator('figcaption'))).resolves.toMatch(
        /^Validity rate, epoch 1 \(the latest of 1\): Validity rate \d\.\d\d\.$/,
      );
      await status().filter({ hasText: '2 committed epochs.' }).waitFor({ timeout: 240_000 });
      await expect(shownText(chart('validity').locator('figcaption'))).resolves.toMatch(
        /^Validity rate, epoch 2 \(the latest of 2\): /,
      );
      await nav('Live run').click();
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 60_000 });
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it('draws every chart with data, named and described, in a measured time', async () => {
    const started = Date.now();
    await nav('Charts').click();
    await page.waitForFunction(
      (n) =>
        document.querySelectorAll('[data-testid="chart"] canvas').length === n &&
        [...document.querySelectorAll('[data-testid="chart"]')].every((c) => c.hasAttribute('data-render-ms')),
      CHART_IDS.length,
    );
    const toVisible = Date.now() - started;
    expect(
      await page.locator('[data-testid="chart"]').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-chart'))),
    ).toEqual(CHART_IDS);
    const perChart: Record<string, number> = {};
    for (const id of CHART_IDS) {
      const card = chart(id);
      expect(Number(await card.getAttribute('data-points')), `${id} has values`).toBeGreaterThan(0);
      const box = await card.locator('canvas').boundingBox();
      expect(box!.width, `${id} canvas width`).toBeGreaterThan(300);
      expect(box!.height, `${id} canvas height`).toBeGreaterThan(150);
      await expect(card.getByRole('img', { name: /^Line chart: .+ by epoch$/ }).count()).resolves.toBe(1);
      const caption = await shownText(card.locator('figcaption'));
      expect(caption).toMatch(/epoch 2 \(the latest of 2\): /);
      const describedBy = await card.getByRole('img').getAttribute('aria-describedby');
      expect(await shownText(page.locator(`#${describedBy}`))).toBe(caption);
      perChart[id] = Number(await card.getAttribute('data-render-ms'));
    }
    await expect(shownText(chart('win-rate').locator('figcaption'))).resolves.toMatch(
      /Shaded: plateau band 0\.4 to 0\.6\.$/,
    );
    const table = await dataTable('validity');
    await chart('validity').locator('.u-over').scrollIntoViewIfNeeded();
    const over = (await chart('validity').locator('.u-over').boundingBox())!;
    await page.mouse.move(over.x + over.width * 0.25, over.y + over.height / 2);
    await chart('validity').locator('.legend').getByText('at epoch 1').waitFor();
    await expect(shownText(chart('validity').locator('.legend strong'))).resolves.toBe(table.rows[0]![1]);
    await page.mouse.move(0, 0);
    await chart('validity').locator('.legend').getByText('at epoch 2').waitFor();
    const loadMs = await page.getByTestId('charts').getAttribute('data-load-ms');
    console.log(
      `charts: visible ${toVisible} ms after the click; store read ${loadMs} ms; uPlot build per chart (ms) ${JSON.stringify(perChart)}`,
    );
    expect(toVisible).toBeLessThan(3000);
    await screenshot(page, 'charts-light');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('exports a chart as CSV with a header row and one row per epoch, matching the data table', async () => {
    const validity = await downloadCsv('Validity rate');
    expect(validity.name).toMatch(/^[A-Za-z0-9_-]+-validity\.csv$/);
    const lines = validity.text.split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.slice(0, -1)).toHaveLength(3);
    expect(lines[0]).toBe('epoch,Validity rate');
    const table = await dataTable('validity');
    expect(table.head).toEqual(['Epoch', 'Validity rate']);
    expect(
      lines
        .slice(1, -1)
        .map((l) => l.split(','))
        .map(([e, v]) => [e, Number(v).toFixed(2)]),
    ).toEqual(table.rows);

    const win = await downloadCsv('Win rate per skill');
    const winLines = win.text.trimEnd().split('\n');
    const winTable = await dataTable('win-rate');
    expect(winLines[0]).toBe(['epoch', ...winTable.head.slice(1)].join(','));
    expect(winLines[0]!.startsWith('epoch,Mean (all skills),')).toBe(true);
    expect(winLines.slice(1).map((l) => l.split(',')[0])).toEqual(['1', '2']);
    expect(
      winLines
        .slice(1)
        .map((l) => l.split(',').map((v, i) => (i === 0 ? v : v === '' ? 'no data' : Number(v).toFixed(2)))),
    ).toEqual(winTable.rows);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('follows the dark theme and fits a tablet-width screen', async () => {
    const before = await chart('regret')
      .locator('canvas')
      .evaluate((c) => (c as HTMLCanvasElement).toDataURL());
    await page.getByRole('button', { name: 'Dark theme' }).click();
    await expect(page.evaluate('document.documentElement.dataset.theme')).resolves.toBe('dark');
    await page.waitForFunction(
      (old) => document.querySelector<HTMLCanvasElement>('[data-chart="regret"] canvas')?.toDataURL() !== old,
      before,
    );
    await screenshot(page, 'charts-dark');
    expect(await seriousViolations(page)).toEqual([]);
    await page.setViewportSize({ width: 768, height: 1024 });
    await page.waitForFunction(() => {
      const card = document.querySelector('[data-chart="win-rate"]')!;
      const canvas = card.querySelector('canvas')!;
      return canvas.getBoundingClientRect().width <= card.getBoundingClientRect().width;
    });
    const overflow = await page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth');
    expect(overflow).toBeLessThanOrEqual(0);
    const widths = await page
      .locator('[data-testid="chart"] canvas')
      .evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().width));
    for (const w of widths) expect(w).toBeGreaterThan(500);
    await screenshot(page, 'charts-dark-tablet');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
