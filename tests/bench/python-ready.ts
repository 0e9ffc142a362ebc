import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { build, preview } from 'vite';
import { startAppServer } from '../browser/app-server.ts';
import { CHROMIUM_ARGS } from '../browser/harness.ts';
import { serveStatic } from '../browser/static-server.ts';
import { visit } from './first-view.ts';

/** The click on "Start the demo" to "Python ready" on one server: medians over fresh profiles and over second visits, and what each start came from. */
export interface ReadyFigures {
  server: string;
  freshMs: number;
  secondMs: number;
  /** What the header said each start came from ('snapshot' or 'cold'; '?' when it did not say). */
  startedFrom: string[];
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

/**
 * Builds the app and times the click on "Start the demo" (Python starts when a new run's form
 * opens) to "Python ready" on the dev server, behind `vite preview`
 * (which serves the snapshot's .gz with Content-Encoding: gzip) and behind a plain static host
 * (which serves its bytes as they are): `rounds` fresh profiles and second visits each, the
 * servers taking turns, service workers blocked (each page fetches from its server).
 */
export async function measurePythonReady(rounds = 2): Promise<ReadyFigures[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'spade-python-ready-'));
  await build({ configFile: 'vite.config.ts', logLevel: 'error', build: { outDir, emptyOutDir: true } });
  const dev = await startAppServer();
  const previewServer = await preview({
    configFile: 'vite.config.ts',
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const host = await serveStatic(outDir, '/');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: true, args: CHROMIUM_ARGS });
  try {
    const address = previewServer.httpServer.address();
    if (!address || typeof address === 'string') throw new Error('vite preview did not listen on a TCP port');
    const servers = [
      { server: 'dev server', url: `${dev.baseUrl}/` },
      { server: 'vite preview (the build)', url: `http://127.0.0.1:${address.port}/` },
      { server: 'plain static host (the build)', url: `${host.baseUrl}/` },
    ];
    const figures = servers.map(({ server }) => ({
      server,
      fresh: [] as number[],
      second: [] as number[],
      startedFrom: [] as string[],
    }));
    for (let round = 0; round < rounds; round++) {
      for (const [i, { url }] of servers.entries()) {
        const context = await browser.newContext({ serviceWorkers: 'block' });
        const fresh = await visit(await context.newPage(), url);
        const second = await visit(await context.newPage(), url);
        await context.close();
        figures[i]!.fresh.push(fresh.readyMs);
        figures[i]!.second.push(second.readyMs);
        figures[i]!.startedFrom.push(fresh.startedFrom ?? '?', second.startedFrom ?? '?');
      }
    }
    return figures.map(({ server, fresh, second, startedFrom }) => ({
      server,
      freshMs: median(fresh),
      secondMs: median(second),
      startedFrom,
    }));
  } finally {
    await browser.close();
    await host.close();
    await previewServer.close();
    await dev.server.close();
    rmSync(outDir, { recursive: true, force: true });
  }
}

/** The figures as `npm run bench` prints them, each server's beside the dev server's. */
export function formatPythonReady(figures: ReadyFigures[]): string {
  const [dev] = figures;
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const ratio = (ms: number, base: number | undefined) => (base ? ` (${(ms / base).toFixed(2)}x)` : '');
  return [
    'Python ready (Chromium, the click on "Start the demo" to "Python ready", medians; the build behind vite preview and a plain static host beside the dev server)',
    ...figures.map((f) =>
      [
        `  ${f.server.padEnd(30)}`,
        `fresh profile ${s(f.freshMs)}${f === dev ? '' : ratio(f.freshMs, dev?.freshMs)}`,
        `  second visit ${s(f.secondMs)}${f === dev ? '' : ratio(f.secondMs, dev?.secondMs)}`,
        `  started from: ${f.startedFrom.join(', ')}`,
      ].join(''),
    ),
    '',
  ].join('\n');
}
