// One Vite dev server for each browser project: every test file's pages come from it, so the
// test pages' modules are transformed once, not once per file. For the browser tier the
// production build is made first and served by that server under /spade-lab/ (the same origin as
// the test pages): the app's own tests drive it, as users get it, and a page costs far less CPU
// than the dev app's hundreds of modules. The timed files' project gets the server without a
// build: they time the dev app and test pages, as before. Files that need a server of their own
// (they watch its requests) ask startRig for one.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAppServer } from './app-server.ts';
import { BUILT_APP_BASE, buildApp } from './built-app.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the project's shared Vite dev server (test pages are under /tests/). */
    appBaseUrl: string;
    /** The app's URL on that server, ending in a slash: the production build, or the dev app for the timed files. */
    appUrl: string;
    /** Folder of the tier's production build (built-app.ts), made before the tier's files run; absent for the timed files. */
    builtAppDir: string;
  }
}

/** The project whose files time what they drive: a dev server, no build. */
const TIMED_PROJECT = 'browser-timed';

/** Starts the project's shared server before its files and stops it after; removes the build folder after. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name === TIMED_PROJECT) {
    const { server, baseUrl } = await startAppServer();
    project.provide('appBaseUrl', baseUrl);
    project.provide('appUrl', `${baseUrl}/`);
    return () => server.close();
  }
  const builtAppDir = mkdtempSync(join(tmpdir(), 'spade-built-'));
  const { server, baseUrl } = await startAppServer({ builtApp: await buildApp(builtAppDir) });
  project.provide('appBaseUrl', baseUrl);
  project.provide('appUrl', `${baseUrl}${BUILT_APP_BASE}`);
  project.provide('builtAppDir', builtAppDir);
  return async () => {
    await server.close();
    rmSync(builtAppDir, { recursive: true, force: true });
  };
}
