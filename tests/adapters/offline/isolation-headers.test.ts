// The headers the service worker adds so a host without COOP/COEP still gets a cross-origin
// isolated page: added to a served response, the response otherwise unchanged.
import { describe, expect, it } from 'vitest';
import { withIsolationHeaders } from '../../../src/adapters/offline/isolation-headers.ts';

describe('withIsolationHeaders', () => {
  it('adds COOP and COEP and keeps the status, the other headers and the body', async () => {
    const original = new Response('print(1)', {
      status: 203,
      statusText: 'Cached',
      headers: { 'Content-Type': 'text/x-python', 'Cross-Origin-Embedder-Policy': 'unsafe-none' },
    });
    const served = withIsolationHeaders(original);
    expect(served.status).toBe(203);
    expect(served.statusText).toBe('Cached');
    expect(served.headers.get('Content-Type')).toBe('text/x-python');
    expect(served.headers.get('Cross-Origin-Opener-Policy')).toBe('same-origin');
    expect(served.headers.get('Cross-Origin-Embedder-Policy')).toBe('require-corp');
    await expect(served.text()).resolves.toBe('print(1)');
  });

  it('returns an opaque or error response as it is', () => {
    const failed = Response.error();
    expect(withIsolationHeaders(failed)).toBe(failed);
  });

  it('keeps a body-less response body-less', async () => {
    const served = withIsolationHeaders(new Response(null, { status: 204 }));
    expect(served.status).toBe(204);
    expect(served.body).toBeNull();
  });
});
