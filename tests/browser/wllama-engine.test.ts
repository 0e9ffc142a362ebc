// The CPU backend (wllama: llama.cpp in wasm) with a real engine in Debian's Chromium: the test
// suite generates a tiny GGUF and serves it from 127.0.0.1 like a model host. Covers the setup
// screen (URL confirmed before download, progress, cache, delete, cancel, local file, refusals),
// streaming, seed, abort and context errors through the engine, threads on the app's cross-origin
// isolated pages and one thread without isolation. Figures (load time, tokens/s) are printed for the report.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTinyGguf } from '../fixtures/gguf/make-tiny-gguf.ts';
import { serveGguf, type GgufHost } from '../fixtures/gguf/serve-gguf.ts';
import { serveWithoutIsolation, startRig, type BrowserRig } from './harness.ts';
import type { TimedChat } from './pages/wllama.ts';
import { shownPattern, shownText } from './page-text.ts';

const PAGE = '/tests/browser/pages/wllama.html';
const NAME = 'spade-tiny.gguf';

let rig: BrowserRig;
let page: Page;
let host: GgufHost;
let gguf: Uint8Array;
const pageRequests: string[] = [];

const state = () => page.evaluate(() => window.wllamaTest.state());
const chat = (options: Parameters<Window['wllamaTest']['chat']>[0]): Promise<TimedChat> =>
  page.evaluate((o) => window.wllamaTest.chat(o), options);
const gets = () => host.requests.filter((r) => r.startsWith('GET')).length;

async function openPage(): Promise<Page> {
  const opened = await rig.open(PAGE);
  await opened.waitForFunction(() => Boolean(window.wllamaTest), null, { timeout: 60_000 });
  return opened;
}

async function loadThroughUi(url: string): Promise<number> {
  await page.getByTestId('cpu-url').fill(url);
  await page.getByRole('button', { name: 'Use this URL' }).click();
  const started = Date.now();
  await page.getByTestId('cpu-confirm').getByRole('button').click();
  await page.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
  return Date.now() - started;
}

beforeAll(async () => {
  gguf = makeTinyGguf();
  host = await serveGguf({ [NAME]: gguf, 'notes.gguf': new TextEncoder().encode('not a model') });
  rig = await startRig();
  page = await openPage();
  page.context().on('request', (request) => void pageRequests.push(request.url()));
});
afterAll(async () => {
  await rig?.close();
  await host?.close();
});

describe('choosing a model', () => {
  it('runs threaded on the cross-origin isolated pages of the app, and shows labelled speed estimates', async () => {
    const view = await state();
    expect(view.environment.crossOriginIsolated).toBe(true);
    expect(view.environment.threads).toBeGreaterThanOrEqual(2);
    await expect(shownText(page.getByTestId('cpu-threads'))).resolves.toMatch(
      new RegExp(`cross-origin isolated: ${view.environment.threads} threads of`),
    );
    const first = page.getByTestId('cpu-choice-qwen3-0.6b-q4_k_m');
    await expect(shownText(first)).resolves.toMatch(/Qwen3 0\.6B.*Estimate: .*tokens\/s.*not a measurement/s);
    expect(view.choices.map((c) => c.model.id)).toEqual(['qwen3-0.6b-q4_k_m', 'qwen3-1.7b-q4_k_m']);
  });

  it('fetches nothing until the user confirms the URL', async () => {
    await page.getByTestId('cpu-choice-qwen3-0.6b-q4_k_m').getByRole('radio').check();
    await expect(shownText(page.getByTestId('cpu-confirm'))).resolves.toMatch(
      /Download Qwen3-0\.6B-Q4_K_M\.gguf \(about 397 MB\) from https:\/\/huggingface\.co\//,
    );
    expect((await state()).phase).toBe('confirming');
  });

  it('refuses a URL that is not a .gguf file with the next step', async () => {
    await page.getByTestId('cpu-url').fill('https://example.com/model.bin');
    await page.getByRole('button', { name: 'Use this URL' }).click();
    await expect(shownText(page.getByTestId('cpu-error'))).resolves.toMatch(
      /not an http\(s\) URL of a \.gguf file.*Next step/s,
    );
  });

  it('reports a download that fails (HTTP 404) clearly', async () => {
    await page.getByTestId('cpu-url').fill(`${host.origin}/missing/${NAME}`);
    await page.getByRole('button', { name: 'Use this URL' }).click();
    await page.getByTestId('cpu-confirm').getByRole('button').click();
    await expect(shownText(page.getByTestId('cpu-error'))).resolves.toMatch(/Could not download .*404.*cross-origin/s);
  });
});

describe('the generated model through the real engine', () => {
  it('downloads with progress, loads, and lists the file as cached', async () => {
    const before = gets();
    const ms = await loadThroughUi(`${host.origin}/models/${NAME}`);
    const view = await state();
    console.log(`[wllama] GGUF ${gguf.length} bytes; download + load through the UI: ${ms} ms`);
    expect(gets()).toBe(before + 1);
    expect(view.loaded).toMatchObject({
      id: `wllama:${NAME}`,
      bytes: gguf.length,
      info: {
        name: 'SPADE tiny test model',
        threads: view.environment.threads,
        multithread: true,
        hasChatTemplate: true,
        contextTokens: 8192,
      },
    });
    expect(view.cached).toEqual([expect.objectContaining({ name: NAME, bytes: gguf.length, complete: true })]);
    await expect(shownText(page.getByTestId('cpu-cache'))).resolves.toMatch(
      /spade-tiny\.gguf.*complete \(loads offline\)/s,
    );
  });

  it('streams tokens as they are generated; the reply is their concatenation', async () => {
    const call = await chat({ maxTokens: 24 });
    const { result } = call;
    console.log(
      `[wllama] 24-token reply in ${call.totalMs} ms (first piece after ${call.firstPieceMs} ms): ${JSON.stringify(result?.text)}`,
    );
    expect(call.error).toBeNull();
    expect(result).toMatchObject({ finishReason: 'length', usage: { completionTokens: 24 } });
    expect(result!.usage.promptTokens).toBeGreaterThan(20);
    expect(call.pieces.length).toBeGreaterThanOrEqual(12);
    expect(call.pieces.join('')).toBe(result!.text);
    expect(result!.text).not.toMatch(/\uFFFD/);
    await expect(shownText(page.getByTestId('cpu-measured'))).resolves.toMatch(
      /Measured on the last call: [\d.]+ tokens\/s generating \(24 tokens\)/,
    );
  });

  it('reports the loaded n_ctx as its window and counts prompt tokens as the engine reads the rendered chat template', async () => {
    const view = await state();
    await expect(page.evaluate(() => window.wllamaTest.contextWindow())).resolves.toBe(view.loaded!.info.contextTokens);
    await expect(shownText(page.getByTestId('cpu-window'))).resolves.toMatch(
      /is loaded with a context window of 8,192 tokens \(trained for [\d,]+\)/,
    );
    const messages = (extra: string) => [
      { role: 'system' as const, content: 'You count.' },
      { role: 'user' as const, content: `Tell me the words${extra}` },
    ];
    const counts = await page.evaluate(
      (m) => Promise.all([window.wllamaTest.count(m[0]), window.wllamaTest.count(m[1])]),
      [messages(''), messages('abcdefghij')],
    );
    console.log(`[wllama] prompt counts ${counts.map((c) => `${c.tokens} in ${c.ms} ms`).join(', ')}`);
    expect(counts.map((c) => c.error)).toEqual([null, null]);
    // The generated model's vocabulary has one token per printable character, so ten more letters are ten more tokens.
    expect(counts[1]!.tokens! - counts[0]!.tokens!).toBe(10);
    const read = await chat({ messages: messages('abcdefghij'), maxTokens: 4 });
    expect(read.result!.usage.promptTokens).toBe(counts[1]!.tokens);
    const again = await page.evaluate((m) => window.wllamaTest.count(m), messages('abcdefghij'));
    expect(again.tokens).toBe(counts[1]!.tokens);
    const fresh = await chat({ messages: messages(' and more'), maxTokens: 4 });
    expect(fresh.result!.usage.promptTokens).toBe(
      (await page.evaluate((m) => window.wllamaTest.count(m), messages(' and more'))).tokens,
    );
  });

  it('counts a prompt longer than the loaded window as more than the window, and stays usable', async () => {
    const over = await page.evaluate(() => window.wllamaTest.count([{ role: 'user', content: 'ab '.repeat(6000) }]));
    expect(over.error).toBeNull();
    expect(over.tokens!).toBeGreaterThan(8192);
    expect((await chat({ maxTokens: 4 })).result!.finishReason).toBe('length');
  });

  it('gives the same reply for the same seed', async () => {
    const a = await chat({ maxTokens: 32, seed: 11, temperature: 1 });
    const b = await chat({ maxTokens: 32, seed: 11, temperature: 1 });
    expect(a.result!.text).toBe(b.result!.text);
    const others = await Promise.all([12, 13, 14].map((seed) => chat({ maxTokens: 32, seed, temperature: 1 })));
    expect(others.map((c) => c.result!.text)).not.toEqual([a, a, a].map((c) => c.result!.text));
  });

  it('an abort mid-stream resolves at once with the text so far, and the engine stays usable', async () => {
    const call = await chat({ maxTokens: 4000, abortAfterPieces: 5 });
    expect(call.error).toBeNull();
    expect(call.result!.finishReason).toBe('abort');
    expect(call.result!.text).toBe(call.pieces.join(''));
    expect(call.pieces.length).toBe(5);
    expect(call.abortToSettleMs!).toBeLessThan(1000);
    const after = await chat({ maxTokens: 8 });
    expect(after.result).toMatchObject({ finishReason: 'length', usage: { completionTokens: 8 } });
  });

  it('an abort before the call returns an empty aborted result', async () => {
    const call = await chat({ abortBeforeStart: true });
    expect(call.result).toMatchObject({ text: '', finishReason: 'abort' });
  });

  it('a prompt longer than the loaded context fails with context_length and says what to change', async () => {
    const call = await chat({ messages: [{ role: 'user', content: 'ab '.repeat(6000) }] });
    expect(call.error).toMatchObject({ name: 'ChatModelError', code: 'context_length' });
    expect(call.error!.message).toMatch(
      /context of 8192 tokens.*exceeds the available context size.*Shorten the messages, lower maxTokens, or reload the model with a larger context/s,
    );
    expect((await chat({ maxTokens: 4 })).result!.finishReason).toBe('length');
  });

  it('loads the cached model again without any request', async () => {
    await page.evaluate(() => window.wllamaTest.unload());
    const before = host.requests.length;
    const ms = await loadThroughUi(`${host.origin}/models/${NAME}`);
    console.log(`[wllama] load from the browser cache: ${ms} ms`);
    expect(host.requests.length).toBe(before);
  });

  it('deletes the cached model from the cache list (the loaded one only after unloading)', async () => {
    await expect(page.getByRole('button', { name: `Delete ${NAME} from this browser` }).isDisabled()).resolves.toBe(
      true,
    );
    await page.getByTestId('cpu-ready').getByRole('button', { name: 'Unload' }).click();
    await page.getByRole('button', { name: `Delete ${NAME} from this browser` }).click();
    await page.getByTestId('cpu-cache').getByText('No GGUF model is stored in this browser.').waitFor();
    expect((await state()).cached).toEqual([]);
  });

  it('cancels a stalled download at once and deletes the partial file', async () => {
    await page.getByTestId('cpu-url').fill(`${host.origin}/stall/${NAME}`);
    await page.getByRole('button', { name: 'Use this URL' }).click();
    await page.getByTestId('cpu-confirm').getByRole('button').click();
    await page
      .getByTestId('cpu-progress')
      .getByText(shownPattern(/Downloading: [\d.]+ kB of 488\.8 kB/))
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('cpu-progress').getByRole('button', { name: 'Cancel' }).click();
    await page.getByTestId('cpu-status').getByText(`Cancelled loading ${NAME}.`).waitFor();
    await page.waitForFunction(() => window.wllamaTest.state().cached.length === 0, null, { timeout: 10_000 });
    expect((await state()).phase).toBe('choosing');
  });

  it('loads a .gguf file picked from disk without any request', async () => {
    const before = host.requests.length;
    await page
      .getByTestId('cpu-file')
      .setInputFiles({ name: 'picked.gguf', mimeType: 'application/octet-stream', buffer: Buffer.from(gguf) });
    await page.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
    expect((await state()).loaded).toMatchObject({ id: 'wllama:picked.gguf', url: null, bytes: gguf.length });
    expect((await chat({ maxTokens: 6 })).result!.usage.completionTokens).toBe(6);
    expect(host.requests.length).toBe(before);
  });

  it('refuses a picked file that is not GGUF before starting the engine', async () => {
    await page
      .getByTestId('cpu-file')
      .setInputFiles({ name: 'notes.gguf', mimeType: 'text/plain', buffer: Buffer.from('just some notes') });
    await expect(shownText(page.getByTestId('cpu-error'))).resolves.toMatch(
      /notes\.gguf: this is not a GGUF file \(it starts with "just", expected "GGUF"\)/,
    );
    expect((await state()).phase).toBe('failed');
  });
});

describe('the network', () => {
  it('fetched everything from the app and the model host only (the wasm is served by the app, never a CDN)', () => {
    const outside = pageRequests.filter(
      (url) => !url.startsWith(rig.baseUrl) && !url.startsWith(host.origin) && !/^(blob|data):/.test(url),
    );
    expect(outside).toEqual([]);
    expect([...new Set(pageRequests.filter((url) => url.endsWith('.wasm')))]).toEqual([
      `${rig.baseUrl}/node_modules/@wllama/wllama/esm/wasm/wllama.wasm`,
    ]);
  });
});

describe('a page that is not cross-origin isolated', () => {
  // Served without the COOP and COEP headers (as a static host that drops them would), the page
  // has no SharedArrayBuffer. The model is handed over as a picked file: Chromium's local network
  // access checks block a page whose document was served through a test route from fetching a
  // loopback server.
  it('runs the engine on one thread and says why', async () => {
    const context = await rig.browser.newContext();
    await serveWithoutIsolation(context, PAGE);
    const plain = await context.newPage();
    try {
      await plain.goto(rig.baseUrl + PAGE);
      await plain.waitForFunction(() => Boolean(window.wllamaTest), null, { timeout: 60_000 });
      await expect(shownText(plain.getByTestId('cpu-threads'))).resolves.toMatch(
        /One thread: this page is not cross-origin isolated/,
      );
      const started = Date.now();
      await plain
        .getByTestId('cpu-file')
        .setInputFiles({ name: NAME, mimeType: 'application/octet-stream', buffer: Buffer.from(gguf) });
      await plain.getByTestId('cpu-ready').waitFor({ timeout: 60_000 });
      const loadMs = Date.now() - started;
      const view = await plain.evaluate(() => window.wllamaTest.state());
      expect(view.environment).toMatchObject({ crossOriginIsolated: false, threads: 1 });
      expect(view.loaded!.info).toMatchObject({ threads: 1, multithread: false });
      const call = await plain.evaluate(() => window.wllamaTest.chat({ maxTokens: 24 }));
      console.log(`[wllama] page without isolation: 1 thread, load ${loadMs} ms, 24 tokens in ${call.totalMs} ms`);
      expect(call.result).toMatchObject({ finishReason: 'length', usage: { completionTokens: 24 } });
    } finally {
      await context.close();
    }
  });
});

describe('a browser without JSPI (the path Safari takes)', () => {
  // Chromium has JSPI; removing WebAssembly.Suspending before the page runs makes wllama choose its
  // compatibility build (Asyncify, 32-bit memory), as it does in Safari.
  it('runs the compatibility build, served by the app', async () => {
    const context = await rig.browser.newContext();
    await context.addInitScript(() => delete (WebAssembly as { Suspending?: unknown }).Suspending);
    const requests: string[] = [];
    context.on('request', (request) => void requests.push(request.url()));
    const compat = await context.newPage();
    try {
      await compat.goto(rig.baseUrl + PAGE);
      await compat.waitForFunction(() => Boolean(window.wllamaTest), null, { timeout: 60_000 });
      const started = Date.now();
      await compat
        .getByTestId('cpu-file')
        .setInputFiles({ name: NAME, mimeType: 'application/octet-stream', buffer: Buffer.from(gguf) });
      await compat.getByTestId('cpu-ready').waitFor({ timeout: 120_000 });
      const loadMs = Date.now() - started;
      const call = await compat.evaluate(() => window.wllamaTest.chat({ maxTokens: 24 }));
      console.log(`[wllama] compatibility build: load ${loadMs} ms, 24 tokens in ${call.totalMs} ms`);
      expect(call.result).toMatchObject({ finishReason: 'length', usage: { completionTokens: 24 } });
      expect([...new Set(requests.filter((url) => url.endsWith('.wasm')))]).toEqual([
        `${rig.baseUrl}/node_modules/@wllama/wllama-compat/wasm/wllama.wasm`,
      ]);
      expect(requests.filter((url) => !url.startsWith(rig.baseUrl) && !/^(blob|data):/.test(url))).toEqual([]);
    } finally {
      await context.close();
    }
  });
});
