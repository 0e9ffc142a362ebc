import { createServer, type ViteDevServer } from 'vite';

/** Starts the app's Vite dev server on a free port of 127.0.0.1, without file watching. */
export async function startAppServer(): Promise<{ server: ViteDevServer; baseUrl: string }> {
  const server = await createServer({ configFile: 'vite.config.ts', server: { port: 0, host: '127.0.0.1', strictPort: false }, logLevel: 'error' });
  // No file watching: a change elsewhere in the tree must not reload a page mid-test.
  await server.watcher.close();
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite did not listen on a TCP port');
  return { server, baseUrl: `http://127.0.0.1:${address.port}` };
}
