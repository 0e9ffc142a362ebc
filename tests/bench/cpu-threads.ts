// The CPU backend's speed with and without threads, in Chromium: a generated GGUF larger than the
// test model (random f32 weights, so compute and memory traffic are like a real small model's,
// the text is not) is loaded on the app's cross-origin isolated page and on the same page served
// without COOP/COEP, then asked for a fixed number of tokens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { makeTinyGguf, TINY_SHAPE, type TinyModelShape } from '../fixtures/gguf/make-tiny-gguf.ts';
import { serveWithoutIsolation, startRig } from '../browser/harness.ts';

const PAGE = '/tests/browser/pages/wllama.html';
/** About 400 MB of f32 weights (8 blocks of width 1024), close to the file size of Qwen3 0.6B in Q4_K_M. */
const BENCH_SHAPE: TinyModelShape = { ...TINY_SHAPE, embd: 1024, layers: 8, heads: 16, kvHeads: 8, ff: 3072 };
const TOKENS = 32;

/** One page's figures. */
export interface CpuThreadFigures {
  isolated: boolean;
  threads: number;
  modelBytes: number;
  loadMs: number;
  /** Median of three timed calls of TOKENS tokens each, after one warm-up call. */
  generateMs: number;
  tokensPerSecond: number;
}

async function measurePage(
  context: BrowserContext,
  baseUrl: string,
  modelPath: string,
  modelBytes: number,
): Promise<CpuThreadFigures> {
  const page = await context.newPage();
  await page.goto(baseUrl + PAGE);
  await page.waitForFunction(() => Boolean(window.wllamaTest), null, { timeout: 60_000 });
  const started = Date.now();
  await page.getByTestId('cpu-file').setInputFiles(modelPath);
  await page.getByTestId('cpu-ready').waitFor({ timeout: 300_000 });
  const loadMs = Date.now() - started;
  const state = await page.evaluate(() => window.wllamaTest.state());
  const runs: number[] = [];
  for (let i = 0; i < 4; i++) {
    const call = await page.evaluate((n) => window.wllamaTest.chat({ maxTokens: n }), TOKENS);
    if (call.error || call.result?.usage.completionTokens !== TOKENS)
      throw new Error(
        `the bench call did not produce ${TOKENS} tokens: ${JSON.stringify(call.error ?? call.result?.usage)}`,
      );
    if (i > 0) runs.push(call.totalMs);
  }
  const generateMs = [...runs].sort((a, b) => a - b)[1]!;
  return {
    isolated: state.environment.crossOriginIsolated,
    threads: state.loaded!.info.threads,
    modelBytes,
    loadMs,
    generateMs,
    tokensPerSecond: (1000 * TOKENS) / generateMs,
  };
}

/** Measures the generated model on an isolated page (threads) and on a page without isolation (one thread). */
export async function measureCpuThreads(): Promise<CpuThreadFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), 'spade-cpu-bench-'));
  const model = makeTinyGguf(BENCH_SHAPE);
  const modelPath = join(dir, 'spade-bench.gguf');
  writeFileSync(modelPath, model);
  const rig = await startRig();
  try {
    const isolated = await rig.browser.newContext();
    const plain = await rig.browser.newContext();
    await serveWithoutIsolation(plain, PAGE);
    return [
      await measurePage(isolated, rig.baseUrl, modelPath, model.length),
      await measurePage(plain, rig.baseUrl, modelPath, model.length),
    ];
  } finally {
    await rig.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Formats the figures for the terminal. */
export function formatCpuThreads(figures: readonly CpuThreadFigures[]): string {
  const mb = (figures[0]?.modelBytes ?? 0) / 2 ** 20;
  return [
    `CPU backend (wllama in Chromium), generated ${mb.toFixed(0)} MiB f32 model, ${TOKENS} tokens per call`,
    ...figures.map(
      (f) =>
        `  ${(f.isolated ? 'isolated page' : 'page without COOP/COEP').padEnd(24)}${String(f.threads).padStart(2)} thread(s)   load ${f.loadMs} ms   ${f.generateMs} ms   ${f.tokensPerSecond.toFixed(1)} tokens/s`,
    ),
    '',
  ].join('\n');
}
