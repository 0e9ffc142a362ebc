/**
 * The headers that make a page cross-origin isolated (SharedArrayBuffer, so wasm threads for the
 * CPU model backend). The dev and preview servers send them; on a static host that cannot, the
 * service worker adds them to every same-origin response it serves.
 */
export const ISOLATION_HEADERS: Readonly<Record<string, string>> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** `response` with the isolation headers added; opaque and error responses (status 0) are returned as they are, since their headers cannot be read or copied. */
export function withIsolationHeaders(response: Response): Response {
  if (response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION_HEADERS)) headers.set(name, value);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}
