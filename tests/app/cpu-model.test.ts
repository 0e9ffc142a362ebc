import { describe, expect, it } from 'vitest';
import type { CachedGguf, GgufCache } from '../../src/adapters/llm/wllama/wllama-cache.ts';
import { RECOMMENDED_GGUF_MODELS } from '../../src/adapters/llm/wllama/wllama-catalog.ts';
import { CpuModelController, type CpuModelEvent } from '../../src/app/models/cpu-model.svelte.ts';
import { makeTinyGguf } from '../fixtures/gguf/make-tiny-gguf.ts';
import { FakeWllama } from '../adapters/llm/wllama/wllama-fakes.ts';

const URL_06B = RECOMMENDED_GGUF_MODELS[0]!.url;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

/** A cache whose downloads wait for `release` (or fail with `fail`) and report progress first. */
class FakeCache implements GgufCache {
  entries: CachedGguf[] = [];
  fetched: string[] = [];
  signals: AbortSignal[] = [];
  gate: Promise<void> = Promise.resolve();
  fail: Error | null = null;

  async list() {
    return [...this.entries];
  }
  async fetch(
    url: string,
    { signal, onProgress }: { signal?: AbortSignal; onProgress?: (p: { loaded: number; total: number }) => void },
  ) {
    this.fetched.push(url);
    if (signal) this.signals.push(signal);
    onProgress?.({ loaded: 100, total: 1000 });
    await Promise.race([
      this.gate,
      new Promise((_, reject) => signal?.addEventListener('abort', () => reject(new Error('aborted')))),
    ]);
    if (this.fail) throw this.fail;
    this.entries.push({ key: url, url, name: url.split('/').pop()!, bytes: 1000, complete: true });
    return [new Blob([new Uint8Array(1000)])];
  }
  async remove(key: string) {
    this.entries = this.entries.filter((e) => e.key !== key);
  }
}

function setup(environment = { crossOriginIsolated: false, hardwareConcurrency: 8, threads: 1 }) {
  const engines: FakeWllama[] = [];
  const cache = new FakeCache();
  const next: { loadGate?: Promise<void>; loadError?: Error } = {};
  const createEngine = async () => {
    const engine = new FakeWllama([{ deltas: ['hi'] }]);
    if (next.loadGate) engine.loadGate = next.loadGate;
    if (next.loadError) engine.loadError = next.loadError;
    engines.push(engine);
    return engine;
  };
  const controller = new CpuModelController({ environment, cache, createEngine });
  const events: CpuModelEvent[] = [];
  controller.onModelEvent((e) => events.push(e));
  return { controller, cache, engines, events, next };
}

describe('CpuModelController: choosing', () => {
  it('lists the recommended models with their cache state and a labelled estimate for the threads it will use', async () => {
    const { controller, cache } = setup({ crossOriginIsolated: true, hardwareConcurrency: 8, threads: 4 });
    cache.entries = [{ key: URL_06B, url: URL_06B, name: 'Qwen3-0.6B-Q4_K_M.gguf', bytes: 397e6, complete: true }];
    await controller.refreshCache();
    const [small, large] = controller.state.choices;
    expect(small).toMatchObject({
      model: { id: 'qwen3-0.6b-q4_k_m' },
      cached: { complete: true },
      estimate: { threads: 4 },
    });
    expect(large!.cached).toBeNull();
    expect(small!.estimate.basis).toMatch(/not a measurement/);
  });

  it('fetches nothing until the proposed URL is confirmed, and refuses what is not a .gguf URL', () => {
    const { controller, cache } = setup();
    expect(controller.propose('ftp://host/model.gguf')).toBe(false);
    expect(controller.state.error).toMatchObject({ code: 'bad_url' });
    expect(controller.propose(URL_06B)).toBe(true);
    expect(controller.state).toMatchObject({
      phase: 'confirming',
      error: null,
      pending: { url: URL_06B, fileName: 'Qwen3-0.6B-Q4_K_M.gguf', choice: { paramsB: 0.6 } },
    });
    expect(cache.fetched).toEqual([]);
  });
});

describe('CpuModelController: loading', () => {
  it('downloads with progress, loads on the CPU with the chosen context and threads, and serves a chat model', async () => {
    const { controller, cache, engines, events, next } = setup({
      crossOriginIsolated: true,
      hardwareConcurrency: 4,
      threads: 2,
    });
    const [download, engineLoad] = [deferred(), deferred()];
    cache.gate = download.promise;
    next.loadGate = engineLoad.promise;
    controller.setContextTokens(4096);
    const phases = [controller.state.phase];
    expect(controller.propose(URL_06B)).toBe(true);
    phases.push(controller.state.phase);
    const loading = controller.confirm();
    await new Promise((r) => setTimeout(r, 5));
    phases.push(controller.state.phase);
    expect(controller.state.progress).toEqual({ stage: 'download', loaded: 100, total: 1000 });
    download.resolve();
    while (engines.length === 0) await new Promise((r) => setTimeout(r, 1));
    phases.push(controller.state.phase);
    engineLoad.resolve();
    expect(await loading).toBe(true);
    phases.push(controller.state.phase);
    expect(phases).toEqual(['choosing', 'confirming', 'downloading', 'loading', 'ready']);
    expect(engines[0]!.loadParams).toMatchObject({
      n_ctx: 4096,
      n_threads: 2,
      n_gpu_layers: 0,
      n_batch: 256,
      reasoning_format: 'none',
    });
    expect(controller.state.loaded).toMatchObject({
      id: 'wllama:Qwen3-0.6B-Q4_K_M.gguf',
      url: URL_06B,
      bytes: 1000,
      estimate: null,
      info: { contextTokens: 4096, threads: 2, multithread: true, hasChatTemplate: true },
    });
    expect(events).toEqual([{ type: 'loaded', modelId: 'wllama:Qwen3-0.6B-Q4_K_M.gguf' }]);
    expect(controller.state.cached).toEqual([expect.objectContaining({ url: URL_06B, complete: true })]);
    const model = controller.chatModel()!;
    await model.complete({
      messages: [{ role: 'user', content: 'x' }],
      temperature: 0.6,
      topP: 0.95,
      maxTokens: 8,
      seed: 1,
      purpose: 'agent',
    });
    expect(controller.state.measured).toMatchObject({ completionTokens: 1, completionTokensPerSecond: 40 });
  });

  it('cancels a download at once: the download is aborted and no engine starts', async () => {
    const { controller, cache, engines } = setup();
    cache.gate = new Promise(() => undefined);
    const loading = controller.loadUrl(URL_06B);
    await new Promise((r) => setTimeout(r, 5));
    controller.cancel();
    await expect(loading).resolves.toBe(false);
    expect(cache.signals[0]!.aborted).toBe(true);
    expect(controller.state).toMatchObject({
      phase: 'choosing',
      notice: 'Cancelled loading Qwen3-0.6B-Q4_K_M.gguf.',
      loaded: null,
    });
    expect(engines).toEqual([]);
  });

  it('cancels during the engine load at once and stops that engine once its load settles', async () => {
    const { controller, engines, next } = setup();
    const gate = deferred();
    next.loadGate = gate.promise;
    const loading = controller.loadFile(new File([makeTinyGguf()], 'tiny.gguf'));
    while (engines.length === 0) await new Promise((r) => setTimeout(r, 1));
    controller.cancel();
    await expect(loading).resolves.toBe(false);
    expect(controller.chatModel()).toBeNull();
    gate.resolve();
    await new Promise((r) => setTimeout(r, 5));
    expect(engines[0]!.exited).toBe(1);
  });

  it('reports a failed download and a failed load with codes and next steps', async () => {
    const { controller, cache, engines, next } = setup();
    cache.fail = new Error('Failed to fetch');
    expect(await controller.loadUrl(URL_06B)).toBe(false);
    expect(controller.state).toMatchObject({
      phase: 'failed',
      error: { code: 'download_failed', message: `Could not download ${URL_06B} (Failed to fetch).` },
    });
    cache.fail = null;
    next.loadError = new Error('unknown model architecture: "mamba9"');
    expect(await controller.confirm()).toBe(false);
    expect(controller.state.error).toMatchObject({
      code: 'load_failed',
      message: 'The CPU engine could not load Qwen3-0.6B-Q4_K_M.gguf (unknown model architecture: "mamba9").',
    });
    await new Promise((r) => setTimeout(r, 5));
    expect(engines[0]!.exited).toBe(1);
  });

  it('loads a picked GGUF file without the cache, and refuses a file that is not GGUF before starting an engine', async () => {
    const { controller, cache, engines } = setup();
    expect(await controller.loadFile(new File([new TextEncoder().encode('hello')], 'notes.gguf'))).toBe(false);
    expect(controller.state.error).toMatchObject({
      code: 'not_gguf',
      message: expect.stringMatching(/^notes\.gguf: this is not a GGUF file/),
    });
    expect(engines).toEqual([]);
    expect(await controller.loadFile(new File([makeTinyGguf()], 'tiny.gguf'))).toBe(true);
    expect(controller.state.loaded).toMatchObject({ id: 'wllama:tiny.gguf', url: null, bytes: 488_800 });
    expect(cache.fetched).toEqual([]);
  });
});

describe('CpuModelController: unloading and the cache', () => {
  it('unloads (stopping the engine) before another load, and keeps the loaded model from being deleted', async () => {
    const { controller, cache, engines, events } = setup();
    await controller.loadUrl(URL_06B);
    await controller.deleteCached(URL_06B);
    expect(cache.entries).toHaveLength(1);
    await controller.loadFile(new File([makeTinyGguf()], 'tiny.gguf'));
    expect(engines[0]!.exited).toBe(1);
    expect(events.map((e) => e.type)).toEqual(['loaded', 'unloaded', 'loaded']);
    await controller.deleteCached(URL_06B);
    expect(controller.state).toMatchObject({
      cached: [],
      notice: "Deleted Qwen3-0.6B-Q4_K_M.gguf from this browser's storage.",
    });
    await controller.unload();
    expect(controller.chatModel()).toBeNull();
    expect(engines[1]!.exited).toBe(1);
  });
});
