import { statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { VitePWA, type VitePWAOptions } from 'vite-plugin-pwa';
import type { PluginOption } from 'vite';

type ManifestTransform = NonNullable<NonNullable<VitePWAOptions['injectManifest']>['manifestTransforms']>[number];

/** Largest file the service worker precaches: Pyodide's wasm and the web-llm chunk are several MB each. */
const MAX_PRECACHED_FILE_BYTES = 32 * 1024 * 1024;

/**
 * Leaves out of the precache the wasm of wllama's compatibility build (about 19 MB), which only
 * browsers without JSPI or Memory64 load: the service worker caches it when first fetched. The
 * build names it by a content hash, so it is found by its size.
 */
const withoutCompatWasm: ManifestTransform = (entries) => {
  const compatBytes = statSync(createRequire(import.meta.url).resolve('@wllama/wllama-compat/wasm/wllama.wasm')).size;
  return {
    manifest: entries.filter((entry) => !(entry.url.endsWith('.wasm') && entry.size === compatBytes)),
    warnings: [],
  };
};

/**
 * The offline app: vite-plugin-pwa builds `workers/service-worker.ts` with the list of every file
 * of the build (app shell, Pyodide's files, the sandbox and model workers, wllama's wasm, the
 * corpus, suites, pools and demo script) and writes the web app manifest. The app registers the
 * worker itself (src/app/shell/app-update.svelte.ts) and takes a new version only when asked.
 */
export function spadeOfflinePlugin(): PluginOption {
  return VitePWA({
    // The worker is built without Workbox's development logging, whatever NODE_ENV the build runs under.
    mode: 'production',
    strategies: 'injectManifest',
    srcDir: 'workers',
    filename: 'service-worker.ts',
    registerType: 'prompt',
    injectRegister: false,
    injectManifest: {
      globPatterns: ['**/*.{html,js,css,wasm,zip,gz,json,jsonl,py,svg,png,webmanifest}'],
      maximumFileSizeToCacheInBytes: MAX_PRECACHED_FILE_BYTES,
      manifestTransforms: [withoutCompatWasm],
    },
    manifest: {
      name: 'SPADE Lab',
      short_name: 'SPADE Lab',
      description:
        'Watch SPADE self-play run in your browser tab: a local model designs games, a Python sandbox checks them.',
      start_url: '.',
      scope: '.',
      display: 'standalone',
      background_color: '#ffffff',
      theme_color: '#1f4e79',
      icons: [
        { src: 'icons/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: 'icons/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: 'icons/icon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
  });
}
