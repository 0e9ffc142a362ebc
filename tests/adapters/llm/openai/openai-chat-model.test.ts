import { createServer } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChatModelError, type ChatRequest } from '../../../../src/core/ports/chat-port.ts';
import { OpenAIChatModel, type OpenAIChatModelOptions } from '../../../../src/adapters/llm/openai/openai-chat-model.ts';
import { SseDecoder } from '../../../../src/adapters/llm/openai/sse-lines.ts';
import { FakeOpenAIServer, jsonReply, rawReply, silentReply, streamReply, trickleReply } from './fake-openai-server.ts';

const DELTAS = ['Hel', 'lo, ', 'wörld 🙂', '\n```python\nx = {1}\n```'];
const USAGE = { prompt_tokens: 17, completion_tokens: 9 };
const LLAMA_CPP_OVERFLOW = {
  error: {
    code: 400,
    message: 'the request exceeds the available context size, try increasing it',
    type: 'exceed_context_size_error',
    n_prompt_tokens: 5000,
    n_ctx: 4096,
  },
};
const VLLM_OVERFLOW = {
  object: 'error',
  message:
    "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
  type: 'BadRequestError',
  param: null,
  code: 400,
};

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  const messages: ChatRequest['messages'] = [
    { role: 'system', content: 'You design environments.' },
    { role: 'user', content: 'Write one.' },
  ];
  return { messages, temperature: 0.7, topP: 0.9, maxTokens: 64, seed: 42, purpose: 'designer', ...overrides };
}

async function failure(pending: Promise<unknown>, code: ChatModelError['code']): Promise<ChatModelError> {
  const error = await pending.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  expect((error as ChatModelError).code).toBe(code);
  return error as ChatModelError;
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('SseDecoder', () => {
  const stream =
    ': hello\r\n\r\ndata: {"a":1}\r\ndata: {"b":2}\r\n\r\nid: 3\ndata: two\ndata:lines\n\nevent: x\rdata: cr 🙂 é\r\r:c\n\ndata: [DONE]\n\n';
  const expected = ['{"a":1}\n{"b":2}', 'two\nlines', 'cr 🙂 é', '[DONE]'];
  const bytes = new TextEncoder().encode(stream);

  it('yields the same payloads wherever the bytes are cut (inside CRLF, inside a UTF-8 character)', () => {
    for (let a = 0; a <= bytes.length; a++) {
      for (let b = a; b <= bytes.length; b += 5) {
        const decoder = new SseDecoder();
        const got = [bytes.subarray(0, a), bytes.subarray(a, b), bytes.subarray(b)].flatMap((piece) =>
          decoder.push(piece),
        );
        expect([...got, ...decoder.end()], `cut at ${a}, ${b}`).toEqual(expected);
      }
    }
    const decoder = new SseDecoder();
    expect([...bytes].flatMap((byte) => decoder.push(Uint8Array.of(byte)))).toEqual(expected);
  });

  it('flushes an event without a final blank line and keeps the body of a non-SSE reply', () => {
    const sse = new SseDecoder();
    expect([...sse.push('data: last'), ...sse.end()]).toEqual(['last']);
    expect(sse.body).toBeNull();
    const json = new SseDecoder();
    expect([...json.push('{"choices":\n'), ...json.push('[]}'), ...json.end()]).toEqual([]);
    expect(json.body).toBe('{"choices":\n[]}');
  });
});

describe('OpenAIChatModel against a fake OpenAI-compatible server', () => {
  let server: FakeOpenAIServer;
  const model = (options: Partial<OpenAIChatModelOptions> = {}): OpenAIChatModel =>
    new OpenAIChatModel({
      baseUrl: server.origin,
      model: 'qwen3-4b',
      retryDelayMs: 10,
      requestTimeoutMs: 5_000,
      ...options,
    });

  beforeAll(async () => void (server = await FakeOpenAIServer.start()));
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  it('streams text and onToken deltas exactly, ignores reasoning, sends the exact body, reads usage', async () => {
    server.enqueue(streamReply(DELTAS, { reasoning: ['<think>', 'hmm'], usage: USAGE, crlf: true }));
    const tokens: string[] = [];
    const result = await model({ apiKey: 'sk-local' }).complete(request({ onToken: (d) => tokens.push(d) }));
    expect(tokens).toEqual(DELTAS);
    expect(result).toEqual({
      text: DELTAS.join(''),
      usage: { promptTokens: 17, completionTokens: 9 },
      finishReason: 'stop',
    });
    expect(server.requests).toHaveLength(1);
    const [sent] = server.requests;
    expect([sent!.method, sent!.path, sent!.headers.authorization, sent!.headers['content-type']]).toEqual([
      'POST',
      '/v1/chat/completions',
      'Bearer sk-local',
      'application/json',
    ]);
    const fields = { temperature: 0.7, top_p: 0.9, max_tokens: 64, seed: 42 };
    expect(sent!.body).toEqual({
      model: 'qwen3-4b',
      messages: request().messages,
      stream: true,
      stream_options: { include_usage: true },
      ...fields,
    });
  });

  it('sends the thinking switch as chat_template_kwargs.enable_thinking, only when the request sets it', async () => {
    server.enqueue(streamReply(['a']), streamReply(['b']));
    await model().complete(request({ thinking: false }));
    await model().complete(request({ thinking: true }));
    const fields = { temperature: 0.7, top_p: 0.9, max_tokens: 64, seed: 42 };
    const base = {
      model: 'qwen3-4b',
      messages: request().messages,
      stream: true,
      stream_options: { include_usage: true },
      ...fields,
    };
    expect(server.requests.map((r) => r.body)).toEqual([
      { ...base, chat_template_kwargs: { enable_thinking: false } },
      { ...base, chat_template_kwargs: { enable_thinking: true } },
    ]);
  });

  it('handles many events per chunk and reports finish reason length', async () => {
    server.enqueue(streamReply(DELTAS, { finish: 'length', usage: USAGE, pieces: 'whole' }));
    const result = await model().complete(request());
    expect(result.text).toBe(DELTAS.join(''));
    expect(result.finishReason).toBe('length');
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('estimates usage as characters / 4 (+4 per prompt message) when the server sends none', async () => {
    server.enqueue(streamReply(['abcdefghij']));
    const result = await model().complete(request());
    const promptChars = request().messages.reduce((n, m) => n + m.content.length, 0);
    expect(result.usage).toEqual({ promptTokens: Math.ceil(promptChars / 4) + 8, completionTokens: 3 });
  });

  it('accepts a plain JSON completion from a server that ignores stream', async () => {
    server.enqueue(
      jsonReply({
        choices: [{ index: 0, message: { role: 'assistant', content: 'plain answer' }, finish_reason: 'length' }],
        usage: USAGE,
      }),
    );
    const tokens: string[] = [];
    const result = await model().complete(request({ onToken: (d) => tokens.push(d) }));
    expect(result).toEqual({
      text: 'plain answer',
      usage: { promptTokens: 17, completionTokens: 9 },
      finishReason: 'length',
    });
    expect(tokens).toEqual(['plain answer']);
  });

  it('posts to /v1/chat/completions whether baseUrl has /v1, a trailing slash, or neither', async () => {
    for (const baseUrl of [server.origin, `${server.origin}/`, `${server.origin}/v1`, `${server.origin}/v1/`]) {
      server.enqueue(streamReply(['ok']));
      const m = model({ baseUrl });
      expect((await m.complete(request())).text).toBe('ok');
      expect(m.url).toBe(`${server.origin}/v1/chat/completions`);
    }
    expect(server.requests.map((r) => r.path)).toEqual(Array(4).fill('/v1/chat/completions'));
    expect(model().id).toBe(`openai:${server.origin}#qwen3-4b`);
    expect(() => model({ baseUrl: '127.0.0.1:8080' })).toThrow(/not an http\(s\) URL/);
  });

  it('uses an injected fetch', async () => {
    server.enqueue(streamReply(['via injected fetch']));
    const urls: string[] = [];
    const result = await model({ fetch: (url, init) => (urls.push(url), fetch(url, init)) }).complete(request());
    expect(result.text).toBe('via injected fetch');
    expect(urls).toEqual([`${server.origin}/v1/chat/completions`]);
  });

  it('retries after 500 and 429 (counting requests), then succeeds', async () => {
    server.enqueue(
      jsonReply({ error: { message: 'loading model' } }, 500),
      rawReply(429, 'text/plain', 'slow down'),
      streamReply(['fine']),
    );
    expect((await model().complete(request())).text).toBe('fine');
    expect(server.requests).toHaveLength(3);
  });

  it('gives up after maxRetries with http_error naming status, URL and server message', async () => {
    server.enqueue(...Array.from({ length: 4 }, () => jsonReply({ error: { message: 'CUDA out of memory' } }, 500)));
    const error = await failure(model({ maxRetries: 2 }).complete(request()), 'http_error');
    expect(error.message).toContain('HTTP 500');
    expect(error.message).toContain(`${server.origin}/v1/chat/completions`);
    expect(error.message).toContain('CUDA out of memory');
    expect(server.requests).toHaveLength(3);
  });

  it('never retries a 400 or a 404', async () => {
    server.enqueue(jsonReply({ error: { message: 'bad temperature' } }, 400), streamReply(['never']));
    const bad = await failure(model().complete(request()), 'http_error');
    expect(bad.message).toContain('bad temperature');
    expect(server.requests).toHaveLength(1);
    server.reset();
    server.enqueue(rawReply(404, 'text/plain', 'File Not Found'), streamReply(['never']));
    const missing = await failure(model().complete(request()), 'http_error');
    expect(missing.message).toMatch(/HTTP 404 .*File Not Found.*Check baseUrl/);
    expect(server.requests).toHaveLength(1);
  });

  it('maps llama.cpp and vLLM context overflow to context_length without retrying', async () => {
    for (const body of [LLAMA_CPP_OVERFLOW, VLLM_OVERFLOW]) {
      server.reset();
      server.enqueue(jsonReply(body, 400), streamReply(['never']));
      const error = await failure(model().complete(request()), 'context_length');
      expect(error.message).toContain('--ctx-size');
      expect(server.requests).toHaveLength(1);
    }
  });

  it('never retries once tokens have streamed', async () => {
    server.enqueue(streamReply(['partial'], { cut: true }), streamReply(['never']));
    const tokens: string[] = [];
    await failure(model().complete(request({ onToken: (d) => tokens.push(d) })), 'unreachable');
    expect(tokens).toEqual(['partial']);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a port nobody listens on as unreachable, quickly', async () => {
    const port = await closedPort();
    const started = Date.now();
    const error = await failure(model({ baseUrl: `http://127.0.0.1:${port}` }).complete(request()), 'unreachable');
    expect(error.message).toContain(`http://127.0.0.1:${port}/v1/chat/completions`);
    expect(error.message).toContain('is the server running?');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('reports garbage as bad_response: HTML, JSON without choices, invalid JSON in a data line', async () => {
    const invalidData = 'data: {"choices":[{"delta":{"content":"a"}}]}\n\ndata: {"choices":[{"delta":\n\n';
    const replies = [
      rawReply(200, 'text/html', '<!DOCTYPE html><html><body><h1>Welcome to nginx!</h1></body></html>'),
      jsonReply({ object: 'list', data: [] }),
      rawReply(200, 'text/event-stream', invalidData),
      rawReply(200, 'text/event-stream', 'data: [DONE]\n\n'),
    ];
    for (const reply of replies) {
      server.reset();
      server.enqueue(reply, streamReply(['never']));
      const error = await failure(model().complete(request()), 'bad_response');
      expect(error.message).toContain(`${server.origin}/v1/chat/completions`);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('reports an error event inside the stream', async () => {
    server.enqueue(rawReply(200, 'text/event-stream', `data: ${JSON.stringify(LLAMA_CPP_OVERFLOW)}\n\n`));
    await failure(model().complete(request()), 'context_length');
  });

  it('times out on silence before headers and mid-stream, within the configured timeout, without retrying', async () => {
    for (const reply of [silentReply(), streamReply(['a', 'b'], { stall: true })]) {
      server.reset();
      server.enqueue(reply, streamReply(['never']));
      const started = Date.now();
      const error = await failure(model({ requestTimeoutMs: 300 }).complete(request()), 'timeout');
      const elapsed = Date.now() - started;
      expect(error.message).toContain('requestTimeoutMs');
      expect(elapsed).toBeGreaterThanOrEqual(250);
      expect(elapsed).toBeLessThan(1_500);
      expect(server.requests).toHaveLength(1);
    }
  });

  it('caps the whole call with totalTimeoutMs even when keep-alives prevent silence', async () => {
    server.enqueue(trickleReply(50));
    const started = Date.now();
    const error = await failure(model({ requestTimeoutMs: 300, totalTimeoutMs: 700 }).complete(request()), 'timeout');
    expect(error.message).toContain('totalTimeoutMs');
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('resolves an abort mid-stream with the text so far and finishReason abort; the model works afterwards', async () => {
    server.enqueue(streamReply(['one ', 'two '], { stall: true }), streamReply(['next call'], { usage: USAGE }));
    const m = model();
    const controller = new AbortController();
    const tokens: string[] = [];
    const onToken = (delta: string): void => {
      tokens.push(delta);
      if (tokens.length === 2) setTimeout(() => controller.abort(), 20);
    };
    const started = Date.now();
    const aborted = await m.complete(request({ signal: controller.signal, onToken }));
    expect(aborted.text).toBe('one two ');
    expect(aborted.finishReason).toBe('abort');
    expect(aborted.usage.completionTokens).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(2_000);
    const next = await m.complete(request());
    expect(next).toEqual({ text: 'next call', usage: { promptTokens: 17, completionTokens: 9 }, finishReason: 'stop' });
    expect(server.requests).toHaveLength(2);
  });

  it('resolves an abort before headers, and an already-aborted signal without any request', async () => {
    server.enqueue(silentReply());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    expect(await model().complete(request({ signal: controller.signal }))).toMatchObject({
      text: '',
      finishReason: 'abort',
    });
    expect(server.requests).toHaveLength(1);
    expect(await model().complete(request({ signal: controller.signal }))).toMatchObject({
      text: '',
      finishReason: 'abort',
    });
    expect(server.requests).toHaveLength(1);
  });

  it('resolves an abort during retry backoff without another request', async () => {
    server.enqueue(jsonReply({ error: { message: 'busy' } }, 503), streamReply(['never']));
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 150);
    const started = Date.now();
    const result = await model({ retryDelayMs: 5_000 }).complete(request({ signal: controller.signal }));
    expect(result).toMatchObject({ text: '', finishReason: 'abort' });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(server.requests).toHaveLength(1);
  });

  it('removes its abort listener after every call, whatever the outcome', async () => {
    const listeners = new Set<() => void>();
    const signal = {
      aborted: false,
      addEventListener: (_: 'abort', l: () => void) => listeners.add(l),
      removeEventListener: (_: 'abort', l: () => void) => listeners.delete(l),
    };
    server.enqueue(
      streamReply(['ok']),
      jsonReply({ error: { message: 'nope' } }, 400),
      jsonReply({ error: { message: 'busy' } }, 500),
      streamReply(['ok']),
    );
    await model().complete(request({ signal }));
    await failure(model().complete(request({ signal })), 'http_error');
    await model().complete(request({ signal }));
    expect(listeners.size).toBe(0);
  });
});
