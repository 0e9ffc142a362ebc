import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/cli/args.ts';
import { modelFromSpec } from '../../src/cli/model-spec.ts';

describe('--model', () => {
  it('builds an OpenAI-compatible model from openai:URL#MODEL', async () => {
    expect((await modelFromSpec('openai:http://127.0.0.1:8080/v1#qwen3:4b')).id).toBe('openai:http://127.0.0.1:8080/v1#qwen3:4b');
  });

  it.each(['openai:http://127.0.0.1:8080/v1', 'openai:ftp://host/v1#m', 'openai:http://host/v1#', 'webllm:Qwen3-4B-q4f16_1-MLC', 'nonsense'])('refuses %j with a usage error', async (spec) => {
    const error = await modelFromSpec(spec).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UsageError);
    expect((error as Error).message).toMatch(/^--model /);
  });
});
