// The real web-llm worker against self-hosted model files served by this test (no weights exist
// here, so the servers stall, answer 404 or serve files that are not a model): cancel during a
// stuck download, the failure messages, files reused from the cache on the next load, an aborted
// chat call while the worker is busy, and the model cache (list with sizes, partial downloads,
// delete, persistence) over web-llm's own hasModelInCache / deleteModelAllInfoInCache.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRig, type BrowserRig } from './harness.ts';
import { shownText } from './page-text.ts';

const PAGE = '/tests/browser/pages/webllm.html';

let rig: BrowserRig;
let page: Page;
let files: Server;
let origin = '';
const hits: string[] = [];

function model(folder: string) {
  return {
    modelUrl: `${origin}/${folder}/Qwen3-0.6B-q4f32_1-MLC/`,
    modelLibUrl: `${origin}/${folder}/Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm`,
  };
}

beforeAll(async () => {
  files = createServer((request, response) => {
    const url = request.url ?? '';
    hits.push(url);
    response.setHeader('Access-Control-Allow-Origin', '*');
    if (url.startsWith('/stall/')) return;
    if (url === '/junk/Qwen3-0.6B-q4f32_1-MLC/resolve/main/mlc-chat-config.json') return void response.end('{}');
    if (url === '/junk/Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm')
      return void response.end('this is not a WebAssembly module');
    response.statusCode = 404;
    response.end('not found');
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;
  rig = await startRig(['--enable-unsafe-webgpu']);
  page = await rig.open(PAGE);
  await page.waitForFunction(() => Boolean(window.webllmTest), null, { timeout: 60_000 });
  await page.getByTestId('model-worker').getByText('ready').waitFor({ timeout: 60_000 });
});
afterAll(async () => {
  await rig?.close();
  files?.closeAllConnections();
  await new Promise((resolve) => files?.close(resolve));
});

describe('loading self-hosted files', () => {
  it('cancels a load stuck on a server that never answers, at once', async () => {
    const config = '/stall/Qwen3-0.6B-q4f32_1-MLC/resolve/main/mlc-chat-config.json';
    const pending = page.evaluate((input) => window.webllmTest.loadCustom(input), model('stall'));
    await expect.poll(() => hits.includes(config), { timeout: 30_000, interval: 20 }).toBe(true);
    await page.evaluate(() => window.webllmTest.cancelPending());
    const load = await pending;
    expect(load.ok).toBe(false);
    expect(load.error).toEqual({
      code: 'cancelled',
      message: 'Loading was cancelled.',
      nextStep: 'Load again when you are ready: shards already downloaded stay cached.',
    });
    expect(load.cancelToSettleMs).toBeLessThan(100);
    console.info(
      `cancel during a stalled download: settled ${load.cancelToSettleMs} ms after cancel (load ran ${load.ms} ms)`,
    );
  });

  it('names the server and both URLs when it answers 404', async () => {
    const load = await page.evaluate((input) => window.webllmTest.loadCustom(input), model('missing'));
    expect(load.error!.code).toBe('not_found');
    expect(load.error!.message).toContain(
      `The server 127.0.0.1:${new URL(origin).port} answered with an error for a file of custom:Qwen3-0.6B-q4f32_1-MLC`,
    );
    expect(load.error!.message).toContain(`${origin}/missing/Qwen3-0.6B-q4f32_1-MLC/resolve/main/`);
    expect(load.error!.nextStep).toMatch(/appends resolve\/main\//);
    expect(load.ms).toBeLessThan(5_000);
  });

  it('rejects a library that is not WebAssembly, and the next load reads config and library from the cache', async () => {
    const first = await page.evaluate((input) => window.webllmTest.loadCustom(input), model('junk'));
    expect(first.error!.code).toBe('bad_model');
    expect(first.error!.message).toMatch(/CompileError/);
    const fetched = hits.filter((url) => url.startsWith('/junk/')).length;
    expect(fetched).toBe(2);
    const second = await page.evaluate((input) => window.webllmTest.loadCustom(input), model('junk'));
    expect(second.error!.code).toBe('bad_model');
    expect(hits.filter((url) => url.startsWith('/junk/')).length).toBe(fetched);
  });
});

describe('chat calls through the worker', () => {
  it('an abort while the worker engine is busy resolves at once with finishReason abort', async () => {
    const busy = '/stall/chat/Qwen3-0.6B-q4f32_1-MLC/resolve/main/mlc-chat-config.json';
    const pending = page.evaluate((input) => window.webllmTest.chatThroughWorker(input), model('stall/chat'));
    await expect.poll(() => hits.includes(busy), { timeout: 30_000, interval: 20 }).toBe(true);
    await page.evaluate(() => window.webllmTest.abortChat());
    const call = await pending;
    expect(call.error).toBeNull();
    expect(call.result).toEqual({ text: '', usage: { promptTokens: 5, completionTokens: 0 }, finishReason: 'abort' });
    expect(call.abortToSettleMs).toBeLessThan(100);
  });

  it("a call whose model cannot be fetched fails with a ChatModelError carrying web-llm's reason", async () => {
    const call = await page.evaluate((input) => window.webllmTest.chatThroughWorker(input), model('missing'));
    expect(call.result).toBeNull();
    expect(call.error).toMatch(
      /^bad_response: web-llm failed on webllm:custom:Qwen3-0\.6B-q4f32_1-MLC: .*Request failed/,
    );
  });
});

describe('the model cache', () => {
  const seeded = () => ({
    modelUrl: `${origin}/seeded/Qwen3-0.6B-q4f32_1-MLC/`,
    modelLibUrl: `${origin}/seeded/Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm`,
  });
  const base = () => `${seeded().modelUrl}resolve/main/`;
  const tensorCache = JSON.stringify({
    records: [
      { dataPath: 'params_shard_0.bin', nbytes: 1000, records: [] },
      { dataPath: 'params_shard_1.bin', nbytes: 2000, records: [] },
    ],
  });

  it('lists a completely cached model with its size, shows storage use, and deletes it', async () => {
    await page.evaluate(
      async ({ base, lib, tensorCache }) => {
        await window.webllmTest.seedCache('webllm/model', {
          [`${base}tensor-cache.json`]: tensorCache,
          [`${base}params_shard_0.bin`]: 'a'.repeat(1000),
          [`${base}params_shard_1.bin`]: 'b'.repeat(2000),
          [`${base}tokenizer.json`]: '{}',
        });
        await window.webllmTest.seedCache('webllm/config', { [`${base}mlc-chat-config.json`]: '{}' });
        await window.webllmTest.seedCache('webllm/wasm', { [lib]: 'w'.repeat(500) });
      },
      { base: base(), lib: seeded().modelLibUrl, tensorCache },
    );
    const id = await page.evaluate((input) => window.webllmTest.controller.addCustom(input), seeded());
    expect(id).toBe('custom:Qwen3-0.6B-q4f32_1-MLC');
    await page.evaluate(() => window.webllmTest.controller.refreshStorage());
    const state = await page.evaluate(() => window.webllmTest.controller.state);
    expect(state.cached).toEqual([
      { id, complete: true, bytes: tensorCache.length + 1000 + 2000 + 2 + 2 + 500, files: 6 },
    ]);
    expect(state.storage!.usageBytes).toBeGreaterThan(0);
    expect(state.storage!.quotaBytes).toBeGreaterThan(state.storage!.usageBytes!);
    const cache = page.getByTestId('model-cache');
    expect(await shownText(cache)).toContain(`${id}: 3.6 KB in 6 files, complete (loads offline)`);
    await cache.getByRole('button', { name: `Delete ${id} from the cache` }).click();
    await page.waitForFunction(() => window.webllmTest.controller.state.cached.length === 0);
    const left = await page.evaluate(async () =>
      (
        await Promise.all(
          ['webllm/model', 'webllm/config', 'webllm/wasm'].map(async (name) =>
            (await (await caches.open(name)).keys()).map((r) => r.url),
          ),
        )
      ).flat(),
    );
    expect(left.filter((url) => url.includes('/seeded/'))).toEqual([]);
  });

  it('shows a partial download as partial', async () => {
    await page.evaluate(
      async ({ base, tensorCache }) =>
        window.webllmTest.seedCache('webllm/model', {
          [`${base}tensor-cache.json`]: tensorCache,
          [`${base}params_shard_0.bin`]: 'a'.repeat(1000),
        }),
      {
        base: base(),
        tensorCache,
      },
    );
    await page.evaluate(() => window.webllmTest.controller.refreshStorage());
    const cached = await page.evaluate(() => window.webllmTest.controller.state.cached);
    expect(cached).toEqual([
      { id: 'custom:Qwen3-0.6B-q4f32_1-MLC', complete: false, bytes: tensorCache.length + 1000, files: 2 },
    ]);
    expect(await shownText(page.getByTestId('model-cache'))).toContain('partial download (loading resumes it)');
  });

  it('asks for persistent storage and shows the answer', async () => {
    const granted = await page.evaluate(() => window.webllmTest.controller.persistStorage());
    expect(typeof granted).toBe('boolean');
    expect(await page.evaluate(() => window.webllmTest.controller.state.storage!.persisted)).toBe(granted);
  });
});
