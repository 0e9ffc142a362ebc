// The production build's Python starts from the interpreter snapshot it ships, whatever the static
// host does with a .gz file: `vite preview` (as many hosts) serves it with Content-Encoding: gzip,
// so the page receives the unpacked 31 MB; a plain host serves the gzip bytes as they are. Both
// must start from the snapshot, not cold (also offline, from what the service worker stored), and
// a snapshot the page cannot use must be said in the header, never a silent cold start. Service
// workers are blocked except in the offline test: each page fetches from its host.
import type { Browser, Page, Response } from 'playwright-core';
import { chromium } from 'playwright-core';
import { preview, type PreviewServer } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SNAPSHOT_FILE } from '../../src/adapters/sandbox/vite-plugin.ts';
import { BUILT_APP_BASE, builtApp } from './built-app.ts';
import { CHROMIUM_ARGS } from './harness.ts';
import { serveStatic, type StaticHost } from './static-server.ts';
import { shownPattern, shownText } from './page-text.ts';

/** Hang guards for a Python start on this loaded machine (a cold one took 20-45 s, and up to 2 minutes under load), and for a test of one or two starts. */
const PYTHON_START_MS = 180_000;
const TEST_MS = 2 * PYTHON_START_MS;

let server: PreviewServer;
let host: StaticHost;
let browser: Browser;
let previewUrl: string;

beforeAll(async () => {
  const outDir = await builtApp();
  server = await preview({
    configFile: 'vite.config.ts',
    base: BUILT_APP_BASE,
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not listen on a TCP port');
  previewUrl = `http://127.0.0.1:${address.port}${BUILT_APP_BASE}`;
  host = await serveStatic(outDir, BUILT_APP_BASE);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await host?.close();
});

/** Opens a new run's form, which starts Python (the page alone does not). */
async function startPython(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Model', exact: true }).click({ timeout: PYTHON_START_MS });
  await page.getByRole('button', { name: 'Start the demo' }).click();
}

/** Opens the app at `url` in a fresh context, starts Python and waits until it is ready (or failed); returns the page, the header's Python status, what it says Python started from, and the snapshot's response. */
async function bootAt(
  url: string,
): Promise<{ page: Page; status: string; startedFrom: string | null; snapshot: Response }> {
  const context = await browser.newContext({ serviceWorkers: 'block' });
  const page = await context.newPage();
  const snapshot = page.waitForResponse((response) => response.url().endsWith(`/pyodide/${SNAPSHOT_FILE}`), {
    timeout: PYTHON_START_MS,
  });
  await page.goto(url);
  await startPython(page);
  const status = page.getByTestId('python-status');
  await status.getByText(shownPattern(/Python ready|Python could not start/)).waitFor({ timeout: PYTHON_START_MS });
  const text = await shownText(status);
  return { page, status: text, startedFrom: await status.getAttribute('data-started-from'), snapshot: await snapshot };
}

describe("the built app's Python on static hosts", () => {
  it(
    'starts from the snapshot behind vite preview, which hands the page the snapshot already unpacked',
    async () => {
      const { page, status, startedFrom, snapshot } = await bootAt(previewUrl);
      expect(snapshot.headers()['content-encoding']).toBe('gzip');
      expect({ startedFrom, status }).toEqual({
        startedFrom: 'snapshot',
        status: expect.not.stringContaining('Started cold'),
      });
      await expect(page.getByTestId('python-cold').count()).resolves.toBe(0);
      await page.context().close();
    },
    TEST_MS,
  );

  it(
    'starts from the snapshot behind a plain static host that serves the gzip bytes as they are',
    async () => {
      const { page, status, startedFrom, snapshot } = await bootAt(`${host.baseUrl}/`);
      expect(snapshot.headers()['content-encoding']).toBeUndefined();
      expect((await snapshot.body()).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
      expect({ startedFrom, status }).toEqual({
        startedFrom: 'snapshot',
        status: expect.not.stringContaining('Started cold'),
      });
      await expect(page.getByTestId('python-cold').count()).resolves.toBe(0);
      await page.context().close();
    },
    TEST_MS,
  );

  it(
    'starts from the snapshot offline behind vite preview, from what the service worker stored (the unpacked snapshot)',
    async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(previewUrl);
      await page.getByTestId('offline-ready').waitFor({ timeout: PYTHON_START_MS });
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
      const stored = await page.evaluate(async (file) => {
        const name = (await caches.keys()).find((key) => key.startsWith('workbox-precache'));
        const cache = await caches.open(name ?? '');
        const requests = await cache.keys();
        let bytes = 0;
        for (const request of requests) bytes += (await (await cache.match(request))!.blob()).size;
        // Workbox keys its entries with a revision query.
        const snapshot = requests.find((request) => new URL(request.url).pathname.endsWith(`/pyodide/${file}`));
        const head = snapshot
          ? [...new Uint8Array(await (await cache.match(snapshot))!.arrayBuffer()).subarray(0, 4)]
          : [];
        return { files: requests.length, bytes, head };
      }, SNAPSHOT_FILE);
      console.log(
        `precache behind vite preview: ${stored.files} files, ${(stored.bytes / 1024 / 1024).toFixed(1)} MiB`,
      );
      // The cache holds what the host's Content-Encoding made of the file: the unpacked snapshot.
      expect(stored.head).toEqual([0x00, 0x73, 0x6e, 0x70]);
      await context.setOffline(true);
      await page.reload();
      await startPython(page);
      const status = page.getByTestId('python-status');
      await status.getByText(shownPattern(/Python ready|Python could not start/)).waitFor({ timeout: PYTHON_START_MS });
      await expect(status.getAttribute('data-started-from')).resolves.toBe('snapshot');
      await context.close();
    },
    TEST_MS,
  );

  it(
    'says in the header why it started cold when the host serves something else for the snapshot',
    async () => {
      // A host that answers a missing file with its index page, as single-page hosts do.
      host.replace(`pyodide/${SNAPSHOT_FILE}`, '<!doctype html><title>Not found</title>');
      const { page, status, startedFrom } = await bootAt(`${host.baseUrl}/`);
      expect(startedFrom).toBe('cold');
      expect(status).toMatch(
        /Started cold: the build's Python snapshot is neither gzip data nor a Pyodide snapshot \(39 bytes starting 3c 21 64 6f\)[,.]/,
      );
      await page.context().close();
    },
    TEST_MS,
  );
});
