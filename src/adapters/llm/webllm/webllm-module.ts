/** web-llm's module. */
export type WebLlmModule = typeof import('@mlc-ai/web-llm');

let pending: Promise<WebLlmModule> | null = null;

/** web-llm's module, imported on first use so the app's first paint does not wait for its 6 MB of JavaScript. */
export function loadWebLlm(): Promise<WebLlmModule> {
  pending ??= import('@mlc-ai/web-llm');
  return pending;
}
