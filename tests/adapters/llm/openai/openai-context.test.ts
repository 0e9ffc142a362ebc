import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../../../src/adapters/llm/openai/openai-chat-model.ts';
import type { ChatMessage } from '../../../../src/core/ports/chat-port.ts';
import { FakeOpenAIServer, jsonReply, silentReply } from './fake-openai-server.ts';

const MESSAGES: ChatMessage[] = [{ role: 'user', content: 'Count me.' }];
const NOT_FOUND = () => jsonReply({ error: { message: 'Not Found' } }, 404);

describe('OpenAIChatModel: the context window and prompt counts a server offers', () => {
  let server: FakeOpenAIServer;
  // Probes get the product's own timeout (a loaded machine answers the first request slowly); the silent-server test sets a short one.
  const model = (contextWindow?: number, probeTimeoutMs?: number) =>
    new OpenAIChatModel({
      baseUrl: `${server.origin}/v1`,
      model: 'qwen3-4b',
      ...(probeTimeoutMs !== undefined ? { probeTimeoutMs } : {}),
      ...(contextWindow !== undefined ? { contextWindow } : {}),
    });
  const paths = () => server.requests.map((r) => `${r.method} ${r.path}`);

  beforeAll(async () => void (server = await FakeOpenAIServer.start()));
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it("reads vLLM's max_model_len of the model from /v1/models", async () => {
    server.enqueue(
      jsonReply({
        object: 'list',
        data: [
          { id: 'other', max_model_len: 32768 },
          { id: 'qwen3-4b', max_model_len: 4096 },
        ],
      }),
    );
    expect(await model().contextWindow()).toBe(4096);
    expect(paths()).toEqual(['GET /v1/models']);
  });

  it("falls back to llama.cpp's /props n_ctx when /v1/models does not say", async () => {
    server.enqueue(
      jsonReply({ data: [{ id: 'qwen3-4b', meta: { n_ctx_train: 40960 } }] }),
      jsonReply({ default_generation_settings: { n_ctx: 8192 }, total_slots: 1 }),
    );
    expect(await model().contextWindow()).toBe(8192);
    expect(paths()).toEqual(['GET /v1/models', 'GET /props']);
  });

  it('says null when neither endpoint answers usefully, and uses the window the user set without asking', async () => {
    server.enqueue(NOT_FOUND(), jsonReply({ default_generation_settings: { n_ctx: 'big' } }));
    expect(await model().contextWindow()).toBeNull();
    server.reset();
    expect(await model(2048).contextWindow()).toBe(2048);
    expect(server.requests).toEqual([]);
  });

  it("counts with vLLM's chat-aware /tokenize, and keeps using it", async () => {
    server.enqueue(
      jsonReply({ count: 123, max_model_len: 4096, tokens: [] }),
      jsonReply({ count: 7, max_model_len: 4096, tokens: [] }),
    );
    const m = model();
    expect(await m.countPromptTokens({ messages: MESSAGES })).toBe(123);
    expect(await m.countPromptTokens({ messages: MESSAGES })).toBe(7);
    expect(paths()).toEqual(['POST /tokenize', 'POST /tokenize']);
    expect(server.requests[0]!.body).toEqual({ model: 'qwen3-4b', messages: MESSAGES, add_generation_prompt: true });
  });

  it("counts with llama.cpp's /apply-template then /tokenize when /tokenize takes no messages", async () => {
    server.enqueue(
      jsonReply({ tokens: [] }),
      jsonReply({ prompt: '<|im_start|>user\nCount me.<|im_end|>\n<|im_start|>assistant\n' }),
      jsonReply({ tokens: [1, 2, 3, 4, 5, 6, 7, 8, 9] }),
    );
    const m = model();
    expect(await m.countPromptTokens({ messages: MESSAGES })).toBe(9);
    expect(paths()).toEqual(['POST /tokenize', 'POST /apply-template', 'POST /tokenize']);
    expect(server.requests[2]!.body).toEqual({
      content: '<|im_start|>user\nCount me.<|im_end|>\n<|im_start|>assistant\n',
      add_special: true,
    });
    server.reset();
    server.enqueue(jsonReply({ prompt: 'p' }), jsonReply({ tokens: [1, 2] }));
    expect(await m.countPromptTokens({ messages: MESSAGES })).toBe(2);
    expect(paths()).toEqual(['POST /apply-template', 'POST /tokenize']);
  });

  it('rejects a count when the server offers no tokenizer, and does not ask again', async () => {
    server.enqueue(NOT_FOUND(), NOT_FOUND());
    const m = model();
    await expect(m.countPromptTokens({ messages: MESSAGES })).rejects.toThrow('offers no prompt token count');
    await expect(m.countPromptTokens({ messages: MESSAGES })).rejects.toThrow('offers no prompt token count');
    expect(paths()).toEqual(['POST /tokenize', 'POST /apply-template']);
  });

  it('gives up on a probe the server never answers after the probe timeout, as unknown', async () => {
    server.enqueue(silentReply(), silentReply());
    const started = Date.now();
    expect(await model(undefined, 300).contextWindow()).toBeNull();
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
