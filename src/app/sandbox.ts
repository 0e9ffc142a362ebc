import { sandboxAssets } from 'virtual:spade-sandbox';
import { createBrowserSandboxRuntime } from '../adapters/sandbox/browser-sandbox.ts';
import type { PyodideSandboxRuntime } from '../adapters/sandbox/pyodide-runtime.ts';

let runtime: PyodideSandboxRuntime | null = null;

/** The app's one browser sandbox runtime, created on first use (the app context hands it out; views use `ctx.sandbox`). */
export function appSandbox(): PyodideSandboxRuntime {
  runtime ??= createBrowserSandboxRuntime(sandboxAssets);
  return runtime;
}
