import { wrap } from 'comlink';
import type { SandboxService } from './sandbox-service.ts';
import { PyodideSandboxRuntime, type PyodideRuntimeOptions, type SandboxProcess } from './pyodide-runtime.ts';
import { sandboxFrameHtml } from './sandbox-frame.ts';

/** What the browser sandbox needs from the app: the bundled worker and where Pyodide's files are served. */
export interface BrowserSandboxAssets {
  workerSource: string;
  pyodideBase: string;
  pyodideFiles: readonly string[];
}

const START_TIMEOUT_MS = 60_000;

function fetchFiles(assets: BrowserSandboxAssets): Promise<Record<string, ArrayBuffer>> {
  return Promise.all(
    assets.pyodideFiles.map(async (name) => {
      const response = await fetch(assets.pyodideBase + name);
      if (!response.ok) throw new Error(`could not load ${name} for the Python sandbox (HTTP ${response.status})`);
      return [name, await response.arrayBuffer()] as const;
    }),
  ).then(Object.fromEntries);
}

function frameLoaded(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
}

function waitForReady(port: MessagePort, exited: Promise<string>): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Python sandbox did not start within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { spadeSandboxReady?: unknown; spadeSandboxError?: unknown } | null;
      if (data?.spadeSandboxReady === true || typeof data?.spadeSandboxError === 'string') {
        clearTimeout(timer);
        port.removeEventListener('message', onMessage);
        if (data.spadeSandboxReady === true) resolve();
        else reject(new Error(`Python sandbox failed to start: ${String(data.spadeSandboxError).slice(0, 500)}`));
      }
    };
    port.addEventListener('message', onMessage);
    port.start();
    void exited.then((reason) => {
      clearTimeout(timer);
      reject(new Error(`Python sandbox died during start: ${reason}`));
    });
  });
}

/**
 * Spawns one browser sandbox: a hidden `<iframe sandbox="allow-scripts">` (opaque origin, no
 * network by CSP) that owns a module worker running Pyodide. The host talks to the worker over a
 * MessageChannel with comlink and exposes nothing; killing removes the frame and its worker.
 */
export function browserSandboxSpawner(assets: BrowserSandboxAssets): () => Promise<SandboxProcess> {
  let files: Promise<Record<string, ArrayBuffer>> | null = null;
  return async () => {
    files ??= fetchFiles(assets).catch((error: unknown) => {
      files = null;
      throw error;
    });
    const bytes = await files;
    const frame = document.createElement('iframe');
    frame.setAttribute('sandbox', 'allow-scripts');
    frame.setAttribute('aria-hidden', 'true');
    frame.title = 'Python sandbox';
    frame.style.display = 'none';
    frame.srcdoc = sandboxFrameHtml();
    const loaded = frameLoaded(frame);
    document.body.append(frame);
    await loaded;
    const token = Math.random().toString(36).slice(2);
    let onDeath: (reason: string) => void = () => undefined;
    const exited = new Promise<string>((resolve) => (onDeath = resolve));
    const listener = (event: MessageEvent) => {
      const data = event.data as { spadeSandboxDied?: unknown; token?: unknown } | null;
      if (event.source === frame.contentWindow && data?.token === token && typeof data.spadeSandboxDied === 'string') {
        onDeath(data.spadeSandboxDied.slice(0, 500));
      }
    };
    window.addEventListener('message', listener);
    const channel = new MessageChannel();
    const copies = Object.fromEntries(Object.entries(bytes).map(([name, buffer]) => [name, buffer.slice(0)]));
    frame.contentWindow?.postMessage({ workerSource: assets.workerSource, port: channel.port2, files: copies, token }, '*', [channel.port2, ...Object.values(copies)]);
    const kill = () => {
      window.removeEventListener('message', listener);
      channel.port1.close();
      frame.remove();
    };
    try {
      await waitForReady(channel.port1, exited);
    } catch (error) {
      kill();
      throw error;
    }
    const api = wrap<SandboxService>(channel.port1);
    return { call: (request) => api.call(request), kill, exited };
  };
}

/**
 * A sandbox runtime whose interpreters are opaque-origin frames owning Pyodide workers, one per
 * environment, with as many booted spares as the machine has cores (unless `options` say otherwise).
 */
export function createBrowserSandboxRuntime(assets: BrowserSandboxAssets, options: Partial<PyodideRuntimeOptions> = {}): PyodideSandboxRuntime {
  const spares = Math.min(4, Math.max(1, navigator.hardwareConcurrency || 1));
  return new PyodideSandboxRuntime(browserSandboxSpawner(assets), { spares, ...options });
}
