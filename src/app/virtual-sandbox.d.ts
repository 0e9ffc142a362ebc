/** The bundled browser sandbox worker and Pyodide file locations (see src/adapters/sandbox/vite-plugin.ts). */
declare module 'virtual:spade-sandbox' {
  export const workerSource: string;
  export const pyodideBase: string;
  export const pyodideFiles: readonly string[];
}
