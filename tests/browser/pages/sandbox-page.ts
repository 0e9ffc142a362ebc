// Test-only page module (tests/browser/pages/sandbox.html): puts the real browser sandbox runtime,
// the validator and the sandbox frame on `window.spadeTest` for the Playwright tests
// tests/browser/sandbox-isolation.test.ts, sandbox-runtime.test.ts and sandbox-snapshot.test.ts.
import { sandboxAssets } from 'virtual:spade-sandbox';
import {
  browserSandboxSpawner,
  createBrowserSandboxRuntime,
  type BrowserSandboxSpawner,
  type SnapshotUse,
} from '../../../src/adapters/sandbox/browser-sandbox.ts';
import { PyodideSandboxRuntime, type PyodideRuntimeOptions } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { SANDBOX_FRAME_CSP, SANDBOX_WASM_FILE, sandboxFrameHtml } from '../../../src/adapters/sandbox/sandbox-frame.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import {
  DEFAULT_VALIDATION,
  validateEnvironment,
  type ValidationOptions,
  type ValidationReport,
} from '../../../src/core/env/validate-env.ts';
import attackWorkerSource from './attack-worker.js?raw';
import attackFrameSource from './attack-frame.js?raw';
import { navigationProbe } from './nav-probe.ts';

/** Where the page keeps the app-origin markers an escaped environment would try to read. */
export const APP_STORAGE = {
  dbName: 'spade-lab',
  storeName: 'kv',
  key: 'marker',
  cacheName: 'spade-lab',
  cachePath: '/__spade-marker',
  localStorageKey: 'spade-lab-marker',
  opfsFile: 'spade-lab-marker.txt',
} as const;

/** What the app origin holds (null where a marker is missing). */
export interface AppStorageSnapshot {
  idb: { marker: string | null; pwned: string | null; stores: string[] };
  cache: { marker: string | null; pwned: string | null; keys: string[] };
  localStorage: { marker: string | null; pwned: string | null };
  opfs: { marker: string | null; pwned: string | null; error: string | null };
}

/** Settings the test chooses for one attack run; the page adds the app origin and storage names. */
export interface AttackRequest {
  /** Tag put into every leak URL path, so requests can be told apart. */
  tag: string;
  /** Origin of the test's leak recorder, e.g. http://127.0.0.1:1234. */
  leakOrigin: string;
  /** The same recorder by a host name the browser maps to it (e.g. http://leak.test:1234), to catch DNS look-ups; subdomains carry data. */
  leakByName: string;
  /** BroadcastChannel name the page listens on and the attacker posts to. */
  channelName: string;
  /** Per-attempt limit inside the attacker, in milliseconds. */
  attemptTimeoutMs?: number;
  /** When set, the attacker finally throws an uncaught error with this text (to show the death-report path). */
  throwAtEnd?: string;
}

/** One attempt's outcome as the attacker saw it. */
export type AttemptOutcome = { ok: true; value: unknown } | { ok: false; error: string };

/** What an attacker reported, plus what the page saw meanwhile. */
export interface AttackReport {
  where: 'sandbox-frame-worker' | 'page-worker' | 'sandbox-frame-script';
  results: Record<string, AttemptOutcome>;
  /** What the attacker found in storage and tried to send out ("nothing" when it found nothing). */
  stolen: string;
  violations: string[];
  broadcastReceivedByAttacker: unknown[];
  boot: unknown;
  page: {
    /** BroadcastChannel messages the page's channel got (including the page's own control message). */
    broadcastReceived: unknown[];
    /** Window messages the page got from the attack frame. */
    windowMessages: unknown[];
    /** Messages the sandbox frame sent on its control port (the frame reports worker deaths there). */
    frameMessages: unknown[];
  };
}

type RuntimeResult =
  | { ok: true; className: string; observation: string; info: Record<string, unknown>; ms: number }
  | { ok: false; code: string; stage: string; message: string; ms: number };

let runtime: PyodideSandboxRuntime | null = null;
let spawner: BrowserSandboxSpawner | null = null;
/** Sandbox spawns of the page's runtime: started, up and answering, failed to start. */
const spawns = { started: 0, ready: 0, failed: 0 };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function currentRuntime(): PyodideSandboxRuntime {
  if (!runtime) throw new Error('call spadeTest.startRuntime first');
  return runtime;
}

function idbRequest<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openAppDb(): Promise<IDBDatabase> {
  const open = indexedDB.open(APP_STORAGE.dbName, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(APP_STORAGE.storeName);
  return idbRequest(open);
}

async function seedAppStorage(marker: string): Promise<void> {
  const db = await openAppDb();
  const tx = db.transaction(APP_STORAGE.storeName, 'readwrite');
  tx.objectStore(APP_STORAGE.storeName).put(marker, APP_STORAGE.key);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  const cache = await caches.open(APP_STORAGE.cacheName);
  await cache.put(new URL(APP_STORAGE.cachePath, location.origin).href, new Response(marker));
  localStorage.setItem(APP_STORAGE.localStorageKey, marker);
  const dir = await navigator.storage.getDirectory();
  const file = await dir.getFileHandle(APP_STORAGE.opfsFile, { create: true });
  const writable = await file.createWritable();
  await writable.write(marker);
  await writable.close();
}

async function readAppStorage(): Promise<AppStorageSnapshot> {
  const db = await openAppDb();
  const stores = [...db.objectStoreNames];
  const store = db.transaction(APP_STORAGE.storeName, 'readonly').objectStore(APP_STORAGE.storeName);
  const idbMarker = (await idbRequest(store.get(APP_STORAGE.key))) as string | undefined;
  const idbPwned = (await idbRequest(store.get('pwned'))) as string | undefined;
  db.close();
  const cache = await caches.open(APP_STORAGE.cacheName);
  const cacheUrl = new URL(APP_STORAGE.cachePath, location.origin).href;
  const cacheMarker = await (await cache.match(cacheUrl))?.text();
  const cachePwned = await (await cache.match(cacheUrl + '-pwned'))?.text();
  const cacheKeys = (await cache.keys()).map((request) => request.url);
  let opfs: AppStorageSnapshot['opfs'] = { marker: null, pwned: null, error: null };
  try {
    const dir = await navigator.storage.getDirectory();
    const read = async (name: string) => {
      try {
        return await (await (await dir.getFileHandle(name)).getFile()).text();
      } catch {
        return null;
      }
    };
    opfs = { marker: await read(APP_STORAGE.opfsFile), pwned: await read('pwned.txt'), error: null };
  } catch (error) {
    opfs.error = String(error);
  }
  return {
    idb: { marker: idbMarker ?? null, pwned: idbPwned ?? null, stores },
    cache: { marker: cacheMarker ?? null, pwned: cachePwned ?? null, keys: cacheKeys },
    localStorage: { marker: localStorage.getItem(APP_STORAGE.localStorageKey), pwned: localStorage.getItem('pwned') },
    opfs,
  };
}

function attackConfig(request: AttackRequest) {
  return {
    ...request,
    attemptTimeoutMs: request.attemptTimeoutMs ?? 3000,
    appOrigin: location.origin,
    dbName: APP_STORAGE.dbName,
    storeName: APP_STORAGE.storeName,
    key: APP_STORAGE.key,
    cacheName: APP_STORAGE.cacheName,
    cacheKeyUrl: new URL(APP_STORAGE.cachePath, location.origin).href,
    localStorageKey: APP_STORAGE.localStorageKey,
    opfsFile: APP_STORAGE.opfsFile,
  };
}

function addFrame(srcdoc: string): Promise<HTMLIFrameElement> {
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.style.display = 'none';
  frame.srcdoc = srcdoc;
  const loaded = new Promise<HTMLIFrameElement>((resolve) =>
    frame.addEventListener('load', () => resolve(frame), { once: true }),
  );
  document.body.append(frame);
  return loaded;
}

/**
 * Runs the attacker worker (attack-worker.js) either exactly as the sandbox runs its worker (the
 * real sandbox frame html in `<iframe sandbox="allow-scripts">`, started by the frame's own
 * script from the source the host posts) or, as a control, as a plain worker of the page origin.
 */
async function runWorkerAttack(where: 'sandbox' | 'page-worker', request: AttackRequest): Promise<AttackReport> {
  const config = attackConfig(request);
  const source = `const CONFIG = ${JSON.stringify(config)};\n${attackWorkerSource}`;
  const pageChannel = new BroadcastChannel(config.channelName);
  const broadcastReceived: unknown[] = [];
  pageChannel.onmessage = (event) => broadcastReceived.push(event.data);
  // Control: another same-origin channel object on this page must reach pageChannel.
  const controlChannel = new BroadcastChannel(config.channelName);
  controlChannel.postMessage({ fromPageControl: true });
  const pinger = setInterval(() => pageChannel.postMessage({ fromPage: 'ping' }), 100);
  const windowMessages: unknown[] = [];
  const frameMessages: unknown[] = [];
  let frame: HTMLIFrameElement | null = null;
  const onWindowMessage = (event: MessageEvent) => {
    if (frame && event.source === frame.contentWindow) windowMessages.push(event.data);
  };
  window.addEventListener('message', onWindowMessage);
  const channel = new MessageChannel();
  const done = new Promise<Omit<AttackReport, 'page' | 'where'>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('attacker did not report within 60 s')), 60_000);
    channel.port1.onmessage = (event: MessageEvent) => {
      const data = event.data as { done?: boolean } | null;
      if (data?.done) {
        clearTimeout(timer);
        resolve(data as Omit<AttackReport, 'page' | 'where'>);
      }
    };
  });
  let stop: () => void;
  if (where === 'sandbox') {
    // Exactly as the spawner starts an interpreter: the frame gets the worker source, Pyodide's
    // wasm (compiled there and handed to the worker) and a control port, then one start request.
    frame = await addFrame(sandboxFrameHtml());
    const control = new MessageChannel();
    control.port1.onmessage = (event) => frameMessages.push(event.data);
    const wasm = await (await fetch(sandboxAssets.pyodideBase + SANDBOX_WASM_FILE)).arrayBuffer();
    frame.contentWindow?.postMessage(
      { workerSource: source, files: { [SANDBOX_WASM_FILE]: wasm }, control: control.port2 },
      '*',
      [control.port2, wasm],
    );
    control.port1.postMessage({ start: 0, port: channel.port2 }, [channel.port2]);
    const sandboxFrame = frame;
    stop = () => {
      control.port1.postMessage({ kill: 0 });
      control.port1.close();
      sandboxFrame.remove();
    };
  } else {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    const worker = new Worker(url);
    worker.postMessage({ port: channel.port2, files: {} }, [channel.port2]);
    stop = () => worker.terminate();
  }
  try {
    const report = await done;
    await sleep(request.throwAtEnd ? 1000 : 300);
    return {
      where: where === 'sandbox' ? 'sandbox-frame-worker' : 'page-worker',
      ...report,
      page: { broadcastReceived, windowMessages, frameMessages },
    };
  } finally {
    clearInterval(pinger);
    pageChannel.close();
    controlChannel.close();
    window.removeEventListener('message', onWindowMessage);
    channel.port1.close();
    stop();
  }
}

/**
 * Runs attack-frame.js as the sandbox frame's own script: the real sandbox frame html (same CSP
 * meta) with its inline script swapped for the attacker's, in `<iframe sandbox="allow-scripts">`.
 */
async function runFrameAttack(request: AttackRequest): Promise<AttackReport> {
  const config = attackConfig(request);
  const real = sandboxFrameHtml();
  const script = `<script>const CONFIG = ${JSON.stringify(config)};\n${attackFrameSource}</script>`;
  const html = real.replace(/<script>[\s\S]*<\/script>/, () => script);
  if (html === real || !html.includes(`content="${SANDBOX_FRAME_CSP}"`))
    throw new Error('could not build the attack frame from sandboxFrameHtml()');
  let frame: HTMLIFrameElement | null = null;
  const report = new Promise<Omit<AttackReport, 'page' | 'where'>>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('attack frame did not report within 60 s')), 60_000);
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { spadeFrameAttack?: Omit<AttackReport, 'page' | 'where'> } | null;
      if (frame && event.source === frame.contentWindow && data?.spadeFrameAttack) {
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        resolve(data.spadeFrameAttack);
      }
    };
    window.addEventListener('message', onMessage);
  });
  const frameElement = document.createElement('iframe');
  frame = frameElement;
  frameElement.setAttribute('sandbox', 'allow-scripts');
  frameElement.style.display = 'none';
  frameElement.srcdoc = html;
  document.body.append(frameElement);
  try {
    return {
      where: 'sandbox-frame-script',
      ...(await report),
      page: { broadcastReceived: [], windowMessages: [], frameMessages: [] },
    };
  } finally {
    frameElement.remove();
  }
}

async function asResult(run: () => Promise<Omit<Extract<RuntimeResult, { ok: true }>, 'ms'>>): Promise<RuntimeResult> {
  const started = performance.now();
  try {
    return { ...(await run()), ms: Math.round(performance.now() - started) };
  } catch (error) {
    if (!isEnvError(error)) throw error;
    return {
      ok: false,
      code: error.code,
      stage: error.stage,
      message: error.message,
      ms: Math.round(performance.now() - started),
    };
  }
}

let framesOpened = 0;
new MutationObserver((changes) => {
  for (const change of changes)
    framesOpened += [...change.addedNodes].filter(
      (node) => node instanceof HTMLIFrameElement && node.title === 'Python sandbox',
    ).length;
}).observe(document.body, { childList: true });

const api = {
  frameCsp: SANDBOX_FRAME_CSP,
  sandboxFrameHtml,
  validateEnvironment,
  createBrowserSandboxRuntime: () => createBrowserSandboxRuntime(sandboxAssets),

  /** Creates the page's runtime (closing any previous one; `snapshotFile` replaces the build's snapshot) and waits until its sandbox is up; resolves with the start time in ms. */
  async startRuntime(
    options: Partial<PyodideRuntimeOptions> = {},
    snapshotFile: string | null = sandboxAssets.snapshotFile,
  ): Promise<number> {
    await runtime?.close();
    const started = performance.now();
    // Exactly createBrowserSandboxRuntime(assets, options), with the spawner counted so tests can
    // tell when the warm spare is up.
    const spawn = browserSandboxSpawner({ ...sandboxAssets, snapshotFile });
    spawner = spawn;
    runtime = new PyodideSandboxRuntime((signal) => {
      spawns.started += 1;
      const sandbox = spawn(signal);
      sandbox.then(
        () => (spawns.ready += 1),
        () => (spawns.failed += 1),
      );
      return sandbox;
    }, options);
    await runtime.warm();
    return Math.round(performance.now() - started);
  },
  async closeRuntime(): Promise<void> {
    await runtime?.close();
    runtime = null;
  },
  restarts: (): number => currentRuntime().restarts,
  /** Interpreters restored to their sealed state after an environment instead of being killed. */
  recycled: (): number => currentRuntime().recycled,
  /** Counts of sandbox spawns so far (started, up, failed). */
  spawns: () => ({ ...spawns }),
  /** Waits until at least `count` sandboxes were started and every started one is up (or failed); resolves with the counts and the wait. */
  async waitForSpawns(count: number, timeoutMs = 60_000): Promise<typeof spawns & { waitedMs: number }> {
    const started = performance.now();
    while (performance.now() - started < timeoutMs) {
      if (spawns.started >= count && spawns.ready + spawns.failed === spawns.started) break;
      await sleep(20);
    }
    return { ...spawns, waitedMs: Math.round(performance.now() - started) };
  },
  /** Number of interpreters of the page's runtime that are starting or running (the active one plus the warm spares). */
  liveInterpreters: (): number => spawner?.live() ?? 0,
  /** What the current spawner's last interpreter started from (see BrowserSandboxSpawner), or null. */
  snapshotUse: (): SnapshotUse | null => spawner?.snapshotUse() ?? null,
  /** Number of sandbox frames in the document (one per spawner, shared by all its interpreters). */
  sandboxFrames: (): number => document.querySelectorAll('iframe[title="Python sandbox"]').length,
  /** Number of sandbox frames ever added to the document (a spawner opens another after a frame it gave up on). */
  sandboxFramesOpened: (): number => framesOpened,
  /** validateEnvironment on the page's runtime with the tab defaults (or `options`). */
  validate: (reply: string, options: Partial<ValidationOptions> = {}): Promise<ValidationReport> =>
    validateEnvironment(reply, currentRuntime(), { ...DEFAULT_VALIDATION, ...options }),
  /** Loads `code` and calls reset(seed); resolves with the observation or the EnvError's code. */
  runEnv: (
    code: string,
    options: { seed?: number; loadTimeoutMs?: number; resetTimeoutMs?: number } = {},
  ): Promise<RuntimeResult> =>
    asResult(async () => {
      const handle = await currentRuntime().load(code, { maxTurns: 12, timeoutMs: options.loadTimeoutMs ?? 10_000 });
      try {
        const reset = await handle.reset(options.seed ?? 1, { timeoutMs: options.resetTimeoutMs ?? 10_000 });
        return { ok: true as const, className: handle.className, observation: reset.observation, info: reset.info };
      } finally {
        await handle.dispose();
      }
    }),

  seedAppStorage,
  readAppStorage,
  runWorkerAttack,
  runFrameAttack,
  navigationProbe,
};

export type SpadeTestApi = typeof api;

declare global {
  interface Window {
    spadeTest: SpadeTestApi;
  }
}

window.spadeTest = api;

// A trivial UI so tests can show the page still reacts to input.
let clicks = 0;
document.getElementById('counter')?.addEventListener('click', (event) => {
  clicks += 1;
  (event.currentTarget as HTMLButtonElement).textContent = `Clicked ${clicks} times`;
});
