import { createServer, type ViteDevServer } from 'vite';
import { BUILT_APP_BASE } from './built-app.ts';
import { staticFiles } from './static-server.ts';

/**
 * Starts the app's Vite dev server on a free port of 127.0.0.1, without file watching. With
 * `builtApp` (a production build's folder, made for BUILT_APP_BASE) it also serves that build
 * under BUILT_APP_BASE: the same origin as the dev server's test pages, so both see one storage.
 */
export async function startAppServer(
  options: { builtApp?: string } = {},
): Promise<{ server: ViteDevServer; baseUrl: string }> {
  const { builtApp } = options;
  const mountBuild = builtApp
    ? [
        {
          name: 'built-app',
          configureServer: (dev: ViteDevServer) => void dev.middlewares.use(BUILT_APP_BASE, staticFiles(builtApp)),
        },
      ]
    : [];
  // Vite keys its optimized dependencies by the config, plugin names included: a server with the
  // build mounted keeps them in a folder of its own, so servers of both kinds never re-optimize
  // (and delete) the files the other's pages are loading.
  const cacheDir = builtApp ? 'node_modules/.vite-with-build' : undefined;
  const server = await createServer({
    configFile: 'vite.config.ts',
    plugins: mountBuild,
    cacheDir,
    server: { port: 0, host: '127.0.0.1', strictPort: false },
    logLevel: 'error',
  });
  // No file watching: a change elsewhere in the tree must not reload a page mid-test.
  await server.watcher.close();
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite did not listen on a TCP port');
  return { server, baseUrl: `http://127.0.0.1:${address.port}` };
}
