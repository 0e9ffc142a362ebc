import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { detectGpuCapabilities, type GpuAdapterLike } from '../../../../src/adapters/gpu/gpu-capabilities.ts';
import {
  chatModelsOf,
  customModel,
  filesBaseUrl,
  prebuiltModels,
} from '../../../../src/adapters/llm/webllm/model-catalog.ts';
import { watchDeviceLoss } from '../../../../src/adapters/llm/webllm/webllm-device-watch.ts';
import { isWorkerNotice, type WorkerNotice } from '../../../../src/adapters/llm/webllm/webllm-protocol.ts';
import { recommendModel } from '../../../../src/adapters/llm/webllm/model-choice.ts';

describe("the catalog over web-llm 0.2.86's prebuilt list", () => {
  it("is the installed web-llm's prebuilt chat models exactly (after an upgrade: npx tsx scripts/write-webllm-models.ts)", async () => {
    const live = chatModelsOf(prebuiltAppConfig);
    expect(live.length).toBeGreaterThan(50);
    expect(await prebuiltModels()).toEqual(live);
  });

  it('lists chat models only, with the Qwen3 family described from the records', async () => {
    const models = await prebuiltModels();
    expect(models.some((m) => m.spec.id.startsWith('snowflake-arctic-embed'))).toBe(false);
    expect(models.some((m) => m.spec.id.startsWith('Phi-3.5-vision'))).toBe(false);
    const qwen = models
      .filter((m) => m.spec.family === 'Qwen3' && m.spec.weightBits === 4)
      .map((m) => [m.spec.id, m.spec.paramsB, m.spec.float, m.spec.vramMB, m.spec.lowResource]);
    expect(qwen).toEqual([
      ['Qwen3-0.6B-q4f16_1-MLC', 0.6, 16, 1403.34, true],
      ['Qwen3-0.6B-q4f32_1-MLC', 0.6, 32, 1924.98, true],
      ['Qwen3-1.7B-q4f16_1-MLC', 1.7, 16, 2036.66, true],
      ['Qwen3-1.7B-q4f32_1-MLC', 1.7, 32, 2635.44, true],
      ['Qwen3-4B-q4f16_1-MLC', 4, 16, 3431.59, true],
      ['Qwen3-4B-q4f32_1-MLC', 4, 32, 4327.71, true],
      ['Qwen3-8B-q4f16_1-MLC', 8, 16, 5695.78, false],
      ['Qwen3-8B-q4f32_1-MLC', 8, 32, 6852.55, false],
    ]);
    expect(models.find((m) => m.spec.id === 'Qwen3-0.6B-q4f32_1-MLC')!.record.model_lib).toBe(
      'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base/Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm',
    );
  });

  it.each([
    ['a discrete GPU with shader-f16', { shaderF16: true, isFallback: false }, 'Qwen3-4B-q4f16_1-MLC'],
    ['a GPU without shader-f16', { shaderF16: false, isFallback: false }, 'Qwen3-4B-q4f32_1-MLC'],
    ['SwiftShader', { shaderF16: false, isFallback: true }, 'Qwen3-0.6B-q4f32_1-MLC'],
  ])('recommends from the real list for %s', async (_, facts, expected) => {
    const adapter = {
      vendor: '',
      architecture: '',
      description: '',
      maxBufferSize: 2 ** 30,
      maxStorageBufferBindingSize: 2 ** 30,
      maxComputeWorkgroupStorageSize: 32768,
      maxStorageBuffersPerShaderStage: 10,
      ...facts,
    };
    const rec = recommendModel(
      { webgpu: true, adapter, adapterError: null, deviceMemoryGB: 16 },
      (await prebuiltModels()).map((m) => m.spec),
    );
    expect(rec.recommendedId).toBe(expected);
  });
});

describe('custom models', () => {
  const base = 'https://app.example/lab/';
  it('builds a record from the folder and library URLs, naming it after the folder', () => {
    const model = customModel(
      {
        modelUrl: '/models/Qwen3-1.7B-q4f32_1-MLC',
        modelLibUrl: '/models/Qwen3-1.7B-q4f32_1_cs1k-webgpu.wasm',
        vramMB: 2600,
      },
      base,
    );
    expect(model.record).toEqual({
      model: 'https://app.example/models/Qwen3-1.7B-q4f32_1-MLC',
      model_id: 'custom:Qwen3-1.7B-q4f32_1-MLC',
      model_lib: 'https://app.example/models/Qwen3-1.7B-q4f32_1_cs1k-webgpu.wasm',
      low_resource_required: true,
      vram_required_MB: 2600,
    });
    expect(model.spec).toMatchObject({
      id: 'custom:Qwen3-1.7B-q4f32_1-MLC',
      family: 'Qwen3',
      paramsB: 1.7,
      float: 32,
      custom: true,
      vramMB: 2600,
    });
    expect(
      customModel(
        {
          modelUrl: 'https://hf.example/me/Qwen3-4B-q4f16_1-MLC/resolve/main/',
          modelLibUrl: 'https://hf.example/lib.wasm',
        },
        base,
      ).spec.id,
    ).toBe('custom:Qwen3-4B-q4f16_1-MLC');
  });

  it.each([
    [
      { modelUrl: '', modelLibUrl: 'https://x/lib.wasm' },
      'The model URL is empty: give an http(s) URL or a path on this site.',
    ],
    [
      { modelUrl: 'file:///models/Qwen3', modelLibUrl: 'https://x/lib.wasm' },
      'The model URL "file:///models/Qwen3" uses file:; only http(s) URLs can be fetched.',
    ],
    [
      { modelUrl: 'https://x/Qwen3/', modelLibUrl: 'https://x/lib.js' },
      'The model library URL "https://x/lib.js" does not end in .wasm: it must point at the compiled model library (e.g. Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm).',
    ],
    [
      { modelUrl: 'https://x/', modelLibUrl: 'https://x/lib.wasm' },
      'Give the custom model a name: its URL "https://x/" has no folder name.',
    ],
  ])('rejects %j', (input, message) => {
    expect(() => customModel(input, base)).toThrow(message);
  });

  it.each([
    [
      'https://huggingface.co/mlc-ai/Qwen3-0.6B-q4f32_1-MLC',
      'https://huggingface.co/mlc-ai/Qwen3-0.6B-q4f32_1-MLC/resolve/main/',
    ],
    ['http://127.0.0.1:8000/models/Qwen3/', 'http://127.0.0.1:8000/models/Qwen3/resolve/main/'],
    ['http://127.0.0.1:8000/models/Qwen3/resolve/v2/', 'http://127.0.0.1:8000/models/Qwen3/resolve/v2/'],
  ])("files of %s are read from %s (web-llm's cleanModelUrl)", (url, files) => {
    expect(filesBaseUrl(url)).toBe(files);
  });
});

describe('detectGpuCapabilities', () => {
  const adapter = (overrides: Partial<GpuAdapterLike> = {}): GpuAdapterLike => ({
    features: new Set(['shader-f16']),
    limits: {
      maxBufferSize: 4 * 2 ** 30,
      maxStorageBufferBindingSize: 2 ** 31,
      maxComputeWorkgroupStorageSize: 32768,
      maxStorageBuffersPerShaderStage: 10,
    },
    info: { vendor: 'apple', architecture: 'metal-3', description: '' },
    ...overrides,
  });

  it('reads the adapter the way web-llm asks for it', async () => {
    const asked: unknown[] = [];
    const caps = await detectGpuCapabilities({
      deviceMemory: 8,
      gpu: { requestAdapter: async (options) => (asked.push(options), adapter()) },
    });
    expect(asked).toEqual([{ powerPreference: 'high-performance' }]);
    expect(caps).toEqual({
      webgpu: true,
      adapterError: null,
      deviceMemoryGB: 8,
      adapter: {
        isFallback: false,
        vendor: 'apple',
        architecture: 'metal-3',
        description: '',
        shaderF16: true,
        maxBufferSize: 4 * 2 ** 30,
        maxStorageBufferBindingSize: 2 ** 31,
        maxComputeWorkgroupStorageSize: 32768,
        maxStorageBuffersPerShaderStage: 10,
      },
    });
  });

  it('reads the fallback flag from adapter.info or the older adapter.isFallbackAdapter', async () => {
    const fromInfo = await detectGpuCapabilities({
      gpu: {
        requestAdapter: async () =>
          adapter({ info: { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true } }),
      },
    });
    const legacy = await detectGpuCapabilities({
      gpu: { requestAdapter: async () => adapter({ info: {}, isFallbackAdapter: true }) },
    });
    expect([fromInfo.adapter!.isFallback, legacy.adapter!.isFallback]).toEqual([true, true]);
  });

  it('says what is missing: no navigator.gpu, no adapter, a throwing or hanging requestAdapter', async () => {
    expect(await detectGpuCapabilities({})).toEqual({
      webgpu: false,
      adapter: null,
      adapterError: null,
      deviceMemoryGB: null,
    });
    expect(await detectGpuCapabilities({ gpu: { requestAdapter: async () => null } })).toMatchObject({
      webgpu: true,
      adapter: null,
      adapterError: null,
    });
    expect(
      await detectGpuCapabilities({
        gpu: { requestAdapter: async () => Promise.reject(new Error('GPU process unavailable')) },
      }),
    ).toMatchObject({
      adapter: null,
      adapterError: 'GPU process unavailable',
    });
    expect(await detectGpuCapabilities({ gpu: { requestAdapter: () => new Promise(() => {}) } }, 20)).toMatchObject({
      adapter: null,
      adapterError: 'requestAdapter() did not answer within 20 ms',
    });
  });
});

describe('the worker side: device loss and notices', () => {
  class FakeAdapter {
    lost = (() => {
      let lose!: (info: { reason: string; message: string }) => void;
      const promise = new Promise<{ reason: string; message: string }>((resolve) => (lose = resolve));
      return { promise, lose };
    })();
    async requestDevice(): Promise<{ lost: Promise<{ reason: string; message: string }> }> {
      return { lost: this.lost.promise };
    }
  }

  it.each([
    ['unknown', [{ kind: 'spade:device-lost', reason: 'unknown', message: 'GPU process crashed' }]],
    ['destroyed', []],
  ])('a device lost with reason %s posts %j', async (reason, posted) => {
    const notices: WorkerNotice[] = [];
    const scope = { GPUAdapter: class extends FakeAdapter {} };
    expect(watchDeviceLoss((n) => notices.push(n), scope)).toBe(true);
    const adapter = new scope.GPUAdapter();
    await adapter.requestDevice();
    adapter.lost.lose({ reason, message: 'GPU process crashed' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(notices).toEqual(posted);
  });

  it('does nothing where there is no WebGPU', () => {
    expect(watchDeviceLoss(() => {}, {})).toBe(false);
  });

  it('tells its notices from web-llm messages', () => {
    expect(
      [
        { kind: 'spade:ready' },
        { kind: 'spade:device-lost', reason: 'unknown', message: '' },
        { kind: 'return', uuid: 'x' },
        null,
        'spade:ready',
      ].map(isWorkerNotice),
    ).toEqual([true, true, false, false, false]);
  });
});
