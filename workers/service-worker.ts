// The app's service worker (built by vite-plugin-pwa's injectManifest, which fills in
// self.__WB_MANIFEST): precaches every file of the build, serves it offline, adds the isolation
// headers to what it serves, and takes over from an older version only when the page asks
// (the page asks only when no run is in progress).
import { clientsClaim } from 'workbox-core';
import { addPlugins, cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { ExpirationPlugin } from 'workbox-expiration';
import { CacheFirst, NetworkOnly } from 'workbox-strategies';
import { withIsolationHeaders } from '../src/adapters/offline/isolation-headers.ts';

declare let self: ServiceWorkerGlobalScope & {
  __WB_MANIFEST: Array<string | { url: string; revision: string | null }>;
};

const isolation = {
  handlerWillRespond: async ({ response }: { response: Response }) => withIsolationHeaders(response),
};

addPlugins([isolation]);
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Any page in scope (a shared link's query or hash included) is the app's one page.
registerRoute(new NavigationRoute(createHandlerBoundToURL('index.html')));
// wllama's compatibility wasm (not precached: only some browsers load it) is kept once fetched.
registerRoute(
  ({ sameOrigin, url }) => sameOrigin && /\/assets\/wllama-[^/]*\.wasm$/.test(url.pathname),
  new CacheFirst({
    cacheName: 'spade-lab-wllama-compat',
    plugins: [new ExpirationPlugin({ maxEntries: 1 }), isolation],
  }),
);
// Same-origin files outside the precache still get the isolation headers.
registerRoute(({ sameOrigin }) => sameOrigin, new NetworkOnly({ plugins: [isolation] }));

// A first install controls the open page at once (so it works offline without a reload); an
// update stays waiting until the page sends SKIP_WAITING.
clientsClaim();
self.addEventListener('message', (event) => {
  if ((event.data as { type?: unknown } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
