import { describe, expect, it } from 'vitest';
import { WllamaChatModel, type GenerationSpeed } from '../../../../src/adapters/llm/wllama/wllama-chat-model.ts';
import { ChatModelError, type ChatRequest } from '../../../../src/core/ports/chat-port.ts';
import { FakeWllama, wllamaError, type FakeWllamaReply } from './wllama-fakes.ts';

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [
      { role: 'system', content: 'You design environments.' },
      { role: 'user', content: 'Write one.' },
    ],
    temperature: 0.6,
    topP: 0.95,
    maxTokens: 64,
    seed: 7,
    purpose: 'designer',
    ...overrides,
  };
}

function setup(replies: FakeWllamaReply[], options: { enableThinking?: boolean } = {}) {
  const engine = new FakeWllama(replies);
  const speeds: GenerationSpeed[] = [];
  const model = new WllamaChatModel(engine, {
    modelName: 'Qwen3-0.6B-Q4_K_M.gguf',
    contextTokens: 8192,
    onSpeed: (s) => speeds.push(s),
    ...options,
  });
  return { engine, model, speeds };
}

async function failureOf(promise: Promise<unknown>): Promise<ChatModelError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ChatModelError);
  return error as ChatModelError;
}

describe('WllamaChatModel: requests and streaming', () => {
  it('is named after the file and sends the messages, per-call sampling and seed as a streaming chat call', async () => {
    const { engine, model } = setup([{ deltas: ['a'] }]);
    expect(model.id).toBe('wllama:Qwen3-0.6B-Q4_K_M.gguf');
    await model.complete(
      request({
        messages: [
          { role: 'user', content: 'Hint?' },
          { role: 'tool', content: 'x' },
        ],
        temperature: 0.3,
        topP: 1,
        maxTokens: 16,
        seed: 9,
      }),
    );
    expect(engine.requests).toEqual([
      {
        messages: [
          { role: 'user', content: 'Hint?' },
          { role: 'tool', content: 'x', tool_call_id: '' },
        ],
        temperature: 0.3,
        top_p: 1,
        max_tokens: 16,
        seed: 9,
        stream: true,
        aborted: false,
      },
    ]);
  });

  it('asks the chat template for no thinking only when told to', async () => {
    const off = setup([{ deltas: ['a'] }], { enableThinking: false });
    await off.model.complete(request());
    expect(off.engine.requests[0]).toMatchObject({ chat_template_kwargs: { enable_thinking: false } });
    const unset = setup([{ deltas: ['a'] }]);
    await unset.model.complete(request());
    expect(unset.engine.requests[0]).not.toHaveProperty('chat_template_kwargs');
  });

  it("sends the request's thinking switch as the template's enable_thinking, over the model's option", async () => {
    const { engine, model } = setup([{ deltas: ['a'] }, { deltas: ['b'] }], { enableThinking: false });
    await model.complete(request({ thinking: true }));
    await model.complete(request({ thinking: false }));
    expect(engine.requests.map((r) => r.chat_template_kwargs)).toEqual([
      { enable_thinking: true },
      { enable_thinking: false },
    ]);
  });

  it('streams every piece to onToken and returns their concatenation with the engine token counts', async () => {
    const { model, speeds } = setup([{ deltas: ['```py', 'thon\n', 'class A:'], finish: 'length' }]);
    const pieces: string[] = [];
    const result = await model.complete(request({ onToken: (p) => pieces.push(p) }));
    expect(pieces).toEqual(['```py', 'thon\n', 'class A:']);
    expect(result).toEqual({
      text: '```python\nclass A:',
      usage: { promptTokens: 12, completionTokens: 3 },
      finishReason: 'length',
    });
    expect(speeds).toEqual([
      { promptTokens: 12, promptTokensPerSecond: 100, completionTokens: 3, completionTokensPerSecond: 40 },
    ]);
  });

  it('reports a rate the engine could not measure as null, never NaN or a crash in the view', async () => {
    const { model, speeds } = setup([
      {
        deltas: ['a'],
        timings: {
          prompt_n: 0,
          cache_n: 12,
          prompt_ms: 0,
          prompt_per_second: null,
          predicted_per_second: Number.POSITIVE_INFINITY,
        },
      },
    ]);
    await model.complete(request());
    expect(speeds).toEqual([
      { promptTokens: 12, promptTokensPerSecond: null, completionTokens: 1, completionTokensPerSecond: null },
    ]);
  });

  it("finishes with 'stop' when the model ends its reply", async () => {
    const { model } = setup([{ deltas: ['done'] }]);
    await expect(model.complete(request())).resolves.toMatchObject({ text: 'done', finishReason: 'stop' });
  });

  it('runs calls one at a time', async () => {
    const { engine, model } = setup([{ deltas: ['a', 'b', 'c'] }, { deltas: ['d'] }, { deltas: ['e'] }]);
    const results = await Promise.all([
      model.complete(request()),
      model.complete(request()),
      model.complete(request()),
    ]);
    expect(results.map((r) => r.text)).toEqual(['abc', 'd', 'e']);
    expect(engine.maxActive).toBe(1);
  });
});

describe('WllamaChatModel: abort', () => {
  it('resolves with the text so far and finishReason abort; later pieces are dropped; the next call works', async () => {
    const abort = new AbortController();
    const { engine, model } = setup([
      { deltas: ['one ', 'two ', 'three ', 'four'], beforePiece: (i) => void (i === 2 && abort.abort()) },
      { deltas: ['again'] },
    ]);
    const pieces: string[] = [];
    const result = await model.complete(request({ signal: abort.signal, onToken: (p) => pieces.push(p) }));
    expect(result).toMatchObject({ text: 'one two ', finishReason: 'abort' });
    expect(pieces).toEqual(['one ', 'two ']);
    expect(engine.requests[0]!.aborted).toBe(true);
    await expect(model.complete(request())).resolves.toMatchObject({ text: 'again', finishReason: 'stop' });
  });

  it('returns at once without calling the engine when already aborted', async () => {
    const { engine, model } = setup([]);
    const abort = new AbortController();
    abort.abort();
    await expect(model.complete(request({ signal: abort.signal }))).resolves.toMatchObject({
      text: '',
      finishReason: 'abort',
    });
    expect(engine.requests).toEqual([]);
  });
});

describe('WllamaChatModel: failures', () => {
  it("turns the engine's context overflow into context_length with the loaded context and what to change", async () => {
    const { model } = setup([
      {
        deltas: [],
        error: wllamaError(
          'request (9319 tokens) exceeds the available context size (8192 tokens), try increasing it',
          'inference_error',
        ),
      },
    ]);
    const error = await failureOf(model.complete(request()));
    expect(error.code).toBe('context_length');
    expect(error.message).toBe(
      'the prompt and reply do not fit in the context of 8192 tokens that wllama:Qwen3-0.6B-Q4_K_M.gguf was loaded with (request (9319 tokens) exceeds the available context size (8192 tokens), try increasing it). Shorten the messages, lower maxTokens, or reload the model with a larger context.',
    );
  });

  it('treats a full KV cache as context_length too', async () => {
    const { model } = setup([{ deltas: ['a'], error: wllamaError('no space left', 'kv_cache_full') }]);
    await expect(failureOf(model.complete(request()))).resolves.toMatchObject({ code: 'context_length' });
  });

  it('reports a crashed engine as unreachable with the next step, and other failures as bad_response', async () => {
    const crash = Object.assign(new Error('memory access out of bounds'), { name: 'RuntimeError' });
    const { model } = setup([
      { deltas: [], error: crash },
      { deltas: [], error: wllamaError('Model failed to start inference', 'inference_error') },
    ]);
    const crashed = await failureOf(model.complete(request()));
    expect(crashed.code).toBe('unreachable');
    expect(crashed.message).toMatch(/stopped \(memory access out of bounds\)\. Reload the model/);
    const failed = await failureOf(model.complete(request()));
    expect(failed.code).toBe('bad_response');
    expect(failed.message).toMatch(
      /^the CPU engine failed on wllama:Qwen3-0\.6B-Q4_K_M\.gguf: Model failed to start inference\./,
    );
  });
});

describe('WllamaChatModel: window and prompt tokens', () => {
  it('reports the context it was loaded with', async () => {
    await expect(setup([]).model.contextWindow()).resolves.toBe(8192);
    await expect(new WllamaChatModel(new FakeWllama(), { modelName: 'x.gguf' }).contextWindow()).resolves.toBeNull();
  });

  it("counts from the engine's first prompt progress report and stops the call there", async () => {
    const { engine, model } = setup([{ deltas: ['a', 'b', 'c'], progressTotal: 42 }], { enableThinking: false });
    await expect(model.countPromptTokens(request())).resolves.toBe(42);
    expect(engine.requests).toEqual([
      {
        messages: request().messages,
        chat_template_kwargs: { enable_thinking: false },
        max_tokens: 1,
        temperature: 0,
        return_progress: true,
        stream: true,
        aborted: true,
      },
    ]);
  });

  it('renders the chat exactly as complete does (same messages and template switches)', async () => {
    const { engine, model } = setup([{ deltas: [], progressTotal: 5 }, { deltas: ['a'] }], { enableThinking: true });
    await model.countPromptTokens(request());
    await model.complete(request());
    const [counted, completed] = engine.requests;
    expect(counted!.messages).toEqual(completed!.messages);
    expect(counted!.chat_template_kwargs).toEqual(completed!.chat_template_kwargs);
  });

  it('counts a prompt the engine reports no progress for (all of it cached) from the finished call', async () => {
    const { model } = setup([{ deltas: ['a'] }]);
    await expect(model.countPromptTokens(request())).resolves.toBe(12);
  });

  it('counts a prompt longer than the window as more than the window, and fails clearly otherwise', async () => {
    const long = request({ messages: [{ role: 'user', content: 'x'.repeat(40_000) }] });
    const refused = () => ({
      deltas: [],
      error: wllamaError('the request exceeds the available context size, try increasing it', 'inference_error'),
    });
    const { model } = setup([refused(), refused()]);
    await expect(model.countPromptTokens(request())).resolves.toBe(8193);
    await expect(model.countPromptTokens(long)).resolves.toBe(10_004);
    const broken = setup([{ deltas: [], error: wllamaError('Model failed to start inference', 'inference_error') }]);
    expect((await failureOf(broken.model.countPromptTokens(request()))).code).toBe('bad_response');
  });

  it('stops counting when the caller aborts', async () => {
    const controller = new AbortController();
    const { model } = setup([{ deltas: ['a', 'b'], beforePiece: () => controller.abort() }]);
    expect((await failureOf(model.countPromptTokens(request(), controller.signal))).code).toBe('aborted');
    controller.abort();
    expect((await failureOf(model.countPromptTokens(request(), controller.signal))).code).toBe('aborted');
  });
});
