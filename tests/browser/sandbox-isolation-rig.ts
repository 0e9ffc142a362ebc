// The shared rig of the sandbox isolation tests (sandbox-isolation-python.test.ts and
// sandbox-isolation-js.test.ts): one Chromium on the sandbox test page with its own app server,
// a leak recorder both servers are watched through, the app-origin markers, and the checks every
// run makes: the set-up controls first, the intact markers and the leak-free page last.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';
import { LEAK_DOMAIN, startLeakRecorder, type LeakRecorder } from './leak-recorder.ts';
import type { AppStorageSnapshot } from './pages/app-storage-markers.ts';
import type {} from './pages/sandbox-page.ts';

const PAGE = '/tests/browser/pages/sandbox.html';
/** The marker put into every store of the app origin; an escaped environment would find it there. */
export const MARKER = `spade-marker-${randomUUID()}`;

/** The test's browser and its app server. */
export let rig: BrowserRig;
/** The leak recorder: any request, connection or name look-up reaching it came from the test's page. */
export let leak: LeakRecorder;
/** The sandbox test page. */
export let page: Page;
/** Requests that reached the app's own (Vite) server on a leak path. */
export const appLeaks: string[] = [];
/** TCP connections the leak server had after the set-up controls; any later one is a sandbox's. */
export let controlConnections = 0;
/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every recorded request except the controls' (whose tags start with "control-"). */
export function leaks(): string[] {
  return [...leak.requests.map((r) => `leak server: ${r}`), ...appLeaks.map((r) => `app server: ${r}`)].filter(
    (r) => !r.includes('/control-'),
  );
}

/** What the app origin holds now. */
export const readStorage = (): Promise<AppStorageSnapshot> => page.evaluate(() => window.spadeTest.readAppStorage());

/** Prints a finding for the test's output. */
export function show(label: string, value: unknown): void {
  console.log(`${label}:\n${JSON.stringify(value, null, 2)}`);
}

/** Opens the rig around the test file and runs its set-up controls (call first, at the top level). */
export function openIsolationRig(): void {
  beforeAll(async () => {
    // The browser project shares loaded modules between files: each file starts with its own list.
    appLeaks.length = 0;
    // Its own server: the test watches that server's requests for leaks.
    rig = await startRig([`--host-resolver-rules=MAP *.${LEAK_DOMAIN} 127.0.0.1`], { ownServer: true });
    leak = await startLeakRecorder();
    rig.server?.httpServer?.on('request', (req: IncomingMessage) => {
      if (req.url && /leak/i.test(req.url)) appLeaks.push(`${req.method} ${req.url}`);
    });
    page = await rig.open(PAGE);
    await page.waitForFunction(() => window.spadeTest !== undefined, undefined, { timeout: 60_000 });
    await page.evaluate((marker) => window.spadeTest.seedAppStorage(marker), MARKER);
  });

  afterAll(async () => {
    await page?.evaluate(() => window.spadeTest.closeRuntime()).catch(() => undefined);
    await rig?.close();
    await leak?.close();
  });

  describe('set-up and controls', () => {
    it('the app origin holds the markers and both recorders hear requests the page makes itself', async () => {
      const storage = await readStorage();
      expect(storage.idb.marker).toBe(MARKER);
      expect(storage.cache.marker).toBe(MARKER);
      expect(storage.localStorage.marker).toBe(MARKER);
      expect(storage.opfs.marker).toBe(MARKER);
      await page.evaluate(async (origin) => {
        await fetch(`${origin}/leak/control-page/fetch`, { mode: 'no-cors' });
        await fetch('/__leak/control-page/fetch');
      }, leak.origin);
      expect(leak.requests).toContain('GET /leak/control-page/fetch');
      expect(appLeaks).toContain('GET /__leak/control-page/fetch');
      expect(leaks()).toEqual([]);
      expect(leak.tcpConnections).toBeGreaterThan(0);
      controlConnections = leak.tcpConnections;
    });
  });
}

/** The last checks of a run: the app-origin markers are intact and nothing was written (call after the attacks). */
export function itFindsAppStorageIntact(): void {
  it("the app's IndexedDB, Cache Storage, localStorage and OPFS markers are intact and nothing was written", async () => {
    const storage = await readStorage();
    expect(storage.idb).toEqual({ marker: MARKER, pwned: null, stores: ['kv'] });
    expect(storage.cache.marker).toBe(MARKER);
    expect(storage.cache.pwned).toBeNull();
    expect(storage.localStorage).toEqual({ marker: MARKER, pwned: null });
    expect(storage.opfs).toEqual({ marker: MARKER, pwned: null, error: null });
    expect(leaks()).toEqual([]);
  });
}

/** The final check of a run: the page recorded no leak from start to end (call last, at the top level). */
export function describeNoLeakOverTheRun(): void {
  describe('the page itself', () => {
    it('recorded no leak over the whole run', () => {
      expect(leaks()).toEqual([]);
    });
  });
}
