// Test tier: unit (the CLI over fakes only: no Python, no process).
import { describe, expect, it, vi } from 'vitest';
import { UsageError } from '../../src/cli/args.ts';
import { contextWindowOption, modelFromSpec } from '../../src/cli/model-spec.ts';

describe('--model', () => {
  it('builds an OpenAI-compatible model from openai:URL#MODEL', async () => {
    expect((await modelFromSpec('openai:http://127.0.0.1:8080/v1#qwen3:4b')).id).toBe(
      'openai:http://127.0.0.1:8080/v1#qwen3:4b',
    );
  });

  it.each([
    'openai:http://127.0.0.1:8080/v1',
    'openai:ftp://host/v1#m',
    'openai:http://host/v1#',
    'webllm:Qwen3-4B-q4f16_1-MLC',
    'nonsense',
  ])('refuses %j with a usage error', async (spec) => {
    const error = await modelFromSpec(spec).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^--model /);
  });
});

describe('--context-window', () => {
  const SERVER = 'openai:http://127.0.0.1:8080/v1#qwen3:4b';

  it("gives an OpenAI-compatible server's model the window, used without asking the server", async () => {
    expect(contextWindowOption(undefined, SERVER)).toBeUndefined();
    expect(contextWindowOption('4096', SERVER)).toBe(4096);
    const fetch = vi.fn(() => Promise.reject(new Error('no server here')));
    vi.stubGlobal('fetch', fetch);
    try {
      expect(await (await modelFromSpec(SERVER, 4096)).contextWindow!()).toBe(4096);
    } finally {
      vi.unstubAllGlobals();
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it.each([
    ['4k', SERVER, /--context-window needs a non-negative integer/],
    ['100', SERVER, /at least 256/],
    ['4096', 'scripted:demo.json', /applies to an openai:URL#MODEL server/],
  ])('refuses %j for %s with a usage error', (value, spec, message) => {
    expect(() => contextWindowOption(value, spec)).toThrow(UsageError);
    expect(() => contextWindowOption(value, spec)).toThrow(message);
  });
});
