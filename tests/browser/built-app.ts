// One production build for the browser tier: the tier's global setup builds it in its folder
// before any file runs (the shared server serves it), and files reuse it. Whoever builds claims a
// lock directory and writes to a folder of its own first: the finished build appears whole (one
// rename), and a process that finds the lock taken waits for it.
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** The sub-path the shared build is made for, as a project page on a static host serves it. */
export const BUILT_APP_BASE = '/spade-lab/';

/** How long a file waits for another file's build before it gives up. */
const BUILD_WAIT_MS = 240_000;

/** The tier's build folder (see vite-global-setup.ts), or a fresh one outside vitest. */
async function buildFolder(): Promise<string> {
  if (process.env.VITEST) {
    const { inject } = await import('vitest');
    const folder = inject('builtAppDir');
    if (folder) return folder;
  }
  return mkdtempSync(join(tmpdir(), 'spade-built-'));
}

/** Builds the app (`vite build --base /spade-lab/`) once per tier (in `folder`, by default the tier's) and returns its folder. */
export async function builtApp(folder?: string): Promise<string> {
  folder ??= await buildFolder();
  const outDir = join(folder, 'app');
  const lock = join(folder, 'building');
  const started = Date.now();
  while (!existsSync(outDir)) {
    if (claim(lock)) {
      try {
        const staging = join(folder, `staging-${process.pid}`);
        await buildIsolated(staging, join(folder, 'vite-cache'));
        renameSync(staging, outDir);
      } finally {
        rmSync(lock, { recursive: true, force: true });
      }
    } else {
      if (Date.now() - started > BUILD_WAIT_MS) throw new Error(`another test file's build of the app did not finish within ${BUILD_WAIT_MS} ms`);
      await sleep(250);
    }
  }
  return outDir;
}

/**
 * Builds into `outDir` without touching the dev servers' state: Vite's build sets NODE_ENV to
 * production for the whole process (it is put back), and the Svelte plugin writes its compile
 * options to the cache folder, where a dev server reading the build's options re-optimizes its
 * dependencies and deletes the ones pages are loading (so the build gets a cache folder of its own).
 */
async function buildIsolated(outDir: string, cacheDir: string): Promise<void> {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build({ configFile: 'vite.config.ts', base: BUILT_APP_BASE, cacheDir, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
}

/** Takes the build lock; false when another file holds it. */
function claim(lock: string): boolean {
  try {
    mkdirSync(lock);
    return true;
  } catch {
    return false;
  }
}
