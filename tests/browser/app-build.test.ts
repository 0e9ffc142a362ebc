// The production build (the tier's one build, made for the sub-path /spade-lab/), served the way
// `npm run preview` serves it, in Debian's Chromium: what users get from a static host that sends
// the isolation headers (app-offline.test.ts covers one that does not). The other app tests drive
// the same build on the tier's dev server; this one proves the bundle carries, on a plain preview
// server, what they rely on: the sandbox worker and Pyodide's files with the interpreter snapshot,
// the web-llm worker, wllama's wasm, the demo script and corpus, and the COOP/COEP headers that
// make the page cross-origin isolated (threads for the CPU backend).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentSandboxSnapshot } from '../../src/adapters/sandbox/node-sandbox.ts';
import { SNAPSHOT_FILE } from '../../src/adapters/sandbox/vite-plugin.ts';
import { makeTinyGguf } from '../fixtures/gguf/make-tiny-gguf.ts';
import { FIRST_VIEW_BUDGET_BYTES, firstViewFiles, totalGzip } from '../bench/first-view.ts';
import { DEMO_TEST_TIMEOUT_MS } from './app-helpers.ts';
import { BUILT_APP_BASE, builtApp } from './built-app.ts';
import { CHROMIUM_ARGS } from './harness.ts';
import { shownPattern, shownText } from './page-text.ts';

let server: PreviewServer;
let browser: Browser;
let baseUrl: string;
let page: Page;
let outDir: string;
const requests: string[] = [];
const loaded: Request[] = [];

beforeAll(async () => {
  outDir = await builtApp();
  server = await preview({
    configFile: 'vite.config.ts',
    base: BUILT_APP_BASE,
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not listen on a TCP port');
  baseUrl = `http://127.0.0.1:${address.port}${BUILT_APP_BASE.replace(/\/$/, '')}`;
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, '--enable-unsafe-webgpu'],
  });
  const context = await browser.newContext();
  // The bundle is the point here, not the demo's pacing: its replies stream at once.
  await context.addInitScript(() => localStorage.setItem('spade-lab-demo-speed', 'instant'));
  context.on('request', (request) => {
    requests.push(request.url());
    loaded.push(request);
  });
  page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(baseUrl + '/');
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('the production build', () => {
  it('loads a first view of at most 400 KB gzip: no sandbox worker, no view but the first, web-llm only for the WebGPU probe', async () => {
    // The first view is what loaded before any click, once the page has settled (Python starts on its first need, not at load).
    // Settled: the Model view's WebGPU probe has answered (this Chromium has WebGPU) and nothing is loading.
    await page
      .getByTestId('python-status')
      .getByText('Python starts when a run or an environment needs it')
      .waitFor({ timeout: 150_000 });
    await page.getByTestId('model-worker').getByText('ready').waitFor({ timeout: 60_000 });
    await page.waitForLoadState('networkidle');
    // The page asked for none of Python's files (the service worker precaches them, as it does every file).
    expect(
      loaded
        .filter((request) => !request.serviceWorker() && /\/pyodide\/|sandbox-worker/.test(request.url()))
        .map((request) => request.url()),
    ).toEqual([]);
    const firstView = firstViewFiles(loaded, baseUrl + '/', outDir);
    // Where WebGPU works (this Chromium has it), the Model view proves the worker engine at once:
    // web-llm's library and its worker (about 4 MB gzip) come on top, both or neither.
    const probe = firstView.filter((file) => /^\/assets\/(lib|llm-worker)-/.test(file.path));
    const app = firstView.filter((file) => !probe.includes(file));
    expect([[], ['lib', 'llm-worker']]).toContainEqual(
      probe.map((file) => (file.path.startsWith('/assets/lib-') ? 'lib' : 'llm-worker')).sort(),
    );
    const paths = app.map((file) => file.path);
    expect(paths).toContain('/index.html');
    expect(paths.some((path) => /^\/assets\/index-.*\.js$/.test(path))).toBe(true);
    expect(
      paths.filter((path) => /sandbox-worker|RunView|Charts|ChartPlot|EnvironmentPage|Explorer/.test(path)),
    ).toEqual([]);
    expect(totalGzip(app)).toBeLessThanOrEqual(FIRST_VIEW_BUDGET_BYTES);
  }, 180_000);

  it('is served cross-origin isolated and validates the example environment in its bundled sandbox', async () => {
    await expect(shownText(page.getByRole('heading', { level: 1 }))).resolves.toBe('SPADE Lab');
    await expect(page.evaluate('crossOriginIsolated')).resolves.toBe(true);
    await page.getByRole('button', { name: 'Sandbox' }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    const result = page.getByTestId('validation-result');
    await result.getByText('Valid: CodeBreakerEnv').waitFor({ timeout: 90_000 });
    expect(await shownText(result)).toContain('determinism: passed');
    // The validation was Python's first need: it started Python, and the header says so.
    await page.getByTestId('python-status').getByText('Python ready').waitFor({ timeout: 150_000 });
  });

  it("ships the Node sandbox's interpreter snapshot, gzipped, and the page's interpreters start from it", async () => {
    const shipped = gunzipSync(readFileSync(join(outDir, 'pyodide', SNAPSHOT_FILE)));
    const made = await currentSandboxSnapshot();
    expect(made).not.toBeNull();
    expect(shipped.equals(Buffer.from(made!))).toBe(true);
    // The page's fetch (the service worker's precache asks for it too).
    expect(requests.filter((url) => url.endsWith(`/pyodide/${SNAPSHOT_FILE}`)).length).toBeGreaterThan(0);
  });

  it('starts the web-llm worker engine and fails the offline model load with a next step', async () => {
    await page.getByRole('button', { name: 'Model', exact: true }).click();
    await page.getByTestId('model-worker').getByText('ready').waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Load model' }).click();
    const alert = page.getByTestId('model-error');
    await alert.waitFor({ timeout: 30_000 });
    expect(await shownText(alert)).toMatch(/Could not download .*Next step:/s);
  });

  it('loads a GGUF file on the CPU backend with threads, from the wasm the build ships', async () => {
    await page.getByTestId('cpu-file').setInputFiles({
      name: 'spade-tiny.gguf',
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(makeTinyGguf()),
    });
    await page.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
    await expect(shownText(page.getByTestId('cpu-threads'))).resolves.toMatch(/cross-origin isolated: \d+ threads of/);
    const wasm = [...new Set(requests.filter((url) => url.endsWith('.wasm')))];
    expect(wasm.filter((url) => url.includes('wllama'))).toHaveLength(1);
    expect(wasm.every((url) => url.startsWith(`${baseUrl}/`))).toBe(true);
  });

  it(
    'runs an epoch of the demo and keeps it after a reload',
    async () => {
      await page.getByRole('button', { name: 'Start the demo' }).click();
      await page.getByLabel('Epochs', { exact: true }).fill('1');
      // Two slots: the bundle's sandbox, demo script and store are the point, not the demo's games.
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      await page.getByRole('button', { name: 'Create run' }).click();
      await page.getByText('invalid: probe/step_bad_return').waitFor({ timeout: 60_000 });
      await page.getByTestId('run-status').filter({ hasText: 'completed' }).waitFor({ timeout: 240_000 });
      await expect(page.getByTestId('epoch-row').count()).resolves.toBe(1);
      await page.reload();
      await page.getByRole('button', { name: 'Runs', exact: true }).click();
      await page
        .getByText(shownPattern(/scripted:spade-lab-demo · completed · epochs 1\/1/))
        .waitFor({ timeout: 30_000 });
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it('asked for nothing outside its own origin except the model host it was told to use', async () => {
    const outside = [
      ...new Set(
        requests.filter(
          (url) => !url.startsWith(`${baseUrl}/`) && !url.startsWith('blob:') && !url.startsWith('data:'),
        ),
      ),
    ];
    expect(outside.every((url) => url.startsWith('https://huggingface.co/'))).toBe(true);
  });
});
