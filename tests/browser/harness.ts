import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createServer, type ViteDevServer } from 'vite';
import type { DemoSpeed } from '../../src/app/demo-speed.ts';

/** Chromium flags this machine needs for headless runs. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A running app (Vite dev server) and a Chromium to drive it. */
export interface BrowserRig {
  server: ViteDevServer;
  browser: Browser;
  baseUrl: string;
  /** Opens a fresh page (own context, so fresh storage) at `path`; `demoSpeed` presets the demo's speed control (tests not about pacing use `instant`). */
  open(path: string, options?: { demoSpeed?: DemoSpeed }): Promise<Page>;
  close(): Promise<void>;
}

/** Starts the app on a free port and Debian's Chromium. */
export async function startRig(extraArgs: string[] = []): Promise<BrowserRig> {
  const server = await createServer({ configFile: 'vite.config.ts', server: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'error' });
  // No file watching: a change elsewhere in the tree must not reload a page mid-test.
  await server.watcher.close();
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite did not listen on a TCP port');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: [...CHROMIUM_ARGS, ...extraArgs] });
  return {
    server,
    browser,
    baseUrl,
    async open(path, options = {}) {
      const context = await browser.newContext();
      if (options.demoSpeed) await context.addInitScript((speed) => localStorage.setItem('spade-lab-demo-speed', speed), options.demoSpeed);
      const page = await context.newPage();
      await page.goto(baseUrl + path);
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
    },
  };
}

/** Serves `path` in `context` without the COOP and COEP headers, as a static host that drops them would: the page is then not cross-origin isolated. */
export async function serveWithoutIsolation(context: BrowserContext, path: string): Promise<void> {
  await context.route(`**${path}`, async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['cross-origin-opener-policy'];
    delete headers['cross-origin-embedder-policy'];
    await route.fulfill({ response, headers });
  });
}
