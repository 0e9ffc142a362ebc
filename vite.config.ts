import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { spadeSandboxPlugin } from './src/adapters/sandbox/vite-plugin.ts';

// Cross-origin isolation (COOP + COEP) gives the page SharedArrayBuffer, which the CPU model
// backend needs for threads. Every resource the app loads is its own or fetched with CORS.
const ISOLATION_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

export default defineConfig({
  plugins: [svelte(), spadeSandboxPlugin()],
  optimizeDeps: { exclude: ['pyodide'] },
  server: { host: '127.0.0.1', port: 5173, headers: ISOLATION_HEADERS },
  preview: { host: '127.0.0.1', port: 4173, headers: ISOLATION_HEADERS },
});
