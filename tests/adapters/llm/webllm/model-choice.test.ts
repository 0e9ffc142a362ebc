import { describe, expect, it } from 'vitest';
import {
  blockingProblem,
  checkModelFit,
  judgeGpu,
  webllmModelTraits,
  recommendModel,
  smallerFamilyModel,
  vramBudgetMB,
  type GpuAdapterFacts,
  type GpuCapabilities,
  type ModelSpec,
} from '../../../../src/adapters/llm/webllm/model-choice.ts';

const GiB = 2 ** 30;
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
const caps = (adapter: Partial<GpuAdapterFacts> | null, deviceMemoryGB: number | null = null): GpuCapabilities => ({
  webgpu: true,
  adapter: adapter === null ? null : { ...ADAPTER, ...adapter },
  adapterError: null,
  deviceMemoryGB,
});

/** Entries as web-llm 0.2.86's prebuiltAppConfig lists them (id, vram_required_MB, low_resource_required, required_features). */
const RECORDS: Array<[string, number, boolean, string[]?]> = [
  ['Llama-3.2-1B-Instruct-q4f32_1-MLC', 1128.82, true],
  ['Llama-3.1-8B-Instruct-q4f16_1-MLC', 5001, false],
  ['SmolLM2-360M-Instruct-q4f16_1-MLC', 376.06, true, ['shader-f16']],
  ['SmolLM2-360M-Instruct-q4f32_1-MLC', 579.61, true],
  ['Qwen3-0.6B-q4f16_1-MLC', 1403.34, true],
  ['Qwen3-0.6B-q4f32_1-MLC', 1924.98, true],
  ['Qwen3-0.6B-q0f16-MLC', 2220.38, true],
  ['Qwen3-1.7B-q4f16_1-MLC', 2036.66, true],
  ['Qwen3-1.7B-q4f32_1-MLC', 2635.44, true],
  ['Qwen3-4B-q4f16_1-MLC', 3431.59, true],
  ['Qwen3-4B-q4f32_1-MLC', 4327.71, true],
  ['Qwen3-8B-q4f16_1-MLC', 5695.78, false],
];
const MODELS: ModelSpec[] = RECORDS.map(([id, vramMB, lowResource, requiredFeatures = []]) => ({
  id,
  ...webllmModelTraits(id),
  vramMB,
  lowResource,
  requiredStorageBufferBytes: null,
  requiredFeatures,
  custom: false,
}));
const spec = (id: string): ModelSpec => MODELS.find((m) => m.id === id)!;

describe('webllmModelTraits', () => {
  it.each([
    ['Qwen3-4B-q4f16_1-MLC', { family: 'Qwen3', paramsB: 4, weightBits: 4, float: 16 }],
    ['Qwen3-1.7B-q4f32_1-MLC', { family: 'Qwen3', paramsB: 1.7, weightBits: 4, float: 32 }],
    ['Qwen3-0.6B-q0f16-MLC', { family: 'Qwen3', paramsB: 0.6, weightBits: 0, float: 16 }],
    ['Qwen3.5-4B-q4f16_1-MLC', { family: 'Qwen3.5', paramsB: 4, weightBits: 4, float: 16 }],
    ['Llama-3.2-1B-Instruct-q4f32_1-MLC', { family: 'Llama-3.2', paramsB: 1, weightBits: 4, float: 32 }],
    ['SmolLM2-360M-Instruct-q4f16_1-MLC', { family: 'SmolLM2', paramsB: 0.36, weightBits: 4, float: 16 }],
    ['Llama-3.1-70B-Instruct-q3f16_1-MLC', { family: 'Llama-3.1', paramsB: 70, weightBits: 3, float: 16 }],
    ['custom:Qwen3-0.6B-q4f32_1-MLC', { family: 'Qwen3', paramsB: 0.6, weightBits: 4, float: 32 }],
    ['Phi-3.5-mini-instruct-q4f16_1-MLC', { family: null, paramsB: null, weightBits: 4, float: 16 }],
    ['my-model', { family: null, paramsB: null, weightBits: null, float: null }],
  ])('%s', (id, expected) => {
    expect(webllmModelTraits(id)).toEqual(expected);
  });
});

describe('judgeGpu', () => {
  it.each([
    [
      'no navigator.gpu',
      { webgpu: false, adapter: null, adapterError: null, deviceMemoryGB: null },
      'no-webgpu',
      /navigator\.gpu is missing/,
    ],
    [
      'no adapter',
      { webgpu: true, adapter: null, adapterError: null, deviceMemoryGB: null },
      'no-adapter',
      /granted no GPU adapter: /,
    ],
    [
      'requestAdapter threw',
      {
        webgpu: true,
        adapter: null,
        adapterError: 'requestAdapter() did not answer within 10000 ms',
        deviceMemoryGB: null,
      },
      'no-adapter',
      /\(requestAdapter\(\) did not answer within 10000 ms\)/,
    ],
    [
      'small workgroup storage',
      caps({ maxComputeWorkgroupStorageSize: 16384 }),
      'unsupported-gpu',
      /maxComputeWorkgroupStorageSize 16384 < 32768/,
    ],
    [
      'too few storage buffers',
      caps({ maxStorageBuffersPerShaderStage: 8 }),
      'unsupported-gpu',
      /maxStorageBuffersPerShaderStage 8 < 10/,
    ],
    [
      'SwiftShader',
      caps({
        isFallback: true,
        vendor: 'google',
        architecture: 'swiftshader',
        shaderF16: false,
        maxBufferSize: GiB,
        maxStorageBufferBindingSize: GiB,
      }),
      'ok',
      /^WebGPU adapter: google swiftshader \(software fallback\)\.$/,
    ],
  ] as const)('%s', (_, capabilities, verdict, reason) => {
    const judged = judgeGpu(capabilities);
    expect(judged.verdict).toBe(verdict);
    expect(judged.reason).toMatch(reason);
    expect(judged.nextStep === null).toBe(verdict === 'ok');
  });
});

describe('vramBudgetMB', () => {
  it.each([
    [null, undefined, null],
    [4, undefined, 2048],
    [8, undefined, null],
    [16, undefined, null],
    [16, 3000, 3000],
  ])('deviceMemory %s GB, override %s -> %s MB', (memory, override, expected) => {
    expect(vramBudgetMB(caps({}, memory), override)).toBe(expected);
  });
});

describe('recommendModel', () => {
  it.each([
    ['a GPU with shader-f16 and no known memory limit', caps({}), undefined, 'Qwen3-4B-q4f16_1-MLC'],
    ['a GPU without shader-f16', caps({ shaderF16: false }), undefined, 'Qwen3-4B-q4f32_1-MLC'],
    [
      'SwiftShader (fallback, no shader-f16)',
      caps({ isFallback: true, shaderF16: false }),
      undefined,
      'Qwen3-0.6B-q4f32_1-MLC',
    ],
    ['a fallback adapter with shader-f16', caps({ isFallback: true }), undefined, 'Qwen3-0.6B-q4f16_1-MLC'],
    ['4 GB of RAM with shader-f16 (2 GB budget)', caps({}, 4), undefined, 'Qwen3-1.7B-q4f16_1-MLC'],
    ['4 GB of RAM without shader-f16', caps({ shaderF16: false }, 4), undefined, 'Qwen3-0.6B-q4f32_1-MLC'],
    [
      'a 1500 MB budget without shader-f16: no Qwen3 fits, the largest other f32 model does',
      caps({ shaderF16: false }),
      1500,
      'Llama-3.2-1B-Instruct-q4f32_1-MLC',
    ],
    ['a 1500 MB budget with shader-f16: the smallest Qwen3 q4f16 fits', caps({}), 1500, 'Qwen3-0.6B-q4f16_1-MLC'],
    [
      '256 MiB storage buffers: low-resource models only',
      caps({ maxStorageBufferBindingSize: 256 * 2 ** 20 }),
      undefined,
      'Qwen3-4B-q4f16_1-MLC',
    ],
    ['a 300 MB budget: nothing fits', caps({ shaderF16: false }), 300, null],
    ['no adapter', caps(null), undefined, null],
  ])('%s -> %s', (_, capabilities, budget, expected) => {
    const rec = recommendModel(capabilities, MODELS, budget === undefined ? {} : { vramBudgetMB: budget });
    expect(rec.recommendedId).toBe(expected);
    expect(rec.fits.map((fit) => fit.id)).toEqual(MODELS.map((m) => m.id));
    if (expected) expect(rec.fits.find((fit) => fit.id === expected)!.fits).toBe(true);
    expect(rec.nextStep === null).toBe(expected !== null);
  });

  it('explains a SwiftShader recommendation in order', () => {
    const rec = recommendModel(
      caps({ isFallback: true, vendor: 'google', architecture: 'swiftshader', shaderF16: false }),
      MODELS,
    );
    expect(rec.reasons).toEqual([
      'WebGPU adapter: google swiftshader (software fallback).',
      'No shader-f16 on this GPU: only q4f32 builds can run.',
      'This is a software adapter: every token is computed on the CPU, so the smallest model of the family is recommended; expect slow generation.',
      "Qwen3-0.6B-q4f32_1-MLC is the first of the paper's family (Qwen3 4B, 1.7B, 0.6B) that fits; it needs about 1.9 GB of GPU memory.",
    ]);
  });

  it('never recommends a custom model, but judges its fit', () => {
    const custom: ModelSpec = { ...spec('Qwen3-4B-q4f32_1-MLC'), id: 'custom:Qwen3-4B-q4f32_1-MLC', custom: true };
    const rec = recommendModel(caps({ shaderF16: false }), [custom, ...MODELS]);
    expect(rec.recommendedId).toBe('Qwen3-4B-q4f32_1-MLC');
    expect(rec.fits[0]).toEqual({ id: 'custom:Qwen3-4B-q4f32_1-MLC', fits: true, problems: [] });
  });
});

describe('checkModelFit', () => {
  const noF16 = caps({ shaderF16: false, maxStorageBufferBindingSize: 512 * 2 ** 20 });
  it.each([
    ['Qwen3-4B-q4f16_1-MLC', null, ['needs shader-f16, which this GPU lacks: use Qwen3-4B-q4f32_1-MLC']],
    [
      'SmolLM2-360M-Instruct-q4f16_1-MLC',
      null,
      ['needs shader-f16, which this GPU lacks: use SmolLM2-360M-Instruct-q4f32_1-MLC'],
    ],
    ['Qwen3-0.6B-q0f16-MLC', null, ['needs shader-f16, which this GPU lacks: choose a q4f32 build']],
    [
      'Llama-3.1-8B-Instruct-q4f16_1-MLC',
      null,
      [
        'needs shader-f16, which this GPU lacks: choose a q4f32 build',
        'needs 1 GiB storage buffers; this GPU allows 512 MiB: choose a low-resource model',
      ],
    ],
    [
      'Qwen3-4B-q4f32_1-MLC',
      2048,
      ['needs about 4.2 GB of GPU memory; about 2.0 GB is available: choose a smaller model'],
    ],
    ['Qwen3-0.6B-q4f32_1-MLC', 2048, []],
  ])('%s with budget %s', (id, budget, problems) => {
    expect(checkModelFit(noF16, spec(id), budget, MODELS)).toEqual({ id, fits: problems.length === 0, problems });
  });

  it('checks a declared storage-buffer need', () => {
    const needy: ModelSpec = { ...spec('Qwen3-0.6B-q4f32_1-MLC'), requiredStorageBufferBytes: 262_144_000 };
    expect(checkModelFit(caps({ maxStorageBufferBindingSize: 128 * 2 ** 20 }), needy, null).problems).toEqual([
      'needs 250 MiB storage buffers; this GPU allows 128 MiB',
    ]);
  });
});

describe('blockingProblem and smallerFamilyModel', () => {
  it.each([
    [
      caps({ shaderF16: false }),
      'Qwen3-4B-q4f16_1-MLC',
      {
        code: 'no_f16',
        message: 'Qwen3-4B-q4f16_1-MLC needs shader-f16, which this GPU lacks.',
        nextStep: 'Load Qwen3-4B-q4f32_1-MLC instead: the same model built for 32-bit floats.',
      },
    ],
    [caps({ shaderF16: false }), 'Qwen3-4B-q4f32_1-MLC', null],
    [caps({}), 'Qwen3-4B-q4f16_1-MLC', null],
    [
      caps(null),
      'Qwen3-0.6B-q4f32_1-MLC',
      {
        code: 'no_webgpu',
        message: expect.stringContaining('granted no GPU adapter'),
        nextStep: expect.stringContaining('chrome://gpu'),
      },
    ],
  ])('blockingProblem %#', (capabilities, id, expected) => {
    expect(blockingProblem(capabilities, spec(id), MODELS)).toEqual(expected);
  });

  it.each([
    [caps({}), 'Qwen3-4B-q4f16_1-MLC', 'Qwen3-1.7B-q4f16_1-MLC'],
    [caps({ shaderF16: false }), 'Qwen3-4B-q4f32_1-MLC', 'Qwen3-1.7B-q4f32_1-MLC'],
    [caps({ shaderF16: false }), 'Qwen3-1.7B-q4f32_1-MLC', 'Qwen3-0.6B-q4f32_1-MLC'],
    [caps({ shaderF16: false }), 'Qwen3-0.6B-q4f32_1-MLC', null],
    [caps({}), 'Llama-3.1-8B-Instruct-q4f16_1-MLC', 'Qwen3-4B-q4f16_1-MLC'],
  ])('smallerFamilyModel %#', (capabilities, id, expected) => {
    expect(smallerFamilyModel(capabilities, spec(id), MODELS)?.id ?? null).toBe(expected);
  });
});
