import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Page, type Request } from 'playwright-core';
import { build, preview } from 'vite';
import { CHROMIUM_ARGS } from '../browser/harness.ts';
import { shownPattern, shownText } from '../browser/page-text.ts';

/** The first view's budget: HTML, scripts and style sheets the page loads before any click, gzip. */
export const FIRST_VIEW_BUDGET_BYTES = 400 * 1024;

/** One file the page loaded, with its size gzip-compressed (level 9). */
export interface LoadedFile {
  path: string;
  gzipBytes: number;
}

/** The files of the built app at `outDir` that `requests` fetched as the document, a script or a style sheet (the code of a view), largest first. */
export function firstViewFiles(
  requests: readonly Pick<Request, 'url' | 'resourceType'>[],
  baseUrl: string,
  outDir: string,
): LoadedFile[] {
  const paths = new Set<string>();
  for (const request of requests) {
    if (!['document', 'script', 'stylesheet'].includes(request.resourceType()) || !request.url().startsWith(baseUrl))
      continue;
    const path = '/' + new URL(request.url()).pathname.slice(new URL(baseUrl).pathname.length);
    paths.add(path === '/' ? '/index.html' : path);
  }
  return [...paths]
    .map((path) => ({ path, gzipBytes: gzipSync(readFileSync(join(outDir, path)), { level: 9 }).length }))
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

/** Sum of the files' gzip sizes in bytes. */
export const totalGzip = (files: readonly LoadedFile[]) => files.reduce((sum, file) => sum + file.gzipBytes, 0);

/** What the built app loads, and how long Python takes, in Chromium. */
export interface FirstViewFigures {
  files: LoadedFile[];
  /** The click on "Start the demo" to "Python ready" in ms: a fresh profile (nothing cached), then a second visit in the same profile. */
  pythonReadyColdMs: number;
  pythonReadyWarmMs: number;
  /** The estimate the second visit showed while Python started, in ms (the first visit's start). */
  warmEstimateMs: number;
  /** What the page fetched while Python started (worker and Pyodide's files), gzip. */
  pythonDownloadGzipBytes: number;
  /** Click on "Start the demo" (as soon as it shows) to the first streamed token on screen, in ms: a fresh profile, then a second visit. */
  demoFirstTokenColdMs: number;
  demoFirstTokenWarmMs: number;
}

/** Opens the page and its Model view, clicks "Start the demo" as soon as it shows and "Create run" in the form, and times from that click to the designer's first streamed token on screen. */
async function demoFirstToken(page: Page, url: string): Promise<number> {
  await page.goto(url);
  // A second visit reopens the last run; the ways in are on the Model view.
  await page.getByRole('button', { name: 'Model', exact: true }).click({ timeout: 60_000 });
  const start = page.getByRole('button', { name: 'Start the demo' });
  await start.waitFor({ timeout: 60_000 });
  const clickedAt = await page.evaluate(() => performance.now());
  await start.click();
  await page.getByRole('button', { name: 'Create run' }).click();
  await page.waitForFunction(
    () =>
      [...document.querySelectorAll('[aria-label^="Environment code, slot"]')].some(
        (code) => (code.textContent ?? '').trim() !== '',
      ),
    null,
    {
      timeout: 120_000,
      polling: 'raf',
    },
  );
  return ((await page.evaluate(() => performance.now())) as number) - clickedAt;
}

/** Opens `url` in `page`, calls `onSettled` once it has loaded what it loads before any click, clicks "Start the demo" (Python starts when a new run's form opens, not with the page) and waits for "Python ready": that click to ready in ms, the estimate the header showed while starting, and what Python started from (the header's data-started-from: 'snapshot' or 'cold'). */
export async function visit(
  page: Page,
  url: string,
  onSettled: () => void = () => {},
): Promise<{ readyMs: number; estimate: string; startedFrom: string | null }> {
  await page.goto(url);
  const status = page.getByTestId('python-status');
  await status.getByText('Python starts when a run or an environment needs it').waitFor({ timeout: 60_000 });
  await page.waitForLoadState('networkidle');
  onSettled();
  await page.getByRole('button', { name: 'Model', exact: true }).click({ timeout: 60_000 });
  const start = page.getByRole('button', { name: 'Start the demo' });
  await start.waitFor({ timeout: 60_000 });
  const clickedAt = (await page.evaluate(() => performance.now())) as number;
  await start.click();
  await status.getByText(shownPattern(/Starting Python|Python ready/)).waitFor({ timeout: 60_000 });
  const estimate = await shownText(status);
  await status.getByText('Python ready').waitFor({ timeout: 180_000 });
  const ready = (await page.evaluate(
    () => performance.getEntriesByName('spade-python-ready')[0]?.startTime ?? NaN,
  )) as number;
  return { readyMs: ready - clickedAt, estimate, startedFrom: await status.getAttribute('data-started-from') };
}

/** Builds the app, serves it as `vite preview` does, and measures its first view and Python start in a fresh Chromium profile and again on a second visit. */
export async function measureFirstView(): Promise<FirstViewFigures> {
  const outDir = mkdtempSync(join(tmpdir(), 'spade-first-view-'));
  await build({ configFile: 'vite.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const server = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const address = server.httpServer.address();
  if (!address || typeof address === 'string') throw new Error('vite preview did not listen on a TCP port');
  const baseUrl = `http://127.0.0.1:${address.port}/`;
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const context = await browser.newContext();
    const requests: Request[] = [];
    context.on('request', (request) => void requests.push(request));
    const page = await context.newPage();
    let firstView: Request[] = [];
    const cold = await visit(page, baseUrl, () => (firstView = [...requests]));
    const files = firstViewFiles(firstView, baseUrl, outDir);
    const python = requests
      .filter((r) => /\/(pyodide\/|assets\/sandbox-worker-)/.test(r.url()))
      .map((r) => new URL(r.url()).pathname);
    const pythonDownloadGzipBytes = [...new Set(python)].reduce(
      (sum, path) => sum + gzipSync(readFileSync(join(outDir, path)), { level: 9 }).length,
      0,
    );
    const warm = await visit(await context.newPage(), baseUrl);
    const warmEstimateMs = 1000 * Number((/about (\d+) s/.exec(warm.estimate) ?? [])[1] ?? NaN);
    const demoContext = await browser.newContext();
    const demoFirstTokenColdMs = await demoFirstToken(await demoContext.newPage(), baseUrl);
    const demoFirstTokenWarmMs = await demoFirstToken(await demoContext.newPage(), baseUrl);
    return {
      files,
      pythonReadyColdMs: cold.readyMs,
      pythonReadyWarmMs: warm.readyMs,
      warmEstimateMs,
      pythonDownloadGzipBytes,
      demoFirstTokenColdMs,
      demoFirstTokenWarmMs,
    };
  } finally {
    await browser.close();
    await server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The figures as `npm run bench` prints them. */
export function formatFirstView(f: FirstViewFigures): string {
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    'First view of the built app (Chromium without WebGPU, fresh profile; HTML, scripts and style sheets loaded before any click, gzip -9;',
    '  where WebGPU works, the Model view also proves the web-llm worker engine at once: web-llm and its worker, about 4.2 MB more)',
    `  first view                    ${kb(totalGzip(f.files))}   budget ${kb(FIRST_VIEW_BUDGET_BYTES)}   (${f.files.length} files; largest ${f.files
      .slice(0, 3)
      .map((file) => `${file.path} ${kb(file.gzipBytes)}`)
      .join(', ')})`,
    `  Python, fetched once started  ${kb(f.pythonDownloadGzipBytes)}   (sandbox worker and Pyodide's files)`,
    `  demo click to Python ready    ${(f.pythonReadyColdMs / 1000).toFixed(1)} s fresh profile   ${(f.pythonReadyWarmMs / 1000).toFixed(1)} s second visit (it showed "about ${(f.warmEstimateMs / 1000).toFixed(0)} s")`,
    `  "Start the demo" to first token ${(f.demoFirstTokenColdMs / 1000).toFixed(2)} s fresh profile   ${(f.demoFirstTokenWarmMs / 1000).toFixed(2)} s second visit (clicked as soon as the button shows)`,
    '',
  ].join('\n');
}
