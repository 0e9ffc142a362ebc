// One production build for the browser tier: the first test file that needs it builds it into the
// folder the tier's global setup chose, and the next files reuse it (files run one at a time).
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';

/** The sub-path the shared build is made for, as a project page on a static host serves it. */
export const BUILT_APP_BASE = '/spade-lab/';

/** The tier's build folder (see vite-global-setup.ts), or a fresh one outside vitest. */
async function buildFolder(): Promise<string> {
  if (process.env.VITEST) {
    const { inject } = await import('vitest');
    const folder = inject('builtAppDir');
    if (folder) return folder;
  }
  return mkdtempSync(join(tmpdir(), 'spade-built-'));
}

/** Builds the app (`vite build --base /spade-lab/`) once per tier and returns its folder. */
export async function builtApp(): Promise<string> {
  const outDir = await buildFolder();
  if (!existsSync(join(outDir, 'index.html'))) {
    await build({ configFile: 'vite.config.ts', base: BUILT_APP_BASE, logLevel: 'error', build: { outDir, emptyOutDir: true } });
  }
  return outDir;
}
