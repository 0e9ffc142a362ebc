// One Vite dev server for the whole browser tier: every test file's pages come from it, so the
// app's modules are transformed once, not once per file. Files that need a server of their own
// (they watch its requests) ask startRig for one.
import type { TestProject } from 'vitest/node';
import { startAppServer } from './app-server.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the tier's shared Vite dev server. */
    appBaseUrl: string;
  }
}

/** Starts the shared server before the tier and stops it after. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { server, baseUrl } = await startAppServer();
  project.provide('appBaseUrl', baseUrl);
  return () => server.close();
}
