import { build } from 'esbuild';

/** Where a bundled worker runs. */
export type WorkerPlatform = 'node' | 'browser';

/**
 * Bundles a worker entry (TypeScript, `.py` files imported as text) into one self-contained file:
 * an ES module for Node, a classic script for the browser (a module worker cannot start inside an
 * opaque origin). Self-contained because the Node child may read only its own file and the
 * browser worker's origin can fetch nothing. `minify` for what the app ships.
 */
export async function bundleWorker(entry: string, platform: WorkerPlatform, minify = false): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: platform === 'node' ? 'esm' : 'iife',
    platform,
    target: platform === 'node' ? 'node20' : 'es2022',
    loader: { '.py': 'text' },
    external: ['node:*', 'ws'],
    logLevel: 'silent',
    legalComments: 'none',
    minify,
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`esbuild produced no output for ${entry}`);
  return output.text;
}
