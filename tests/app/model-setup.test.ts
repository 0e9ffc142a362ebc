import { describe, expect, it } from 'vitest';
import { prebuiltModels, type CatalogModel } from '../../src/adapters/llm/webllm/model-catalog.ts';
import type { CachedModel, RememberedModel } from '../../src/adapters/llm/webllm/webllm-cache.ts';
import { WebLlmSession } from '../../src/adapters/llm/webllm/webllm-session.ts';
import { ModelSetupController, type ModelSetupDeps } from '../../src/app/models/model-setup.svelte.ts';
import type { ModelEvent } from '../../src/app/models/model-setup-state.ts';
import type { GpuCapabilities } from '../../src/adapters/llm/webllm/model-choice.ts';
import { deferred, fakeSessionDeps, FakeEngine } from '../adapters/llm/webllm/webllm-fakes.ts';

const SWIFTSHADER: GpuCapabilities = {
  webgpu: true,
  adapter: {
    isFallback: true,
    vendor: 'google',
    architecture: 'swiftshader',
    description: '',
    shaderF16: false,
    maxBufferSize: 2 ** 30,
    maxStorageBufferBindingSize: 2 ** 30,
    maxComputeWorkgroupStorageSize: 32768,
    maxStorageBuffersPerShaderStage: 10,
  },
  adapterError: null,
  deviceMemoryGB: 16,
};
const NVIDIA: GpuCapabilities = {
  ...SWIFTSHADER,
  adapter: { ...SWIFTSHADER.adapter!, isFallback: false, vendor: 'nvidia', architecture: 'ampere', shaderF16: true },
};

function setup(
  options: {
    caps?: GpuCapabilities;
    remembered?: RememberedModel | null;
    cached?: CachedModel[];
    engine?: (index: number) => FakeEngine;
  } = {},
) {
  const fakes = fakeSessionDeps(options.engine);
  const session = new WebLlmSession(fakes.deps);
  let remembered = options.remembered ?? null;
  let cached = options.cached ?? [];
  const deleted: string[] = [];
  const cache: ModelSetupDeps['cache'] = {
    listCachedModels: async (models: readonly CatalogModel[]) =>
      cached.filter((c) => models.some((m) => m.spec.id === c.id)),
    deleteCachedModel: async (model: CatalogModel) => {
      deleted.push(model.spec.id);
      cached = cached.filter((c) => c.id !== model.spec.id);
    },
    storageFacts: async () => ({ usageBytes: 1000, quotaBytes: 10_000, persisted: false }),
    requestPersistentStorage: async () => true,
    rememberModel: (model) => void (remembered = model),
    rememberedModel: () => remembered,
  };
  const controller = new ModelSetupController({
    detect: async () => options.caps ?? SWIFTSHADER,
    catalog: prebuiltModels,
    session,
    cache,
    baseUrl: () => 'https://app.example/',
  });
  const events: ModelEvent[] = [];
  controller.onModelEvent((event) => events.push(event));
  return { ...fakes, controller, events, deleted, remembered: () => remembered };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('ModelSetupController: start', () => {
  it('detects, recommends, selects the recommendation, reads storage and starts the worker engine', async () => {
    const { controller } = setup();
    await controller.start();
    await settle();
    const state = controller.state;
    expect(state.phase).toBe('choosing');
    expect(state.recommendation!.recommendedId).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(state.selectedId).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(state.options.find((o) => o.recommended)!.spec.id).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(state.storage).toEqual({ usageBytes: 1000, quotaBytes: 10_000, persisted: false });
    expect(state.worker).toMatchObject({
      status: 'ready',
      probe: { vendor: 'fake', maxStorageBufferBindingSize: 2 ** 30 },
    });
    await controller.start();
  });

  it('preselects the remembered model and offers to resume it when it is completely cached', async () => {
    const { controller } = setup({
      remembered: { id: 'Qwen3-1.7B-q4f32_1-MLC' },
      cached: [{ id: 'Qwen3-1.7B-q4f32_1-MLC', complete: true, bytes: 5, files: 1 }],
    });
    await controller.start();
    expect(controller.state.selectedId).toBe('Qwen3-1.7B-q4f32_1-MLC');
    expect(controller.state.resumableId).toBe('Qwen3-1.7B-q4f32_1-MLC');
    await expect(controller.resume()).resolves.toBe(true);
    expect(controller.state.loadedId).toBe('Qwen3-1.7B-q4f32_1-MLC');
  });

  it('brings back a remembered custom model', async () => {
    const custom = {
      modelUrl: 'https://models.example/Qwen3-0.6B-q4f32_1-MLC/',
      modelLibUrl: 'https://models.example/lib.wasm',
    };
    const { controller } = setup({ remembered: { id: 'custom:Qwen3-0.6B-q4f32_1-MLC', custom } });
    await controller.start();
    expect(controller.state.selectedId).toBe('custom:Qwen3-0.6B-q4f32_1-MLC');
    expect(controller.state.options.find((o) => o.spec.custom)!.fit.fits).toBe(true);
  });

  it('without an adapter: unsupported, no worker, and loads are refused with the verdict', async () => {
    const { controller, workers } = setup({
      caps: { webgpu: true, adapter: null, adapterError: null, deviceMemoryGB: null },
    });
    await controller.start();
    expect(controller.state.phase).toBe('unsupported');
    expect(controller.state.worker).toBeNull();
    await expect(controller.load('Qwen3-0.6B-q4f32_1-MLC')).resolves.toBe(false);
    expect(controller.state.error).toMatchObject({ code: 'no_webgpu' });
    expect(workers).toHaveLength(0);
  });
});

describe('ModelSetupController: loading', () => {
  it('loads, remembers the model, and hands out one ChatModel for every purpose', async () => {
    const hold = deferred();
    const { controller, events, remembered } = setup({
      engine: () => Object.assign(new FakeEngine([{ deltas: ['hello'] }]), { reloadResult: () => hold.promise }),
    });
    const phases = [controller.state.phase];
    await controller.start();
    phases.push(controller.state.phase);
    expect(controller.chatModel()).toBeNull();
    const loading = controller.load();
    await settle();
    phases.push(controller.state.phase);
    hold.resolve();
    await expect(loading).resolves.toBe(true);
    phases.push(controller.state.phase);
    expect(phases).toEqual(['detecting', 'choosing', 'loading', 'ready']);
    expect(events).toEqual([{ type: 'loaded', modelId: 'Qwen3-0.6B-q4f32_1-MLC' }]);
    expect(remembered()).toEqual({ id: 'Qwen3-0.6B-q4f32_1-MLC' });
    const model = controller.chatModel()!;
    expect(model.id).toBe('webllm:Qwen3-0.6B-q4f32_1-MLC');
    const reply = await model.complete({
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0.6,
      topP: 1,
      maxTokens: 8,
      seed: 1,
      purpose: 'agent',
    });
    expect(reply.text).toBe('hello');
  });

  it('loads with the automatic window, says why, and reports it through the ChatModel', async () => {
    const { controller, configs } = setup({ caps: NVIDIA });
    await controller.start();
    const option = controller.state.options.find((o) => o.spec.id === 'Qwen3-4B-q4f16_1-MLC')!;
    expect(controller.state.selectedId).toBe('Qwen3-4B-q4f16_1-MLC');
    expect(option.window).toMatchObject({ tokens: 8192, automatic: true, warning: null });
    expect(option.window.explanation).toMatch(
      /^Loads with an 8,192-token window: .*not 16,384: .*assumed \(the browser does not report memory\)\.$/,
    );
    await expect(controller.load()).resolves.toBe(true);
    expect(configs.at(-1)!.appConfig!.model_list[0]!.overrides).toMatchObject({ context_window_size: 8192 });
    expect(controller.state.loadedWindow).toBe(8192);
    await expect(controller.chatModel()!.contextWindow!()).resolves.toBe(8192);
  });

  it("loads with the user's window, remembers it with the model, and brings it back", async () => {
    const first = setup({ caps: NVIDIA });
    await first.controller.start();
    first.controller.setWindow(16_384);
    const option = first.controller.state.options.find((o) => o.spec.id === 'Qwen3-4B-q4f16_1-MLC')!;
    expect(option.window).toMatchObject({ tokens: 16_384, automatic: false });
    expect(option.window.warning).toMatch(/^May not load: it would need about 5\.1 GB/);
    await first.controller.load();
    expect(first.configs.at(-1)!.appConfig!.model_list[0]!.overrides).toMatchObject({ context_window_size: 16_384 });
    expect(first.remembered()).toEqual({ id: 'Qwen3-4B-q4f16_1-MLC', windowTokens: 16_384 });
    const again = setup({ caps: NVIDIA, remembered: first.remembered() });
    await again.controller.start();
    expect(again.controller.state.windowOverride).toBe(16_384);
    again.controller.setWindow(null);
    expect(again.controller.state.options.find((o) => o.spec.id === 'Qwen3-4B-q4f16_1-MLC')!.window.tokens).toBe(8192);
    const tampered = setup({ caps: NVIDIA, remembered: { id: 'Qwen3-4B-q4f16_1-MLC', windowTokens: 1e9 } });
    await tampered.controller.start();
    expect(tampered.controller.state.windowOverride).toBeNull();
  });

  it('shows a failed load with its next step, naming a smaller window and a smaller model of the family for memory trouble', async () => {
    const { controller } = setup({
      caps: NVIDIA,
      engine: () =>
        Object.assign(new FakeEngine(), { reloadResult: () => Promise.reject('GPUOutOfMemoryError: Out of memory') }),
    });
    await controller.start();
    expect(controller.state.selectedId).toBe('Qwen3-4B-q4f16_1-MLC');
    await expect(controller.load()).resolves.toBe(false);
    expect(controller.state.phase).toBe('failed');
    expect(controller.state.error).toEqual({
      code: 'out_of_memory',
      message:
        'The GPU ran out of memory loading Qwen3-4B-q4f16_1-MLC (web-llm said: GPUOutOfMemoryError: Out of memory).',
      nextStep:
        'Close other tabs or apps using the GPU and load again, or choose a smaller window under "Context window" (it loaded with 8,192 tokens) or a smaller model such as Qwen3-1.7B-q4f16_1-MLC.',
    });
  });

  it('cancels a load back to choosing, with a notice', async () => {
    const hold = deferred();
    const { controller } = setup({
      engine: () => Object.assign(new FakeEngine(), { reloadResult: () => hold.promise }),
    });
    await controller.start();
    const pending = controller.load();
    await settle();
    expect(controller.state.phase).toBe('loading');
    controller.cancel();
    await expect(pending).resolves.toBe(false);
    expect(controller.state.phase).toBe('choosing');
    expect(controller.state.error).toBeNull();
    expect(controller.state.notice).toBe(
      'Loading was cancelled. Load again when you are ready: shards already downloaded stay cached.',
    );
  });

  it('refuses an f16 build on a GPU without shader-f16 before starting a worker', async () => {
    const { controller, workers } = setup();
    await controller.start();
    await settle();
    const before = workers.length;
    controller.select('Qwen3-4B-q4f16_1-MLC');
    await expect(controller.load()).resolves.toBe(false);
    expect(controller.state.error).toEqual({
      code: 'no_f16',
      message: 'Qwen3-4B-q4f16_1-MLC needs shader-f16, which this GPU lacks.',
      nextStep: 'Load Qwen3-4B-q4f32_1-MLC instead: the same model built for 32-bit floats.',
    });
    expect(workers.length).toBe(before);
  });
});

describe('ModelSetupController: a lost device', () => {
  it('tells the run to pause, reloads the model, and tells it to continue', async () => {
    const { controller, events, workers } = setup({ engine: () => new FakeEngine([{ deltas: ['after recovery'] }]) });
    await controller.start();
    await controller.load();
    const model = controller.chatModel()!;
    workers.at(-1)!.emit({ kind: 'spade:device-lost', reason: 'unknown', message: 'GPU process crashed' });
    expect(controller.state.phase).toBe('recovering');
    expect(events.at(-1)).toEqual({
      type: 'device-lost',
      message: 'DeviceLostError: the GPU device was lost (unknown: GPU process crashed)',
    });
    const reply = await model.complete({
      messages: [{ role: 'user', content: 'hi' }],
      temperature: 0,
      topP: 1,
      maxTokens: 8,
      seed: 1,
      purpose: 'designer',
    });
    expect(reply.text).toBe('after recovery');
    expect(events.at(-1)).toMatchObject({ type: 'recovered', modelId: 'Qwen3-0.6B-q4f32_1-MLC' });
    expect(controller.state.phase).toBe('ready');
    expect(controller.chatModel()).toBe(model);
  });

  it('reports a failed recovery and withdraws the model', async () => {
    const { controller, events, workers } = setup({
      engine: (i) =>
        Object.assign(new FakeEngine(), {
          reloadResult: () => (i <= 1 ? Promise.resolve() : Promise.reject('TypeError: Failed to fetch')),
        }),
    });
    await controller.start();
    await controller.load();
    workers.at(-1)!.emit({ kind: 'spade:device-lost', reason: 'unknown', message: '' });
    await settle();
    expect(events.at(-1)).toMatchObject({ type: 'recovery-failed', error: { code: 'network' } });
    expect(controller.state.phase).toBe('failed');
    expect(controller.chatModel()).toBeNull();
  });
});

describe('ModelSetupController: custom models and the cache', () => {
  it('adds a custom model or says what is wrong with the input', async () => {
    const { controller } = setup();
    await controller.start();
    expect(controller.addCustom({ modelUrl: 'ftp://x/Qwen3', modelLibUrl: 'https://x/lib.wasm' })).toBeNull();
    expect(controller.state.customError).toBe(
      'The model URL "ftp://x/Qwen3" uses ftp:; only http(s) URLs can be fetched.',
    );
    expect(controller.addCustom({ modelUrl: '/models/Qwen3-1.7B-q4f32_1-MLC/', modelLibUrl: '/models/lib.wasm' })).toBe(
      'custom:Qwen3-1.7B-q4f32_1-MLC',
    );
    expect(controller.state).toMatchObject({ selectedId: 'custom:Qwen3-1.7B-q4f32_1-MLC', customError: null });
  });

  it('deletes a cached model but never the loaded one, and asks for persistence', async () => {
    const cached = [
      { id: 'Qwen3-0.6B-q4f32_1-MLC', complete: true, bytes: 5, files: 1 },
      { id: 'Qwen3-1.7B-q4f32_1-MLC', complete: false, bytes: 3, files: 1 },
    ];
    const { controller, deleted } = setup({ cached });
    await controller.start();
    await controller.load('Qwen3-0.6B-q4f32_1-MLC');
    await controller.deleteCached('Qwen3-0.6B-q4f32_1-MLC');
    await controller.deleteCached('Qwen3-1.7B-q4f32_1-MLC');
    expect(deleted).toEqual(['Qwen3-1.7B-q4f32_1-MLC']);
    expect(controller.state.cached.map((c) => c.id)).toEqual(['Qwen3-0.6B-q4f32_1-MLC']);
    await expect(controller.persistStorage()).resolves.toBe(true);
  });

  it('unloads back to choosing', async () => {
    const { controller, events } = setup();
    await controller.start();
    await controller.load();
    await controller.unload();
    expect(controller.state).toMatchObject({ phase: 'choosing', loadedId: null });
    expect(controller.chatModel()).toBeNull();
    expect(events.at(-1)).toEqual({ type: 'unloaded' });
  });
});
