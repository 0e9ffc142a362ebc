import { describe, expect, it } from 'vitest';
import { fileNameOf } from '../../../../src/adapters/llm/wllama/wllama-cache.ts';
import {
  estimateCpuSpeed,
  formatBytes,
  formatRate,
  formatSpeed,
  RECOMMENDED_GGUF_MODELS,
  threadSpeedup,
} from '../../../../src/adapters/llm/wllama/wllama-catalog.ts';
import { cpuEnvironment, needsCompatBuild } from '../../../../src/adapters/llm/wllama/wllama-engine.ts';

describe('threads', () => {
  it('uses one thread unless the page is cross-origin isolated, then half the logical processors (2 to 8)', () => {
    const env = (crossOriginIsolated: boolean, hardwareConcurrency?: number) =>
      cpuEnvironment({ crossOriginIsolated, navigator: { hardwareConcurrency } }).threads;
    expect([
      env(false, 16),
      env(true, 1),
      env(true, 2),
      env(true, 3),
      env(true, 8),
      env(true, 32),
      env(true, undefined),
    ]).toEqual([1, 1, 2, 2, 4, 8, 1]);
    expect(cpuEnvironment({ crossOriginIsolated: true, navigator: { hardwareConcurrency: 8 } })).toEqual({
      crossOriginIsolated: true,
      hardwareConcurrency: 8,
      threads: 4,
    });
  });

  it('needs the compatibility build without JSPI or Memory64, except in Firefox', () => {
    const browser = (jspi: boolean, memory64: boolean, userAgent: string) => {
      const Memory = class {
        constructor(descriptor: { address?: string }) {
          if (descriptor.address === 'i64' && !memory64) throw new TypeError('address');
        }
      };
      return needsCompatBuild({
        WebAssembly: { Memory, ...(jspi ? { Suspending: class {} } : {}) } as unknown as typeof WebAssembly,
        navigator: { userAgent },
      });
    };
    expect(browser(true, true, 'Chrome/140')).toBe(false);
    expect(browser(false, true, 'Chrome/120')).toBe(true);
    expect(browser(false, false, 'Version/18.4 Safari/605.1.15')).toBe(true);
    expect(browser(false, true, 'Gecko/20100101 Firefox/140.0')).toBe(false);
  });

  it('expects 0.6 more speed per added thread, at most 3.5 times', () => {
    expect([1, 2, 4, 5, 8].map(threadSpeedup)).toEqual([1, 1.6, 2.8, 3.4, 3.5]);
  });
});

describe('estimateCpuSpeed', () => {
  it('derives generation from memory bandwidth and prompt reading from arithmetic (closed form)', () => {
    const one = estimateCpuSpeed(400e6, 1, 0.6);
    expect(one.generate).toEqual([3, 8]);
    expect(one.readPrompt[0]).toBeCloseTo(10e9 / 1.2e9, 9);
    expect(one.readPrompt[1]).toBeCloseTo(40e9 / 1.2e9, 9);
    expect(one.designerCallSeconds[0]).toBeCloseTo(1500 / (40e9 / 1.2e9) + 1000 / 8, 9);
    expect(one.designerCallSeconds[1]).toBeCloseTo(1500 / (10e9 / 1.2e9) + 1000 / 3, 9);
    expect(one.basis).toMatch(/^estimate from the file size and 1 thread, not a measurement/);
    const four = estimateCpuSpeed(400e6, 4, 0.6);
    expect(four.generate[0]).toBeCloseTo(3 * 2.8, 9);
  });

  it('guesses parameters from the size of a 4-bit file when they are unknown', () => {
    expect(estimateCpuSpeed(490e6, 1).readPrompt[0]).toBeCloseTo(10e9 / (2 * ((490e6 * 8) / 4.9)), 9);
  });

  it('ranks the recommended models: the larger is slower', () => {
    const [small, large] = RECOMMENDED_GGUF_MODELS.map((m) => estimateCpuSpeed(m.approxBytes, 1, m.paramsB));
    expect(large!.generate[1]).toBeLessThan(small!.generate[1]);
    expect(
      RECOMMENDED_GGUF_MODELS.every((m) => /^https:\/\/huggingface\.co\/.+\/resolve\/main\/.+\.gguf$/.test(m.url)),
    ).toBe(true);
  });
});

describe('formatting', () => {
  it('formats speeds, sizes and file names for the screen', () => {
    expect(formatSpeed([3, 8.04])).toBe('3.0–8.0 tokens/s');
    expect(formatSpeed([8.3, 33.3])).toBe('8.3–33 tokens/s');
    expect([formatRate(40), formatRate(null)]).toEqual(['40.0 tokens/s', 'no rate reported']);
    expect([formatBytes(488_800), formatBytes(397e6), formatBytes(1.11e9)]).toEqual(['488.8 kB', '397 MB', '1.11 GB']);
    expect(
      fileNameOf('https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q4_K_M.gguf?download=true'),
    ).toBe('Qwen3-0.6B-Q4_K_M.gguf');
    expect(fileNameOf('http://127.0.0.1:1/models/my%20model.gguf')).toBe('my model.gguf');
  });
});
