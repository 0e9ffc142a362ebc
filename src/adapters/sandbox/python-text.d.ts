/** Python sources bundled as text (esbuild `text` loader). */
declare module '*.py' {
  const source: string;
  export default source;
}

/** Pyodide's Emscripten module factory, bundled into the browser sandbox worker. */
declare module 'pyodide/pyodide.asm.mjs' {
  const createPyodideModule: NonNullable<import('pyodide').PyodideConfig['createPyodideModule']>;
  export default createPyodideModule;
}
