// The CPU backend through the app itself, in Debian's Chromium without WebGPU: the first-run view
// puts the CPU card first, the generated tiny GGUF is picked from disk, "Use" leads to the
// new-run form, and a run designs with the real engine. The tiny model writes nonsense, so every
// attempt is rejected with a reason; the epoch still commits and the live view shows why.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settingsUrl } from '../../src/app/new-run/share-settings.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { makeTinyGguf } from '../fixtures/gguf/make-tiny-gguf.ts';
import { screenshot } from './app-helpers.ts';
import { startRig, type BrowserRig } from './harness.ts';
import { shownPattern, shownText } from './page-text.ts';

/** Small enough for the tiny model to finish quickly: two slots, one attempt each, 48-token designs. */
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 3,
  skills: ['Logical Deduction', 'Pattern Recognition'],
  slotsPerEpoch: 2,
  attemptsPerSlot: 1,
  corpusWordBudget: 120,
  designer: { ...DEFAULT_CONFIG.designer, maxTokens: 48 },
};

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

describe('a run on the CPU backend from the app', () => {
  it('offers the CPU backend first when WebGPU is missing, and loads a GGUF file picked from disk', async () => {
    await page.goto(settingsUrl({ config: CONFIG }, rig.appUrl));
    await page.getByText('Settings loaded from a link').waitFor({ timeout: 30_000 });
    await page.getByText('This browser has no usable WebGPU').waitFor({ timeout: 30_000 });
    await page.getByTestId('cpu-file').setInputFiles({
      name: 'spade-tiny.gguf',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(makeTinyGguf()),
    });
    await page.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Use wllama:spade-tiny.gguf' }).click();
    await page.getByRole('heading', { name: 'New run' }).waitFor();
    await expect(page.getByRole('heading', { name: 'New run' }).count()).resolves.toBe(1);
  });

  it('designs with the real engine, rejects each nonsense design with its reason, and commits the epoch', async () => {
    await page.getByLabel('Name').fill('cpu run');
    await page.getByLabel('Epochs', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Create run' }).click();
    await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 120_000 });
    await expect(page.getByTestId('epoch-row').count()).resolves.toBe(1);
    const slots = page.locator('section.slot');
    await expect(slots.count()).resolves.toBe(2);
    for (let i = 0; i < 2; i++) {
      await expect(shownText(slots.nth(i).locator('h3'))).resolves.toMatch(/rejected after all attempts/);
      await expect(shownText(slots.nth(i).locator('summary').first())).resolves.toMatch(/invalid: [a-z]+\/[a-z_]+/);
    }
    await expect(page.getByText(shownPattern(/wllama:spade-tiny\.gguf/)).count()).resolves.toBeGreaterThan(0);
    await screenshot(page, 'live-epoch-cpu');
  });
});
