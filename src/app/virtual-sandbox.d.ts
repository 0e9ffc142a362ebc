/** Where the bundled browser sandbox worker and Pyodide's files are served (see src/adapters/sandbox/vite-plugin.ts). */
declare module 'virtual:spade-sandbox' {
  export const workerUrl: string;
  export const pyodideBase: string;
  export const pyodideFiles: readonly string[];
}
