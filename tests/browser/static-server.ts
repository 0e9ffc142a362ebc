// A plain static host for the built app: files under one sub-path, the right content types, and
// none of the COOP/COEP headers (as many project-page hosts serve). Tests can replace one file's
// bytes (a new release of the service worker) and close it (the network gone).
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.jsonl': 'application/jsonl',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.zip': 'application/zip',
  '.py': 'text/x-python',
};

// The file a request path below the sub-path names (a folder's index.html), never outside it.
function fileName(below: string): string {
  const relative = normalize(below || 'index.html').replace(/^(\.\.(\/|$))+/, '');
  return relative === '.' || relative.endsWith('/') ? join(relative, 'index.html') : relative;
}

const contentType = (name: string) => CONTENT_TYPES[extname(name)] ?? 'application/octet-stream';

/** A connect-style handler serving `dir`'s files for request paths below its mount point (a Vite dev server's middleware); anything else is a 404. */
export function staticFiles(dir: string): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const name = fileName(decodeURIComponent((req.url ?? '/').split('?')[0]!).replace(/^\//, ''));
    readFile(join(dir, name)).then(
      (bytes) => res.writeHead(200, { 'Content-Type': contentType(name) }).end(bytes),
      () => res.writeHead(404).end('not found'),
    );
  };
}

/** A running static host and what a test can do to it. */
export interface StaticHost {
  /** Origin and sub-path, without a trailing slash (e.g. http://127.0.0.1:4321/spade-lab). */
  baseUrl: string;
  /** Paths asked for (below the origin), in order. */
  requested: string[];
  /** Serves `body` for `path` (a path below the sub-path, e.g. 'service-worker.js') instead of the file. */
  replace(path: string, body: string): void;
  /** Stops serving, closing open connections. */
  close(): Promise<void>;
}

/** Serves `dir` under `subPath` (e.g. '/spade-lab/') on 127.0.0.1, on `port` (0: any free one). */
export async function serveStatic(dir: string, subPath: string, port = 0): Promise<StaticHost> {
  const replaced = new Map<string, string>();
  const requested: string[] = [];
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]!);
    requested.push(path);
    if (!path.startsWith(subPath)) {
      res.writeHead(404).end('outside the app');
      return;
    }
    const name = fileName(path.slice(subPath.length));
    const body = replaced.has(name) ? Promise.resolve(Buffer.from(replaced.get(name)!)) : readFile(join(dir, name));
    body.then(
      (bytes) => res.writeHead(200, { 'Content-Type': contentType(name), 'Cache-Control': 'no-cache' }).end(bytes),
      () => res.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the static host did not listen on a TCP port');
  return {
    baseUrl: `http://127.0.0.1:${address.port}${subPath.replace(/\/$/, '')}`,
    requested,
    replace: (path, body) => void replaced.set(path, body),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
