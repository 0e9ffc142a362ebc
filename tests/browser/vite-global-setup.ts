// One Vite dev server for the whole browser tier: every test file's pages come from it, so the
// app's modules are transformed once, not once per file. Files that need a server of their own
// (they watch its requests) ask startRig for one. The tier's production build goes in one folder
// too (built-app.ts builds it there on first use).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startAppServer } from './app-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the tier's shared Vite dev server. */
    appBaseUrl: string;
    /** Folder of the tier's production build (empty until a test file asks for it). */
    builtAppDir: string;
  }
}

/** Starts the shared server before the tier and stops it after; removes the build folder after. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { server, baseUrl } = await startAppServer();
  const builtAppDir = mkdtempSync(join(tmpdir(), 'spade-built-'));
  project.provide('appBaseUrl', baseUrl);
  project.provide('builtAppDir', builtAppDir);
  return async () => {
    await server.close();
    rmSync(builtAppDir, { recursive: true, force: true });
  };
}
