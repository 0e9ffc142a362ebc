/** How the probe frame tries to navigate itself to the leak URL. */
export type NavigationMethod = 'location' | 'anchor' | 'meta-refresh';

/** What the page saw of a probe frame. */
export interface NavigationProbeResult {
  /** The frame ran its script and posted to the parent (so the srcdoc frame itself loads under the page CSP). */
  loaded: boolean;
  /** The origin the frame reported for itself ("null" for an opaque origin). */
  frameOrigin: string | null;
  /** How many `load` events the iframe element fired (a second one means some navigation finished, maybe to an error page). */
  loadEvents: number;
}

/**
 * Adds `<iframe sandbox="allow-scripts" srcdoc=...>` whose own script first posts to the parent
 * and then navigates the frame to `leakUrl`; waits `settleMs` after the post and removes the frame.
 */
export async function navigationProbe(
  leakUrl: string,
  method: NavigationMethod = 'location',
  settleMs = 2000,
): Promise<NavigationProbeResult> {
  const target = JSON.stringify(leakUrl);
  const navigate: Record<NavigationMethod, string> = {
    location: `location.href = ${target};`,
    anchor: `const a = document.createElement('a'); a.href = ${target}; document.body.append(a); a.click();`,
    'meta-refresh': `const m = document.createElement('meta'); m.httpEquiv = 'refresh'; m.content = '0;url=' + ${target}; document.head.append(m);`,
  };
  const script = `parent.postMessage({ spadeNavProbe: 'loaded', origin: self.origin }, '*'); ${navigate[method]}`;
  const frame = document.createElement('iframe');
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.srcdoc = `<!doctype html><html><head></head><body><script>${script}</script></body></html>`;
  let loadEvents = 0;
  frame.addEventListener('load', () => (loadEvents += 1));
  let frameOrigin: string | null = null;
  const loaded = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => resolve(false), 15_000);
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { spadeNavProbe?: unknown; origin?: unknown } | null;
      if (event.source === frame.contentWindow && data?.spadeNavProbe === 'loaded') {
        frameOrigin = String(data.origin);
        clearTimeout(timer);
        window.removeEventListener('message', onMessage);
        resolve(true);
      }
    };
    window.addEventListener('message', onMessage);
  });
  document.body.append(frame);
  const didLoad = await loaded;
  await new Promise((resolve) => setTimeout(resolve, settleMs));
  frame.remove();
  return { loaded: didLoad, frameOrigin, loadEvents };
}
