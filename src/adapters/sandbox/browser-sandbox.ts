import { callOver, portLine } from './call-channel.ts';
import { poolSize } from './pool-size.ts';
import {
  PyodideSandboxRuntime,
  type PyodideRuntimeOptions,
  type SandboxProcess,
  type SpawnSandbox,
} from './pyodide-runtime.ts';
import { sandboxFrameHtml } from './sandbox-frame.ts';
import { errorMessage } from '../../core/error-message.ts';

/** What the browser sandbox needs from the app: where the bundled worker and Pyodide's files are served. */
export interface BrowserSandboxAssets {
  workerUrl: string;
  pyodideBase: string;
  pyodideFiles: readonly string[];
  /** A gzipped memory snapshot of a fresh interpreter under `pyodideBase`, made at build time (taken gzipped or as the host unpacked it); null (or unusable) makes the frame take its own. */
  snapshotFile: string | null;
}

const START_TIMEOUT_MS = 60_000;

// Why a worker (and every later frame) did not start from the build's snapshot after one refused it.
const REFUSED = 'did not restore in Pyodide';

async function fetchOk(url: string, name: string): Promise<Response> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`could not load ${name} for the Python sandbox (HTTP ${response.status})`);
  return response;
}

/**
 * Where a sandbox's interpreters started from: the build's memory snapshot, or not, and then why
 * (the end of a sentence that begins "the build's Python snapshot", e.g. "could not be fetched (HTTP 404)").
 */
export type SnapshotUse = { fromBuild: true } | { fromBuild: false; why: string };

/** The build's snapshot as the host served it (gzipped, or unpacked by a Content-Encoding: gzip), or why there is none. */
type SnapshotDownload = { bytes: ArrayBuffer } | { why: string };

/** The worker's source, Pyodide's files and the build's snapshot, fetched for one frame and handed over whole (the frame can fetch nothing itself). */
interface SandboxDownloads {
  workerSource: string;
  files: Record<string, ArrayBuffer>;
  snapshot: SnapshotDownload;
}

// The build's snapshot, or why there is none; never rejects (it is only a speed-up: without it the
// frame takes a snapshot of its own).
async function fetchSnapshot(assets: BrowserSandboxAssets): Promise<SnapshotDownload> {
  if (!assets.snapshotFile) return { why: 'is not in this build' };
  try {
    const response = await fetch(assets.pyodideBase + assets.snapshotFile);
    if (!response.ok) return { why: `could not be fetched (HTTP ${response.status})` };
    return { bytes: await response.arrayBuffer() };
  } catch (error) {
    return { why: `could not be fetched (${errorMessage(error)})` };
  }
}

// Everything one frame needs; `snapshot` is the build's, or why the frame must take its own.
async function fetchDownloads(
  assets: BrowserSandboxAssets,
  snapshot: SnapshotDownload | null,
): Promise<SandboxDownloads> {
  const [workerSource, files, fetched] = await Promise.all([
    fetchOk(assets.workerUrl, 'the sandbox worker').then((response) => response.text()),
    Promise.all(
      assets.pyodideFiles.map(
        async (name) => [name, await (await fetchOk(assets.pyodideBase + name, name)).arrayBuffer()] as const,
      ),
    ).then(Object.fromEntries),
    snapshot ?? fetchSnapshot(assets),
  ]);
  return { workerSource, files, snapshot: fetched };
}

function frameLoaded(frame: HTMLIFrameElement): Promise<void> {
  return new Promise((resolve) => frame.addEventListener('load', () => resolve(), { once: true }));
}

// Resolves once the worker's interpreter is up, with whether it had to start cold because the
// snapshot it was given would not restore.
function waitForReady(
  port: MessagePort,
  exited: Promise<string>,
  signal?: AbortSignal,
): Promise<{ snapshotRefused: boolean }> {
  return new Promise((resolve, reject) => {
    const settle = (error: Error | null, snapshotRefused = false) => {
      clearTimeout(timer);
      port.removeEventListener('message', onMessage);
      signal?.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve({ snapshotRefused });
    };
    const onAbort = () => settle(new Error('the sandbox runtime closed while Python was starting'));
    const onMessage = (event: MessageEvent) => {
      const data = event.data as {
        spadeSandboxReady?: unknown;
        spadeSandboxError?: unknown;
        snapshotRefused?: unknown;
      } | null;
      if (data?.spadeSandboxReady === true) settle(null, data.snapshotRefused === true);
      else if (typeof data?.spadeSandboxError === 'string')
        settle(new Error(`Python sandbox failed to start: ${data.spadeSandboxError.slice(0, 500)}`));
    };
    const timer = setTimeout(
      () => settle(new Error(`Python sandbox did not start within ${START_TIMEOUT_MS} ms`)),
      START_TIMEOUT_MS,
    );
    signal?.addEventListener('abort', onAbort, { once: true });
    port.addEventListener('message', onMessage);
    port.start();
    void exited.then((reason) => settle(new Error(`Python sandbox died during start: ${reason}`)));
  });
}

/** The one sandbox frame of a spawner: starts and kills its workers over a private control port. */
interface SandboxFrame {
  readonly element: HTMLIFrameElement;
  readonly control: MessagePort;
  /** Death reports by worker id; an entry lives as long as its worker. */
  readonly deaths: Map<number, (reason: string) => void>;
  /** Set once the frame takes no more starts; it is removed when its last worker is gone. */
  retired: boolean;
  /** Whether its workers restore from the build's snapshot (else from one the frame took). */
  prebuilt: boolean;
  /** What the frame's workers start from, once the frame has said (it says before any start). */
  snapshotUse: Promise<SnapshotUse>;
}

// Removes a retired frame once none of its workers is left (removing it kills them all).
function removeIfDone(host: SandboxFrame): void {
  if (host.retired && host.deaths.size === 0) host.element.remove();
}

// What the frame's { spadeSnapshotSource, why } says its workers start from ('page': a snapshot it
// made after one cold boot; 'none': cold every time).
function snapshotUseOf(source: unknown, why: unknown): SnapshotUse {
  if (source === 'build') return { fromBuild: true };
  const reason = typeof why === 'string' && why ? why.slice(0, 300) : 'was not used';
  return {
    fromBuild: false,
    why:
      source === 'page'
        ? reason
        : `${reason}, and this page could not make one of its own either (every interpreter starts cold)`,
  };
}

// Opens the frame while its downloads arrive (its document loads meanwhile), then hands
// it everything, transferred: the host keeps no copy.
async function openSandboxFrame(pending: Promise<SandboxDownloads>): Promise<SandboxFrame> {
  const element = document.createElement('iframe');
  element.setAttribute('sandbox', 'allow-scripts');
  element.setAttribute('aria-hidden', 'true');
  element.title = 'Python sandbox';
  element.style.display = 'none';
  element.srcdoc = sandboxFrameHtml();
  const loaded = frameLoaded(element);
  document.body.append(element);
  let downloads: SandboxDownloads;
  try {
    [downloads] = await Promise.all([pending, loaded]);
  } catch (error) {
    element.remove();
    throw error;
  }
  const { workerSource, files, snapshot } = downloads;
  const channel = new MessageChannel();
  const deaths = new Map<number, (reason: string) => void>();
  let said: (use: SnapshotUse) => void = () => undefined;
  const snapshotUse = new Promise<SnapshotUse>((resolve) => (said = resolve));
  channel.port1.onmessage = (event: MessageEvent) => {
    const data = event.data as {
      spadeSandboxDied?: unknown;
      id?: unknown;
      spadeSnapshotSource?: unknown;
      why?: unknown;
    } | null;
    if (typeof data?.id === 'number' && typeof data.spadeSandboxDied === 'string')
      deaths.get(data.id)?.(data.spadeSandboxDied.slice(0, 500));
    else if (data && 'spadeSnapshotSource' in data) said(snapshotUseOf(data.spadeSnapshotSource, data.why));
  };
  const given = 'bytes' in snapshot ? { prebuilt: snapshot.bytes } : { prebuiltMissing: snapshot.why };
  element.contentWindow?.postMessage({ workerSource, files, control: channel.port2, snapshot: true, ...given }, '*', [
    channel.port2,
    ...Object.values(files),
    ...('bytes' in snapshot ? [snapshot.bytes] : []),
  ]);
  return { element, control: channel.port1, deaths, retired: false, prebuilt: 'bytes' in snapshot, snapshotUse };
}

/** A spawner of browser sandboxes; `live()` counts its interpreters that are starting or running, `snapshotUse()` says what the last one to start started from (null before any). */
export type BrowserSandboxSpawner = SpawnSandbox & { live(): number; snapshotUse(): SnapshotUse | null };

/**
 * Spawns browser sandboxes: one hidden `<iframe sandbox="allow-scripts">` (opaque origin, no
 * network by CSP) compiles Pyodide's wasm once and owns one worker per interpreter, each started
 * from that compiled module (code only: every worker has its own memory and globals) and restored
 * from a memory snapshot of a fresh interpreter: the build's (`assets.snapshotFile`), or, when there
 * is none or a worker cannot restore from it, one that a worker of the frame running no environment
 * made. The host talks to each worker over its own MessageChannel (call-channel.ts) and exposes
 * nothing; killing terminates the worker. A frame that fails a start, whose workers refused the
 * build's snapshot, or that was removed, is replaced by a fresh one for later starts, and removed
 * once its own workers are gone. A start that did not come from the build's snapshot is never
 * silent: `snapshotUse()` says why (the app's header shows it).
 */
export function browserSandboxSpawner(assets: BrowserSandboxAssets): BrowserSandboxSpawner {
  let frame: Promise<SandboxFrame> | null = null;
  let nextId = 0;
  // Cleared for good once a worker could not restore from the build's snapshot: later frames take their own.
  let usePrebuilt = true;
  let lastUse: SnapshotUse | null = null;
  const live = new Set<number>();
  // A frame that failed a start (or was removed) takes no more starts; its running workers finish.
  const dropFrame = (broken: Promise<SandboxFrame>) => {
    if (frame !== broken) return;
    frame = null;
    void broken.then(
      (host) => {
        host.retired = true;
        removeIfDone(host);
      },
      () => undefined,
    );
  };
  const currentFrame = async (): Promise<{ host: SandboxFrame; opened: Promise<SandboxFrame> }> => {
    const opened = (frame ??= openSandboxFrame(fetchDownloads(assets, usePrebuilt ? null : { why: REFUSED })));
    const host = await opened.catch((error: unknown) => {
      dropFrame(opened);
      throw error;
    });
    if (host.element.isConnected) return { host, opened };
    dropFrame(opened);
    return currentFrame();
  };
  const spawn = async (signal?: AbortSignal): Promise<SandboxProcess> => {
    signal?.throwIfAborted();
    const { host, opened } = await currentFrame();
    const id = nextId++;
    live.add(id);
    const exited = new Promise<string>((resolve) =>
      host.deaths.set(id, (reason) => {
        host.deaths.delete(id);
        live.delete(id);
        removeIfDone(host);
        resolve(reason);
      }),
    );
    const channel = new MessageChannel();
    host.control.postMessage({ start: id, port: channel.port2 }, [channel.port2]);
    const kill = () => {
      host.deaths.delete(id);
      live.delete(id);
      host.control.postMessage({ kill: id });
      channel.port1.close();
      removeIfDone(host);
    };
    signal?.addEventListener('abort', kill, { once: true });
    try {
      const { snapshotRefused } = await waitForReady(channel.port1, exited, signal);
      if (snapshotRefused && host.prebuilt) {
        usePrebuilt = false;
        dropFrame(opened);
      }
      lastUse = snapshotRefused ? { fromBuild: false, why: REFUSED } : await host.snapshotUse;
    } catch (error) {
      kill();
      if (!signal?.aborted) dropFrame(opened);
      throw error;
    } finally {
      signal?.removeEventListener('abort', kill);
    }
    return { call: callOver(portLine(channel.port1)), kill, exited };
  };
  return Object.assign(spawn, { live: () => live.size, snapshotUse: () => lastUse });
}

/** A browser sandbox runtime that also says what its last interpreter started from (see BrowserSandboxSpawner). */
export type BrowserSandboxRuntime = PyodideSandboxRuntime & Pick<BrowserSandboxSpawner, 'snapshotUse'>;

/**
 * A sandbox runtime whose interpreters are Pyodide workers owned by an opaque-origin frame, one per
 * environment or play, with a booted spare per core and two for hangs (`poolSize`) as far as the
 * device's memory allows (one until the first environment loads), booted side by side on all cores
 * but one, which the page and the model keep (unless `options` say otherwise).
 */
export function createBrowserSandboxRuntime(
  assets: BrowserSandboxAssets,
  options: Partial<PyodideRuntimeOptions> = {},
): BrowserSandboxRuntime {
  const cores = Math.max(1, navigator.hardwareConcurrency || 1);
  // navigator.deviceMemory (GB, rounded down and capped at 8 by the browser); 4 GB where it is not told.
  const deviceBytes = ((navigator as Navigator & { deviceMemory?: number }).deviceMemory ?? 4) * 1024 ** 3;
  const spawner = browserSandboxSpawner(assets);
  const runtime = new PyodideSandboxRuntime(spawner, {
    ...poolSize(cores, deviceBytes / 2, 1),
    // An interpreter of its own per environment (no `sharedBy`): a worker compares memory with a
    // loop of words (no memcmp), and an import in the app under heavy load took minutes shared.
    idleSpares: 1,
    ...options,
  });
  return Object.assign(runtime, { snapshotUse: spawner.snapshotUse });
}
