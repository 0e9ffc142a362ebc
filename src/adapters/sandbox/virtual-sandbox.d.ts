/** Where the bundled browser sandbox worker, Pyodide's files and the interpreter snapshot are served (see src/adapters/sandbox/vite-plugin.ts). */
declare module 'virtual:spade-sandbox' {
  import type { BrowserSandboxAssets } from './browser-sandbox.ts';
  export const sandboxAssets: BrowserSandboxAssets;
}
