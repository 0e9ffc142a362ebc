// Debian's Chromium without --enable-unsafe-webgpu: navigator.gpu exists but grants no adapter
// on this machine, so the setup screen must say that no model can run here and what to do,
// offer no load, and start no worker.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';
import { shownText } from './page-text.ts';

let rig: BrowserRig;
let page: Page;

beforeAll(async () => {
  rig = await startRig();
  page = await rig.open('/tests/browser/pages/webllm.html');
  await page.waitForFunction(() => Boolean(window.webllmTest), null, { timeout: 60_000 });
  await page.waitForFunction(() => window.webllmTest.controller.state.phase !== 'detecting', null, { timeout: 30_000 });
});
afterAll(async () => {
  await rig?.close();
});

describe('a Chromium without WebGPU', () => {
  it('detects no adapter and recommends nothing', async () => {
    const caps = await page.evaluate(() => window.webllmTest.detect());
    expect(caps).toMatchObject({ webgpu: true, adapter: null });
    const rec = await page.evaluate(() => window.webllmTest.recommend());
    expect(rec.verdict).toBe('no-adapter');
    expect(rec.recommendedId).toBeNull();
    expect(rec.fits.every((fit) => !fit.fits)).toBe(true);
  });

  it('says so on the setup screen with a next step, offers no load and starts no worker', async () => {
    const state = await page.evaluate(() => window.webllmTest.controller.state);
    expect(state.phase).toBe('unsupported');
    expect(state.worker).toBeNull();
    await expect(shownText(page.getByTestId('model-reasons'))).resolves.toContain(
      'WebGPU exists but the browser granted no GPU adapter',
    );
    await expect(shownText(page.getByTestId('model-verdict'))).resolves.toMatch(/^Check chrome:\/\/gpu/);
    expect(await page.getByRole('button', { name: 'Load model' }).count()).toBe(0);
    expect(await page.getByTestId('model-worker').count()).toBe(0);
  });

  it('refuses a load request with the same verdict', async () => {
    const loaded = await page.evaluate(() => window.webllmTest.controller.load('Qwen3-0.6B-q4f32_1-MLC'));
    expect(loaded).toBe(false);
    const state = await page.evaluate(() => window.webllmTest.controller.state);
    expect(state.phase).toBe('unsupported');
    expect(state.error).toMatchObject({ code: 'no_webgpu' });
    expect(state.error!.message).toContain('granted no GPU adapter');
  });
});
