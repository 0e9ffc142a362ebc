// The real web-llm worker engine in Debian's Chromium with WebGPU on SwiftShader (no GPU and no
// network here): capability detection and the recommendation, the worker engine starting, a
// model load failing quickly and clearly offline while the page stays responsive, the shader-f16
// preflight, and a real GPU device loss (the GPU process crashed over CDP).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';
import { shownText } from './page-text.ts';

const PAGE = '/tests/browser/pages/webllm.html';
const RECOMMENDED = 'Qwen3-0.6B-q4f32_1-MLC';

let rig: BrowserRig;
let page: Page;

beforeAll(async () => {
  rig = await startRig(['--enable-unsafe-webgpu']);
  page = await rig.open(PAGE);
  await page.waitForFunction(() => Boolean(window.webllmTest), null, { timeout: 60_000 });
  await page.getByTestId('model-worker').getByText('ready').waitFor({ timeout: 60_000 });
});
afterAll(async () => {
  await rig?.close();
});

/** Round trips of a trivial evaluate while `pending` runs: the page's main thread must keep answering. */
async function pingWhile<T>(pending: Promise<T>): Promise<{ value: T; pings: number; worstPingMs: number }> {
  let done = false;
  let pings = 0;
  let worstPingMs = 0;
  const pinger = (async () => {
    while (!done) {
      const started = Date.now();
      await page.evaluate(() => 1 + 1);
      worstPingMs = Math.max(worstPingMs, Date.now() - started);
      pings++;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  const value = await pending;
  done = true;
  await pinger;
  return { value, pings, worstPingMs };
}

describe('capability detection in Chromium (SwiftShader)', () => {
  it('finds the fallback adapter without shader-f16 and with limits web-llm accepts', async () => {
    const caps = await page.evaluate(() => window.webllmTest.detect());
    expect(caps.webgpu).toBe(true);
    expect(caps.adapter).toMatchObject({ isFallback: true, architecture: 'swiftshader', shaderF16: false });
    expect(caps.adapter!.maxBufferSize).toBeGreaterThanOrEqual(256 * 2 ** 20);
    expect(caps.adapter!.maxStorageBufferBindingSize).toBeGreaterThanOrEqual(128 * 2 ** 20);
  });

  it('recommends the smallest Qwen3 q4f32 build and explains why; f16 builds are marked with their f32 sibling', async () => {
    const rec = await page.evaluate(() => window.webllmTest.recommend());
    expect(rec.verdict).toBe('ok');
    expect(rec.recommendedId).toBe(RECOMMENDED);
    expect(rec.reasons.join(' ')).toMatch(/No shader-f16/);
    expect(rec.reasons.join(' ')).toMatch(/software adapter/);
    const f16 = rec.fits.find((fit) => fit.id === 'Qwen3-4B-q4f16_1-MLC')!;
    expect(f16.fits).toBe(false);
    expect(f16.problems).toEqual(['needs shader-f16, which this GPU lacks: use Qwen3-4B-q4f32_1-MLC']);
    expect(rec.fits.find((fit) => fit.id === 'Qwen3-4B-q4f32_1-MLC')!.fits).toBe(true);
  });

  it('shows the verdict, the worker engine and the recommended model on the setup screen', async () => {
    await expect(shownText(page.getByTestId('model-reasons'))).resolves.toContain('software fallback');
    await expect(page.locator('#model-choice').inputValue()).resolves.toBe(RECOMMENDED);
    const worker = await shownText(page.getByTestId('model-worker'));
    expect(worker).toMatch(
      /^Model worker: ready \(WebGPU in the worker: vendor google, storage buffers up to 1024 MiB; answered in \d+ ms\)$/,
    );
  });
});

describe('the worker engine', () => {
  it('starts a fresh worker whose web-llm engine reaches WebGPU', async () => {
    const probe = await page.evaluate(() => window.webllmTest.probe());
    expect(probe.vendor).toBe('google');
    expect(probe.maxStorageBufferBindingSize).toBe(2 ** 30);
    expect(probe.ms).toBeLessThan(15_000);
  });

  it('fails a load of the recommended model quickly and clearly without network, with the page responsive', async () => {
    const {
      value: load,
      pings,
      worstPingMs,
    } = await pingWhile(page.evaluate((id) => window.webllmTest.loadPrebuilt(id), RECOMMENDED));
    expect(load.ok).toBe(false);
    expect(load.error!.code).toBe('network');
    expect(load.error!.message).toMatch(/^Could not download Qwen3-0\.6B-q4f32_1-MLC: huggingface\.co is unreachable/);
    expect(load.error!.nextStep).toMatch(/Custom model/);
    expect(load.progress[0]!.stage).toBe('preparing');
    expect(load.ms).toBeLessThan(5_000);
    expect(load.maxStallMs).toBeLessThan(250);
    expect(pings).toBeGreaterThan(0);
    expect(worstPingMs).toBeLessThan(1_000);
    console.info(
      `offline load failure: ${load.ms} ms; worst main-thread stall ${load.maxStallMs} ms; ${pings} pings, worst ${worstPingMs} ms`,
    );
  });

  it('reports the offline failure on the setup screen, and a second attempt fails the same way', async () => {
    for (let attempt = 0; attempt < 2; attempt++) {
      const from = await page.evaluate(() => window.webllmTest.phases.length);
      const started = Date.now();
      await page.getByRole('button', { name: 'Load model' }).click();
      await page.waitForFunction((n) => window.webllmTest.phases.slice(n).join(' ') === 'loading failed', from, {
        timeout: 15_000,
      });
      const ms = Date.now() - started;
      const alert = page.getByTestId('model-error');
      expect(await shownText(alert)).toContain('Could not download Qwen3-0.6B-q4f32_1-MLC');
      expect(await shownText(alert)).toMatch(/Next step: Check the connection and load again/);
      expect(ms).toBeLessThan(5_000);
      console.info(`offline load failure through the UI (attempt ${attempt + 1}): ${ms} ms from click to message`);
    }
  });

  it('refuses an f16 build on a GPU without shader-f16 before starting a load, and names the f32 build', async () => {
    await page.locator('#model-choice').selectOption('Qwen3-4B-q4f16_1-MLC');
    await page.getByRole('button', { name: 'Load model' }).click();
    const alert = page.getByTestId('model-error');
    await alert.getByText('Qwen3-4B-q4f16_1-MLC needs shader-f16, which this GPU lacks.').waitFor({ timeout: 5_000 });
    expect(await shownText(alert)).toContain('Next step: Load Qwen3-4B-q4f32_1-MLC instead');
    expect(await page.evaluate(() => window.webllmTest.controller.state.phase)).toBe('failed');
  });
});

describe('a lost GPU device', () => {
  it('is reported by the worker and the worker engine is started again', async () => {
    await page.evaluate(() => window.webllmTest.session.probe());
    const before = await page.evaluate(() => window.webllmTest.sessionEvents.length);
    const cdp = await rig.browser.newBrowserCDPSession();
    await cdp.send('Browser.crashGpuProcess');
    await page.waitForFunction(
      (from) => window.webllmTest.sessionEvents.slice(from).some((e) => e.type === 'device-lost'),
      before,
      { timeout: 30_000 },
    );
    const lost = await page.evaluate(
      (from) => window.webllmTest.sessionEvents.slice(from).find((e) => e.type === 'device-lost'),
      before,
    );
    expect(lost).toMatchObject({ type: 'device-lost' });
    expect((lost as { message: string }).message).toMatch(/^DeviceLostError: the GPU device was lost \(unknown/);
    await page.getByTestId('model-worker').getByText('ready').waitFor({ timeout: 60_000 });
    expect(await shownText(page.getByTestId('model-status'))).toContain('restarting the worker engine');
  });
});
