// One Vite dev server for the whole browser tier: every test file's pages come from it, so the
// test pages' modules are transformed once, not once per file. The tier's production build is
// made first and served by that server under /spade-lab/ (the same origin as the test pages): the
// app's own tests drive it, as users get it, and a page costs far less CPU than the dev app's
// hundreds of modules. Files that need a server of their own (they watch its requests) ask
// startRig for one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAppServer } from './app-server.ts';
import { buildApp } from './built-app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the tier's shared Vite dev server. */
    appBaseUrl: string;
    /** Folder of the tier's production build (built-app.ts), made before the tier's files run. */
    builtAppDir: string;
  }
}

/** Starts the shared server before the tier and stops it after; removes the build folder after. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const builtAppDir = mkdtempSync(join(tmpdir(), 'spade-built-'));
  const { server, baseUrl } = await startAppServer({ builtApp: await buildApp(builtAppDir) });
  project.provide('appBaseUrl', baseUrl);
  project.provide('builtAppDir', builtAppDir);
  return async () => {
    await server.close();
    rmSync(builtAppDir, { recursive: true, force: true });
  };
}
