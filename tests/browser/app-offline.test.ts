// The production build as a project page on a plain static host: served under /spade-lab/ with no
// COOP/COEP headers (tests/browser/static-server.ts). The first visit works without cross-origin
// isolation and its service worker stores the whole app; then the host is shut down and the
// browser put offline, and the app still reloads (now isolated by the worker's headers), runs a
// demo epoch in Pyodide served from the precache, validates in the sandbox, and reopens the stored
// run in the Runs list and the explorer. A new release, found before the host went down, is
// announced, refused in every tab while the run is in progress, and taken on reload after it.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_TEST_TIMEOUT_MS } from './app-helpers.ts';
import { BUILT_APP_BASE, builtApp } from './built-app.ts';
import { CHROMIUM_ARGS } from './harness.ts';
import { serveStatic, type StaticHost } from './static-server.ts';
import { shownPattern, shownText } from './page-text.ts';

let outDir: string;
let host: StaticHost;
let browser: Browser;
let context: BrowserContext;
let page: Page;

beforeAll(async () => {
  outDir = await builtApp();
  host = await serveStatic(outDir, BUILT_APP_BASE);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  context = await browser.newContext();
  await context.addInitScript(() => localStorage.setItem('spade-lab-demo-speed', 'instant'));
  page = await context.newPage();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(host.baseUrl + '/');
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await host?.close();
});

/** What the precache holds: its files (paths below the sub-path) and their bytes in total. */
async function precache(): Promise<{ files: string[]; bytes: number }> {
  return page.evaluate(async () => {
    const name = (await caches.keys()).find((key) => key.startsWith('workbox-precache'));
    if (!name) return { files: [], bytes: 0 };
    const cache = await caches.open(name);
    const requests = await cache.keys();
    let bytes = 0;
    for (const request of requests) bytes += (await (await cache.match(request))!.blob()).size;
    return { files: requests.map((request) => new URL(request.url).pathname), bytes };
  });
}

const heading = () => shownText(page.getByRole('heading', { level: 1 }));
const takeUpdate = (on: Page) => on.getByRole('button', { name: 'Reload to update' });
const releaseWaiting = (on: Page) =>
  on.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => Boolean(registration?.waiting)));

describe('the built app on a static host under a sub-path, without isolation headers', () => {
  it('works without cross-origin isolation on the first visit (the CPU backend says it runs on one thread), asking only for files under its sub-path', async () => {
    await expect(heading()).resolves.toBe('SPADE Lab');
    await expect(page.evaluate('crossOriginIsolated')).resolves.toBe(false);
    await expect(shownText(page.getByTestId('cpu-threads'))).resolves.toMatch(
      /One thread: this page is not cross-origin isolated/,
    );
    expect(host.requested.length).toBeGreaterThan(0);
    expect(host.requested.filter((path) => !path.startsWith(BUILT_APP_BASE))).toEqual([]);
  });

  it('installs as a PWA: a manifest with icons, and a service worker that precaches the whole app', async () => {
    const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
    const manifest = JSON.parse(readFileSync(join(outDir, 'manifest.webmanifest'), 'utf8')) as {
      name: string;
      icons: Array<{ src: string; sizes: string }>;
      start_url: string;
    };
    expect(manifestHref).toBe(`${BUILT_APP_BASE}manifest.webmanifest`);
    expect(manifest.name).toBe('SPADE Lab');
    expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    await page.getByTestId('offline-ready').waitFor({ timeout: 120_000 });
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    const { files, bytes } = await precache();
    console.log(`precache: ${files.length} files, ${(bytes / 1024 / 1024).toFixed(1)} MiB`);
    const under = (path: string) => `${BUILT_APP_BASE}${path}`;
    for (const path of [
      'index.html',
      'pyodide/pyodide.asm.wasm',
      'pyodide/python_stdlib.zip',
      'pyodide/pyodide-lock.json',
      'pyodide/sandbox-snapshot.bin.gz',
      'manifest.webmanifest',
    ]) {
      expect(files).toContain(under(path));
    }
    // Every file of public/: the demo scripts, the corpus, the suites, the pools, the icons.
    const served = readdirSync('public', { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(served.length).toBeGreaterThan(40);
    for (const entry of served) expect(files).toContain(under(relative('public', join(entry.parentPath, entry.name))));
    expect(files.filter((path) => /\/assets\/llm-worker-[^/]+\.js$/.test(path))).toHaveLength(1);
    expect(files.filter((path) => /\/assets\/wllama-[^/]+\.wasm$/.test(path))).toHaveLength(1);
  });

  it('finds a new release while online and keeps it waiting', async () => {
    host.replace(
      'service-worker.js',
      readFileSync(join(outDir, 'service-worker.js'), 'utf8') + '\n// the next release\n',
    );
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration?.update()));
    await page.getByTestId('update-notice').waitFor({ timeout: 60_000 });
    await expect(releaseWaiting(page)).resolves.toBe(true);
    expect(host.requested.filter((path) => path === `${BUILT_APP_BASE}service-worker.js`).length).toBeGreaterThan(1);
  });

  it(
    'with the host gone and the network off, reloads (now isolated by the worker) and runs a demo epoch, the release refused in every tab while the run is in progress',
    async () => {
      await host.close();
      await context.setOffline(true);
      await page.reload();
      await expect(heading()).resolves.toBe('SPADE Lab');
      await expect(page.evaluate('crossOriginIsolated')).resolves.toBe(true);
      await page.getByTestId('update-notice').waitFor({ timeout: 30_000 });
      await page.getByRole('button', { name: 'Start the demo' }).click();
      await page.getByLabel('Epochs', { exact: true }).fill('1');
      await page.getByRole('spinbutton', { name: /^Slots per epoch/ }).fill('2');
      await page.getByRole('button', { name: 'Create run' }).click();
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.getByTestId('run-status').filter({ hasText: 'paused' }).waitFor({ timeout: 30_000 });
      await expect(takeUpdate(page).isDisabled()).resolves.toBe(true);
      // Another tab (opened offline) sees the release; its button refuses while this tab's run holds its lock.
      const other = await context.newPage();
      await other.goto(host.baseUrl + '/');
      await other.getByTestId('update-notice').waitFor({ timeout: 30_000 });
      await takeUpdate(other).click();
      await other.getByTestId('update-message').filter({ hasText: 'A run is in progress' }).waitFor();
      await expect(releaseWaiting(other)).resolves.toBe(true);
      await other.close();
      await page.getByRole('button', { name: 'Resume' }).click();
      const status = page.getByTestId('run-status');
      await status.filter({ hasText: shownPattern(/completed|failed/) }).waitFor({ timeout: 240_000 });
      expect(await shownText(status), (await page.getByRole('alert').allInnerTexts()).join(' | ')).toContain(
        'completed',
      );
      await expect(page.getByTestId('epoch-row').count()).resolves.toBe(1);
      await expect(releaseWaiting(page)).resolves.toBe(true);
    },
    DEMO_TEST_TIMEOUT_MS,
  );

  it('validates in the sandbox offline', async () => {
    await page.getByRole('button', { name: 'Sandbox' }).click();
    await page.getByRole('button', { name: 'Validate' }).click();
    const verdict = page.getByTestId('validation-result').getByText('Valid: CodeBreakerEnv');
    await verdict.waitFor({ timeout: 90_000 });
    await expect(verdict.count()).resolves.toBe(1);
  });

  it('takes the release on reload once no run is in progress, offline, and reopens the stored run in the Runs list and the explorer', async () => {
    const reloaded = page.waitForEvent('load', { timeout: 30_000 });
    await takeUpdate(page).click();
    await reloaded;
    await expect(heading()).resolves.toBe('SPADE Lab');
    await page.waitForFunction(() =>
      navigator.serviceWorker.getRegistration().then((registration) => registration?.active?.state === 'activated'),
    );
    await expect(releaseWaiting(page)).resolves.toBe(false);
    await expect(page.getByTestId('update-notice').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Runs', exact: true }).click();
    await page
      .getByText(shownPattern(/scripted:spade-lab-demo · completed · epochs 1\/1/))
      .waitFor({ timeout: 30_000 });
    await page.getByRole('button', { name: 'Explorer', exact: true }).click();
    await page
      .getByTestId('explorer-status')
      .filter({ hasText: shownPattern(/^2 environments · first rows in/) })
      .waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('explorer-row').count()).resolves.toBe(2);
  });
});
