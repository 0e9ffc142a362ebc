import { describe, expect, it } from 'vitest';
import { classifyLoadError, codeOf, type LoadContext } from '../../../../src/adapters/llm/webllm/webllm-errors.ts';
import { ProgressTracker } from '../../../../src/adapters/llm/webllm/webllm-progress.ts';
import { isEngineLoss } from '../../../../src/adapters/llm/webllm/webllm-engine.ts';

const CONTEXT: LoadContext = {
  modelId: 'Qwen3-4B-q4f16_1-MLC',
  filesUrl: 'https://huggingface.co/mlc-ai/Qwen3-4B-q4f16_1-MLC/resolve/main/',
  modelLibUrl:
    'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base/Qwen3-4B-q4f16_1_cs1k-webgpu.wasm',
  f32Alternative: 'Qwen3-4B-q4f32_1-MLC',
  smallerAlternative: 'Qwen3-1.7B-q4f16_1-MLC',
};

describe('classifyLoadError: texts web-llm 0.2.86 and Chromium produce', () => {
  it.each([
    ['TypeError: Failed to fetch', 'network'],
    ["TypeError: Failed to execute 'add' on 'Cache': Request failed", 'not_found'],
    [
      'WebGPUNotAvailableError: WebGPU is not supported in your current environment, but it is necessary to run the WebLLM engine.',
      'no_webgpu',
    ],
    [
      "Error: Unable to find a compatible GPU. This issue might be because your computer doesn't have a GPU",
      'no_webgpu',
    ],
    [
      'Error: Cannot initialize runtime because of requested maxStorageBufferBindingSize exceeds limit. requested=128MB, limit=64MB.',
      'no_webgpu',
    ],
    [
      'ShaderF16SupportError: This model requires WebGPU extension shader-f16, which is not enabled in this browser.',
      'no_f16',
    ],
    ["Error: Invalid ShaderModule: extension 'f16' is not allowed in the current environment", 'no_f16'],
    [
      'DeviceLostError: The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).',
      'device_lost',
    ],
    ['GPUOutOfMemoryError: Out of memory', 'out_of_memory'],
    ['RangeError: Array buffer allocation failed', 'out_of_memory'],
    ['QuotaExceededError: Quota exceeded.', 'storage_full'],
    ['CompileError: WebAssembly.instantiate(): expected magic word 00 61 73 6d, found 74 68 69 73 @+0', 'bad_model'],
    ['SyntaxError: Unexpected token \'<\', "<!doctype "... is not valid JSON', 'bad_model'],
    ['Error: something nobody expected', 'unknown'],
  ])('%s -> %s', (text, code) => {
    expect(codeOf(text)).toBe(code);
    const error = classifyLoadError(text, CONTEXT);
    expect(error.code).toBe(code);
    expect(error.message).toContain(text.slice(0, 60));
    expect(error.nextStep.length).toBeGreaterThan(20);
  });

  it('gives each failure a next step that names the alternative to load', () => {
    expect(classifyLoadError('ShaderF16SupportError: x', CONTEXT).nextStep).toBe(
      'Load Qwen3-4B-q4f32_1-MLC instead: the same model built for 32-bit floats.',
    );
    expect(classifyLoadError('GPUOutOfMemoryError: Out of memory', CONTEXT).nextStep).toBe(
      'Close other tabs or apps using the GPU and load again, or choose a smaller model such as Qwen3-1.7B-q4f16_1-MLC.',
    );
    expect(classifyLoadError('TypeError: Failed to fetch', CONTEXT).message).toBe(
      'Could not download Qwen3-4B-q4f16_1-MLC: huggingface.co is unreachable from this browser (no network, offline, DNS failure, proxy or firewall) (web-llm said: TypeError: Failed to fetch).',
    );
  });

  it('suggests a smaller window first when the model loaded with a window larger than the list gives it', () => {
    const enlarged = { ...CONTEXT, enlargedWindow: 16_384 };
    expect(
      classifyLoadError('DeviceLostError: The WebGPU device was lost while loading the model.', enlarged).nextStep,
    ).toBe(
      'Load again; if the device is lost again, choose a smaller window under "Context window" (it loaded with 16,384 tokens) or a smaller model such as Qwen3-1.7B-q4f16_1-MLC.',
    );
  });

  it('reads Error objects as well as the strings the worker sends', () => {
    expect(classifyLoadError(new TypeError('Failed to fetch'), CONTEXT).code).toBe('network');
  });
});

describe('isEngineLoss', () => {
  it.each([
    ['DeviceLostError: the GPU device was lost (unknown)', true],
    ['Error: Model not loaded before trying to complete ChatCompletionRequest.', true],
    [
      'WorkerEngineModelNotLoadedError: WebWorkerMLCEngine is not loaded with a model. Did you call `engine.reload()`?',
      true,
    ],
    ['MessageOrderError: The last message should be from the `user` or `tool`.', false],
  ])('%s -> %s', (text, lost) => {
    expect(isEngineLoss(text)).toBe(lost);
  });
});

describe('ProgressTracker: web-llm progress texts', () => {
  it('parses a first download, then the load onto the GPU and the shaders', () => {
    const tracker = new ProgressTracker();
    const reports = [
      { progress: 0, timeElapsed: 0, text: 'Start to fetch params' },
      {
        progress: 0.25,
        timeElapsed: 4,
        text: 'Fetching param cache[10/40]: 512MB fetched. 25% completed, 4 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
      },
      {
        progress: 0.5,
        timeElapsed: 1,
        text: 'Loading model from cache[20/40]: 1024MB loaded. 50% completed, 1 secs elapsed.',
      },
      { progress: 0.9, timeElapsed: 2, text: 'Loading GPU shader modules[90/100]: 90% completed, 2 secs elapsed.' },
      { progress: 1, timeElapsed: 9, text: 'Finish loading on WebGPU - google' },
    ].map((report) => tracker.take(report));
    expect(reports.map((r) => [r.stage, r.percent, r.megabytes, r.totalMegabytes, r.shards, r.fromCache])).toEqual([
      ['preparing', 0, null, null, null, false],
      ['downloading', 25, 512, 2048, { done: 10, total: 40 }, false],
      ['loading', 50, 1024, 2048, { done: 20, total: 40 }, false],
      ['compiling', 90, null, null, { done: 90, total: 100 }, false],
      ['done', 100, null, null, null, false],
    ]);
  });

  it('marks a load that never downloaded as a cache hit', () => {
    const tracker = new ProgressTracker();
    tracker.take({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
    expect(
      tracker.take({
        progress: 0.1,
        timeElapsed: 0,
        text: 'Loading model from cache[4/40]: 205MB loaded. 10% completed, 0 secs elapsed.',
      }).fromCache,
    ).toBe(true);
    expect(tracker.take({ progress: 1, timeElapsed: 3, text: 'Finish loading on WebGPU - nvidia' }).fromCache).toBe(
      true,
    );
  });
});
