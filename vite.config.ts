import { defineConfig } from 'vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { spadeSandboxPlugin } from './src/adapters/sandbox/vite-plugin.ts';

export default defineConfig({
  plugins: [svelte(), spadeSandboxPlugin()],
  optimizeDeps: { exclude: ['pyodide'] },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});
