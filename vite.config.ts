import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { spadeSandboxPlugin } from './src/adapters/sandbox/vite-plugin.ts';
import { ISOLATION_HEADERS } from './src/adapters/offline/isolation-headers.ts';
import { spadeOfflinePlugin } from './src/adapters/offline/pwa-plugin.ts';

// Cross-origin isolation (COOP + COEP) gives the page SharedArrayBuffer, which the CPU model
// backend needs for threads. Every resource the app loads is its own or fetched with CORS.
// A static host that cannot send these headers gets them from the service worker from the
// second load on (see README, "Any static host").

// Offline and any static host: the service worker, the web app manifest, and the sub-path the
// build is served under (`vite build --base /spade-lab/` or SPADE_BASE=/spade-lab/).
const offline = {
  base: process.env.SPADE_BASE ?? '/',
  plugins: [spadeOfflinePlugin()],
};

export default defineConfig({
  base: offline.base,
  plugins: [svelte(), spadeSandboxPlugin(), ...offline.plugins],
  optimizeDeps: { exclude: ['pyodide'] },
  server: { host: '127.0.0.1', port: 5173, headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, headers: ISOLATION_HEADERS },
});
