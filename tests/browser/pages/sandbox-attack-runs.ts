// The attack runs of the sandbox test page (tests/browser/pages/sandbox-page.ts): the attacker
// scripts (attack-worker.js, attack-frame.js) run where an environment would run, and report what
// they reached.
import { sandboxAssets } from 'virtual:spade-sandbox';
import { SANDBOX_FRAME_CSP, SANDBOX_WASM_FILE, sandboxFrameHtml } from '../../../src/adapters/sandbox/sandbox-frame.ts';
import attackWorkerSource from './attack-worker.js?raw';
import attackFrameSource from './attack-frame.js?raw';
import { APP_STORAGE } from './app-storage-markers.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

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
export async function runWorkerAttack(where: 'sandbox' | 'page-worker', request: AttackRequest): Promise<AttackReport> {
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
export async function runFrameAttack(request: AttackRequest): Promise<AttackReport> {
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
