// The browser tier's one production build: its global setup (vite-global-setup.ts) makes it before
// any file runs and the shared server serves it; files that serve it themselves read its folder.
import { join } from 'node:path';

/** The sub-path the shared build is made for, as a project page on a static host serves it. */
export const BUILT_APP_BASE = '/spade-lab/';

/**
 * Builds the app (`vite build --base /spade-lab/`) into `folder`/app and returns that folder,
 * without touching the dev servers' state: Vite's build sets NODE_ENV to production for the whole
 * process (it is put back), and the Svelte plugin writes its compile options to the cache folder,
 * where a dev server reading the build's options re-optimizes its dependencies and deletes the ones
 * pages are loading (so the build gets a cache folder of its own).
 */
export async function buildApp(folder: string): Promise<string> {
  const { build } = await import('vite');
  const outDir = join(folder, 'app');
  const nodeEnv = process.env.NODE_ENV;
  try {
    await build({
      configFile: 'vite.config.ts',
      base: BUILT_APP_BASE,
      cacheDir: join(folder, 'vite-cache'),
      logLevel: 'error',
      build: { outDir, emptyOutDir: true },
    });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  return outDir;
}

/** The folder of the tier's build, made by its global setup. */
export async function builtApp(): Promise<string> {
  const { inject } = await import('vitest');
  const folder = inject('builtAppDir');
  if (!folder)
    throw new Error(
      "the browser tier's global setup (vite-global-setup.ts) makes the build: run this file in the browser project",
    );
  return join(folder, 'app');
}
