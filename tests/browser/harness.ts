import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ViteDevServer } from 'vite';
import type { DemoSpeed } from '../../src/app/run/demo-speed.ts';
import type { ScoreHold } from '../../src/app/run/score-hold.ts';

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
  /** The rig's own server, or null when it uses its project's shared one. */
  server: ViteDevServer | null;
  browser: Browser;
  /** The dev server's root (test pages are under /tests/). */
  baseUrl: string;
  /** The app's URL, ending in a slash: the production build on the browser tier's shared server, else the dev server's app. */
  appUrl: string;
  /** Opens a fresh page (own context, so fresh storage; service workers blocked) at `path`: a test page under /tests/, else a path of the app; `demoSpeed` presets the demo's speed control (tests not about pacing use `instant`), `scoreHold` how long an epoch's scores stay before the next epoch (tests not about the hold use `off`). */
  open(path: string, options?: { demoSpeed?: DemoSpeed; scoreHold?: ScoreHold }): Promise<Page>;
  close(): Promise<void>;
}

/** The test project's shared server and the app's URL on it (see vite-global-setup.ts), or null outside vitest (benchmarks). */
async function sharedServer(): Promise<{ baseUrl: string; appUrl: string } | null> {
  if (!process.env.VITEST) return null;
  const { inject } = await import('vitest');
  const [baseUrl, appUrl] = [inject('appBaseUrl'), inject('appUrl')];
  return baseUrl && appUrl ? { baseUrl, appUrl } : null;
}

/**
 * Opens Debian's Chromium on the app: the project's shared server (for the browser tier the
 * production build under /spade-lab/, for the timed files the dev app; the test pages from the
 * dev server) unless `options.ownServer` (or where there is none: benchmarks), then a dev server
 * of its own (the dev app). `options.scrollbars` keeps the classic scrollbars a desktop browser
 * draws (headless hides them), for tests about the page's width.
 */
export async function startRig(
  extraArgs: string[] = [],
  options: { ownServer?: boolean; scrollbars?: boolean } = {},
): Promise<BrowserRig> {
  const shared = options.ownServer ? null : await sharedServer();
  // Vite is loaded only by a file that starts a server of its own (about 0.9 CPU-s a file).
  const { server, baseUrl, appUrl } = shared ? { server: null, ...shared } : await ownServer();
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
    ...(options.scrollbars ? { ignoreDefaultArgs: ['--hide-scrollbars'] } : {}),
  });
  return {
    server,
    browser,
    baseUrl,
    appUrl,
    async open(path, options = {}) {
      // The production build's service worker would precache the whole app in every context.
      const context = await browser.newContext({ serviceWorkers: 'block' });
      if (options.demoSpeed)
        await context.addInitScript((speed) => localStorage.setItem('spade-lab-demo-speed', speed), options.demoSpeed);
      if (options.scoreHold)
        await context.addInitScript((hold) => localStorage.setItem('spade-lab-score-hold', hold), options.scoreHold);
      const page = await context.newPage();
      await page.goto(path.startsWith('/tests/') ? baseUrl + path : appUrl + path.replace(/^\//, ''));
      return page;
    },
    async close() {
      await browser.close();
      await server?.close();
    },
  };
}

// A dev server for one rig: the dev app at its root.
async function ownServer(): Promise<{ server: ViteDevServer; baseUrl: string; appUrl: string }> {
  const { server, baseUrl } = await (await import('./app-server.ts')).startAppServer();
  return { server, baseUrl, appUrl: `${baseUrl}/` };
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

/** The app on the tier's server in a fresh context at 1280x900, its demo streaming at once (tests not about pacing). */
export async function openApp(): Promise<{ rig: BrowserRig; page: Page }> {
  const rig = await startRig();
  const page = await rig.open('/', { demoSpeed: 'instant' });
  await page.setViewportSize({ width: 1280, height: 900 });
  return { rig, page };
}
