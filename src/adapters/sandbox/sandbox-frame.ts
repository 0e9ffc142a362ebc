/** Content-Security-Policy of the sandbox frame: no network of any kind, blob workers and wasm only. */
export const SANDBOX_FRAME_CSP = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:";

// Runs inside the opaque-origin frame: starts the worker from the source the host sent and
// hands it the host's port; reports worker deaths to the host. It handles one message only.
const FRAME_SCRIPT = `
addEventListener('message', (event) => {
  if (event.source !== parent) return;
  const { workerSource, port, files, token } = event.data || {};
  const url = URL.createObjectURL(new Blob([workerSource], { type: 'text/javascript' }));
  const worker = new Worker(url);
  const died = (reason) => parent.postMessage({ spadeSandboxDied: String(reason), token }, '*');
  worker.addEventListener('error', (e) => died(e.message || 'worker error'));
  worker.addEventListener('messageerror', () => died('message error'));
  worker.postMessage({ port, files }, [port]);
}, { once: true });
`;

/** The srcdoc of the sandbox frame (load it in `<iframe sandbox="allow-scripts">`, never with allow-same-origin). */
export function sandboxFrameHtml(): string {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${SANDBOX_FRAME_CSP}"></head><body><script>${FRAME_SCRIPT}</script></body></html>`;
}
