import { sandboxAssets } from 'virtual:spade-sandbox';
import { createBrowserSandboxRuntime } from '../../src/adapters/sandbox/browser-sandbox.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../src/core/env/validate-env.ts';
import { EXAMPLE_ENV } from '../../src/app/sandbox/example-env.ts';

interface PhasePage {
  /** Set by the bench (page.exposeFunction): notes the moment a phase ends, with the browser's CPU so far. */
  spadeMark(name: string): Promise<void>;
  spadeStart(): Promise<{ downloadsDoneMs: number }>;
  spadeReplica(): Promise<void>;
}
const page = window as unknown as PhasePage;

/** The app's start in this fresh page, phase by phase: first interpreter ready, Python ready (what the header waits for), the first environment validated, then one more interpreter started alone. */
page.spadeStart = async () => {
  const from = performance.now();
  await page.spadeMark('begin');
  const runtime = createBrowserSandboxRuntime(sandboxAssets);
  const firstBoot = new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      if (runtime.boots < 1) return;
      clearInterval(timer);
      resolve();
    }, 5);
  });
  void firstBoot.then(() => page.spadeMark('first interpreter ready'));
  await runtime.warm();
  await firstBoot;
  await page.spadeMark('Python ready (syntax checker and a spare)');
  const report = await validateEnvironment(EXAMPLE_ENV, runtime, { ...DEFAULT_VALIDATION, nonce: 7 });
  if (!report.ok) throw new Error('the example environment did not validate');
  await page.spadeMark('first environment validated');
  await runtime.close();
  const files = performance
    .getEntriesByType('resource')
    .filter((entry) => /pyodide\/|sandbox-worker/.test(entry.name)) as PerformanceResourceTiming[];
  return { downloadsDoneMs: Math.max(...files.map((entry) => entry.responseEnd)) - from };
};

// The frame's one-time work done here on the page's main thread, each step on its own: fetching
// the files, compiling the wasm, unpacking the snapshot, and one worker's copies of the bytes.
page.spadeReplica = async () => {
  await page.spadeMark('begin');
  const get = async (name: string) => (await fetch(sandboxAssets.pyodideBase + name)).arrayBuffer();
  const files = await Promise.all(sandboxAssets.pyodideFiles.map(get));
  const packed = await get(sandboxAssets.snapshotFile ?? '');
  await page.spadeMark('fetch the files and the snapshot');
  await WebAssembly.compile(files[0]!);
  await page.spadeMark('compile the wasm');
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream('gzip'));
  const snapshot = await new Response(stream).arrayBuffer();
  await page.spadeMark(
    `gunzip the snapshot (${(packed.byteLength / 2 ** 20).toFixed(1)} to ${(snapshot.byteLength / 2 ** 20).toFixed(1)} MB)`,
  );
  for (let i = 0; i < 10; i++) [...files.slice(1), snapshot].map((bytes) => bytes.slice(0));
  await page.spadeMark("10 workers' copies of the files and snapshot");
};
