import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import compatWasmUrl from '@wllama/wllama-compat/wasm/wllama.wasm?url';

/** The URL of wllama's wasm, served (dev) and emitted (build) by the app itself; never a CDN. */
export const WLLAMA_WASM_URL: string = wasmUrl;

/** The URL of the compatibility build's wasm (Asyncify, 32-bit memory) for browsers without JSPI or Memory64, such as Safari. */
export const WLLAMA_COMPAT_WASM_URL: string = compatWasmUrl;

/** The compatibility build's worker code, in a chunk of its own that only browsers needing it fetch. */
export async function loadCompatWorkerCode(): Promise<string> {
  return (await import('@wllama/wllama-compat/wasm/wllama.js?raw')).default;
}
