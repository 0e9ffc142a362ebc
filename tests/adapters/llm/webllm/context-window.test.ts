import { describe, expect, it } from 'vitest';
import {
  chooseContextWindow,
  kvBytesPerToken,
  kvLayerBufferBytes,
  kvShapeOf,
  UNKNOWN_BUDGET_MB,
} from '../../../../src/adapters/llm/webllm/context-window.ts';
import {
  customModel,
  listWindowOf,
  prebuiltModels,
  withContextWindow,
  type CatalogModel,
} from '../../../../src/adapters/llm/webllm/model-catalog.ts';
import type { GpuAdapterFacts, GpuCapabilities } from '../../../../src/adapters/llm/webllm/model-choice.ts';

const GiB = 2 ** 30;
const MiB = 2 ** 20;
const ADAPTER: GpuAdapterFacts = {
  isFallback: false,
  vendor: 'nvidia',
  architecture: 'ampere',
  description: '',
  shaderF16: true,
  maxBufferSize: 2 * GiB,
  maxStorageBufferBindingSize: 2 * GiB,
  maxComputeWorkgroupStorageSize: 32768,
  maxStorageBuffersPerShaderStage: 10,
};
const caps = (adapter: Partial<GpuAdapterFacts> = {}): GpuCapabilities => ({
  webgpu: true,
  adapter: { ...ADAPTER, ...adapter },
  adapterError: null,
  deviceMemoryGB: null,
});

const models = await prebuiltModels();
const model = (id: string): CatalogModel => models.find((m) => m.spec.id === id)!;
const windowOf = (id: string, budgetMB: number | null, adapter: Partial<GpuAdapterFacts> = {}) => {
  const m = model(id);
  return chooseContextWindow({ caps: caps(adapter), model: m.spec, listWindow: listWindowOf(m), budgetMB });
};

describe('the KV-cache estimate', () => {
  it("sizes Qwen3's cache from its layers, KV heads and head width, twice as large for f32 builds", () => {
    const small = kvShapeOf(model('Qwen3-1.7B-q4f16_1-MLC').spec)!;
    const large = kvShapeOf(model('Qwen3-8B-q4f32_1-MLC').spec)!;
    expect(kvBytesPerToken(small, 16)).toBe(2 * 28 * 8 * 128 * 2);
    expect(kvBytesPerToken(small, 32)).toBe(2 * kvBytesPerToken(small, 16));
    expect(kvBytesPerToken(large, 16)).toBe(2 * 36 * 8 * 128 * 2);
    expect(kvLayerBufferBytes(large, 32, 16_384)).toBe((1024 + 1) * 16 * 2 * 8 * 128 * 4);
  });

  it("agrees with web-llm's own estimates: Llama 3.1 8B's 4,096-token entries need 3,072 tokens of KV cache more than its 1,024-token ones", () => {
    for (const build of ['q4f32_1', 'q4f16_1']) {
      const [wide, narrow] = [
        model(`Llama-3.1-8B-Instruct-${build}-MLC`),
        model(`Llama-3.1-8B-Instruct-${build}-MLC-1k`),
      ];
      expect([listWindowOf(wide), listWindowOf(narrow)]).toEqual([4096, 1024]);
      const extraMB = (3072 * kvBytesPerToken(kvShapeOf(wide.spec)!, wide.spec.float!)) / 1e6;
      expect(Math.abs(wide.spec.vramMB! - narrow.spec.vramMB! - extraMB)).toBeLessThan(1);
    }
  });

  it('knows no shape for models outside its table', () => {
    expect(kvShapeOf(model('SmolLM2-360M-Instruct-q4f16_1-MLC').spec)).toBeNull();
    expect(kvShapeOf({ family: 'Qwen3', paramsB: 14 })).toBeNull();
  });
});

describe("the automatic window for web-llm's prebuilt Qwen3 builds (listed at 4,096 tokens)", () => {
  // web-llm's estimate (vram_required_MB) is made for the list's 4,096 tokens; a larger window adds
  // (window - 4096) x KV bytes per token (in MB of 10^6 bytes, web-llm's unit): 112 KiB (0.6B, 1.7B) or 144 KiB (4B, 8B) in f16, twice that in f32.
  const cases: Array<[string, number, number, number]> = [
    // id, window with 2 GB, 4 GB, 8 GB of GPU memory
    ['Qwen3-0.6B-q4f16_1-MLC', 8192, 16_384, 16_384], // 1403 MB; +470 MB at 8k, +1409 MB at 16k
    ['Qwen3-0.6B-q4f32_1-MLC', 4096, 8192, 16_384], // 1925 MB; +940 / +2819
    ['Qwen3-1.7B-q4f16_1-MLC', 4096, 16_384, 16_384], // 2037 MB; +470 / +1409
    ['Qwen3-1.7B-q4f32_1-MLC', 4096, 8192, 16_384], // 2635 MB; +940 / +2819
    ['Qwen3-4B-q4f16_1-MLC', 4096, 8192, 16_384], // 3432 MB; +604 / +1812
    ['Qwen3-4B-q4f32_1-MLC', 4096, 4096, 16_384], // 4328 MB; +1208 / +3624
    ['Qwen3-8B-q4f16_1-MLC', 4096, 4096, 16_384], // 5696 MB; +604 / +1812
    ['Qwen3-8B-q4f32_1-MLC', 4096, 4096, 8192], // 6853 MB; +1208 / +3624
  ];
  it.each(cases)('%s: %i tokens with 2 GB, %i with 4 GB, %i with 8 GB', (id, two, four, eight) => {
    expect(listWindowOf(model(id))).toBe(4096);
    expect([2048, 4096, 8192].map((budget) => windowOf(id, budget).tokens)).toEqual([two, four, eight]);
  });

  it('says the window, the memory it takes, and why not larger', () => {
    expect(windowOf('Qwen3-1.7B-q4f32_1-MLC', 4096).explanation).toBe(
      'Loads with an 8,192-token window: its KV cache takes 224 KiB per token, about 3.5 GB of GPU memory in all; not 16,384: it would need about 5.3 GB of GPU memory; about 4.0 GB is available.',
    );
    expect(windowOf('Qwen3-0.6B-q4f16_1-MLC', 8192).explanation).toMatch(
      /^Loads with a 16,384-token window: .*; 16,384 is the largest window offered \(the model was trained for 32,768\)\.$/,
    );
    expect(windowOf('Qwen3-4B-q4f32_1-MLC', 2048).explanation).toBe(
      "Loads with web-llm's 4,096-token window: its KV cache takes 288 KiB per token; not 8,192: it would need about 5.4 GB of GPU memory; about 2.0 GB is available.",
    );
  });

  it('keeps each layer within the buffer limit: f32 builds stop at 8,192 tokens on an adapter with 128 MiB buffers', () => {
    const lowLimits = { maxStorageBufferBindingSize: 128 * MiB };
    expect(windowOf('Qwen3-0.6B-q4f32_1-MLC', 8192, lowLimits).tokens).toBe(8192);
    expect(windowOf('Qwen3-0.6B-q4f32_1-MLC', 8192, lowLimits).explanation).toMatch(
      /not 16,384: one layer's KV cache would be a 128 MiB buffer, over this GPU's 128 MiB buffer limit/,
    );
    expect(windowOf('Qwen3-0.6B-q4f16_1-MLC', 8192, lowLimits).tokens).toBe(16_384);
    expect(windowOf('Qwen3-0.6B-q4f16_1-MLC', 8192, { maxBufferSize: 32 * MiB }).tokens).toBe(4096);
  });

  it(`assumes ${UNKNOWN_BUDGET_MB} MB when the browser does not report memory, and says so`, () => {
    const choice = windowOf('Qwen3-4B-q4f16_1-MLC', null);
    expect(choice.tokens).toBe(8192);
    expect(choice.explanation).toMatch(/about 4\.0 GB is assumed \(the browser does not report memory\)/);
  });
});

describe('other models and the user choice', () => {
  it('keeps the list window for a model whose KV cache is not known', () => {
    const choice = windowOf('SmolLM2-360M-Instruct-q4f16_1-MLC', 8192);
    expect(choice.tokens).toBe(listWindowOf(model('SmolLM2-360M-Instruct-q4f16_1-MLC')));
    expect(choice.explanation).toMatch(/does not know the size of its KV cache/);
  });

  it('leaves a custom model without a list window to its own config', () => {
    const custom = customModel(
      { modelUrl: 'http://127.0.0.1:8000/Qwen3-0.6B-q4f32_1-MLC/', modelLibUrl: 'http://127.0.0.1:8000/q.wasm' },
      'http://127.0.0.1/',
    );
    const choice = chooseContextWindow({
      caps: caps(),
      model: custom.spec,
      listWindow: listWindowOf(custom),
      budgetMB: 8192,
    });
    expect(choice).toMatchObject({ tokens: null, automatic: true });
    expect(choice.explanation).toMatch(/mlc-chat-config\.json/);
  });

  it("applies the user's window, warning when it may not load", () => {
    const m = model('Qwen3-8B-q4f32_1-MLC');
    const chosen = chooseContextWindow({
      caps: caps(),
      model: m.spec,
      listWindow: 4096,
      budgetMB: 8192,
      override: 16_384,
    });
    expect(chosen).toMatchObject({ tokens: 16_384, automatic: false });
    expect(chosen.warning).toMatch(
      /^May not load: it would need about 10\.2 GB of GPU memory; about 8\.0 GB is available\.$/,
    );
    expect(
      chooseContextWindow({ caps: caps(), model: m.spec, listWindow: 4096, budgetMB: 8192, override: 4096 }).warning,
    ).toBeNull();
  });

  it('loads a model with a window by overriding its record, leaving the rest as listed', () => {
    const m = model('Qwen3-1.7B-q4f16_1-MLC');
    const wide = withContextWindow(m, 16_384);
    expect(wide.record).toEqual({ ...m.record, overrides: { ...m.record.overrides, context_window_size: 16_384 } });
    expect(listWindowOf(wide)).toBe(16_384);
    expect(listWindowOf(m)).toBe(4096);
  });
});
