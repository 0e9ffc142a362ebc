import { sandboxAssets } from 'virtual:spade-sandbox';
import { createBrowserSandboxRuntime, type BrowserSandboxRuntime } from '../../adapters/sandbox/browser-sandbox.ts';

let runtime: BrowserSandboxRuntime | null = null;

/** The app's one browser sandbox runtime, created on first use (the app context hands it out; views use `ctx.sandbox`). */
export function appSandbox(): BrowserSandboxRuntime {
  runtime ??= createBrowserSandboxRuntime(sandboxAssets);
  return runtime;
}

/** Warms the app's sandbox; resolves with why Python started cold (the build's snapshot was not used), or with nothing when it started from that snapshot. */
export async function warmAppSandbox(): Promise<{ coldBecause: string } | void> {
  const sandbox = appSandbox();
  await sandbox.warm();
  const use = sandbox.snapshotUse();
  if (use && !use.fromBuild) return { coldBecause: `the build's Python snapshot ${use.why}` };
}
