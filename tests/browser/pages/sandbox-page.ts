// Test-only page module (tests/browser/pages/sandbox.html): puts the real browser sandbox runtime,
// the validator and the sandbox frame on `window.spadeTest` for the Playwright tests
// tests/browser/sandbox-isolation-*.test.ts, sandbox-runtime.test.ts and sandbox-snapshot.test.ts; the
// app-origin markers and the attack runs are in app-storage-markers.ts and sandbox-attack-runs.ts.
import { sandboxAssets } from 'virtual:spade-sandbox';
import {
  browserSandboxSpawner,
  createBrowserSandboxRuntime,
  type BrowserSandboxSpawner,
  type SnapshotUse,
} from '../../../src/adapters/sandbox/browser-sandbox.ts';
import { PyodideSandboxRuntime, type PyodideRuntimeOptions } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { SANDBOX_FRAME_CSP, sandboxFrameHtml } from '../../../src/adapters/sandbox/sandbox-frame.ts';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import {
  DEFAULT_VALIDATION,
  validateEnvironment,
  type ValidationOptions,
  type ValidationReport,
} from '../../../src/core/env/validate-env.ts';
import { readAppStorage, seedAppStorage } from './app-storage-markers.ts';
import { runFrameAttack, runWorkerAttack } from './sandbox-attack-runs.ts';
import { navigationProbe } from './nav-probe.ts';

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

  /** Plays two environments of `code` in one interpreter (a runtime that may boot only one, so they share it), a step each in turn after reset(1); resolves with each one's observations and the boots. */
  async playSharing(code: string, steps: number): Promise<{ observations: string[][]; boots: number }> {
    let left = 1;
    const spawn = browserSandboxSpawner(sandboxAssets);
    const sharing = new PyodideSandboxRuntime(
      (signal) => (left-- > 0 ? spawn(signal) : new Promise<never>(() => undefined)),
      { spares: 1, sharedBy: 8 },
    );
    try {
      const options = { maxTurns: 50, timeoutMs: 20_000 };
      const handles = [await sharing.load(code, options), await sharing.load(code, options)];
      for (const handle of handles) await handle.reset(1);
      const observations: string[][] = handles.map(() => []);
      for (let i = 0; i < steps; i++)
        for (const [k, handle] of handles.entries()) observations[k]!.push((await handle.step('go')).observation);
      return { observations, boots: sharing.boots };
    } finally {
      await sharing.close();
    }
  },

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
