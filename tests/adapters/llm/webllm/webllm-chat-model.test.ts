import { DEFAULT_TEMPLATES } from '../../../../src/core/prompts/templates.ts';
import { describe, expect, it } from 'vitest';
import { WebLlmChatModel, toWebLlmRequest } from '../../../../src/adapters/llm/webllm/webllm-chat-model.ts';
import type { EngineLease, WebLlmEngineSource } from '../../../../src/adapters/llm/webllm/webllm-engine.ts';
import { ModelLoadError } from '../../../../src/adapters/llm/webllm/webllm-errors.ts';
import { ChatModelError, type ChatModel, type ChatRequest } from '../../../../src/core/ports/chat-port.ts';
import type { EnvHandle } from '../../../../src/core/ports/sandbox-port.ts';
import { playEpisode } from '../../../../src/core/loop/play-episode.ts';
import { deferred, FakeEngine, type FakeReply } from './webllm-fakes.ts';

const MODEL = 'Qwen3-0.6B-q4f32_1-MLC';

/** A source handing out one lease per engine; `reportLost` moves to the next engine (a recovery). */
class FakeSource implements WebLlmEngineSource {
  readonly modelId = MODEL;
  contextWindowSize: number | null = 8192;
  readonly reported: Error[] = [];
  private index = 0;
  private readonly leases: Array<EngineLease & { lose(reason: Error): void }>;
  recovering: Promise<void> | null = null;
  failWith: unknown = null;

  constructor(readonly engines: FakeEngine[]) {
    this.leases = engines.map((engine) => {
      const lost = deferred<Error>();
      return { engine, lost: lost.promise, lose: lost.resolve };
    });
  }
  async lease(): Promise<EngineLease> {
    if (this.recovering) await this.recovering;
    if (this.failWith) throw this.failWith;
    return this.leases[this.index]!;
  }
  reportLost(lease: EngineLease, reason: Error): void {
    this.reported.push(reason);
    if (lease === this.leases[this.index]) this.index++;
  }
  lose(reason: Error): void {
    this.leases[this.index]!.lose(reason);
  }
}

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

function setup(...replies: FakeReply[][]) {
  const engines = (replies.length ? replies : [[]]).map((r) => new FakeEngine(r));
  const source = new FakeSource(engines);
  return { engines, engine: engines[0]!, source, model: new WebLlmChatModel(source) };
}

describe('WebLlmChatModel: requests and streaming', () => {
  it('sends the messages unchanged with stream, include_usage, seed and per-call sampling', async () => {
    const { engine, model } = setup([{ deltas: ['a'] }, { deltas: ['b'] }]);
    await model.complete(request());
    await model.complete(
      request({
        temperature: 0.3,
        topP: 1,
        maxTokens: 16,
        seed: 9,
        purpose: 'hint',
        messages: [{ role: 'user', content: 'Hint?' }],
      }),
    );
    expect(engine.requests).toEqual([
      {
        messages: [
          { role: 'system', content: 'You design environments.' },
          { role: 'user', content: 'Write one.' },
        ],
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.6,
        top_p: 0.95,
        max_tokens: 64,
        seed: 7,
      },
      {
        messages: [{ role: 'user', content: 'Hint?' }],
        stream: true,
        stream_options: { include_usage: true },
        temperature: 0.3,
        top_p: 1,
        max_tokens: 16,
        seed: 9,
      },
    ]);
  });

  it('passes enable_thinking only when set, and tool messages with the tool_call_id web-llm ignores', () => {
    const tool = request({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '<tool_call>{}</tool_call>' },
        { role: 'tool', content: '42' },
      ],
    });
    expect(toWebLlmRequest(tool, { enableThinking: false }, MODEL)).toMatchObject({
      extra_body: { enable_thinking: false },
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '<tool_call>{}</tool_call>' },
        { role: 'tool', content: '42', tool_call_id: '' },
      ],
    });
    expect('extra_body' in toWebLlmRequest(tool, {}, MODEL)).toBe(false);
  });

  it("sends the request's thinking switch as extra_body.enable_thinking to Qwen3-family models only, over the option", async () => {
    const { engine, model } = setup([{ deltas: ['a'] }, { deltas: ['b'] }]);
    await model.complete(request({ thinking: false }));
    await model.complete(request({ thinking: true }));
    expect(engine.requests.map((r) => r.extra_body)).toEqual([{ enable_thinking: false }, { enable_thinking: true }]);
    expect(
      toWebLlmRequest(request({ thinking: true }), { enableThinking: false }, 'Qwen3.5-2B-q4f16_1-MLC').extra_body,
    ).toEqual({ enable_thinking: true });
    for (const other of [
      'Llama-3.2-1B-Instruct-q4f16_1-MLC',
      'Qwen2.5-0.5B-Instruct-q4f16_1-MLC',
      'DeepSeek-R1-Distill-Qwen-7B-q4f16_1-MLC',
    ]) {
      expect(toWebLlmRequest(request({ thinking: false }), {}, other), other).not.toHaveProperty('extra_body');
    }
  });

  it('streams every delta to onToken and reports web-llm usage', async () => {
    const { model } = setup([
      { deltas: ['Hel', 'lo, ', 'wörld 🙂'], usage: { prompt_tokens: 21, completion_tokens: 3 } },
    ]);
    const seen: string[] = [];
    const result = await model.complete(request({ onToken: (delta) => seen.push(delta) }));
    expect(seen).toEqual(['Hel', 'lo, ', 'wörld 🙂']);
    expect(result).toEqual({
      text: 'Hello, wörld 🙂',
      usage: { promptTokens: 21, completionTokens: 3 },
      finishReason: 'stop',
    });
    expect(model.id).toBe(`webllm:${MODEL}`);
  });

  it('maps finish_reason length', async () => {
    const { model } = setup([{ deltas: ['x'], finish: 'length' }]);
    expect((await model.complete(request())).finishReason).toBe('length');
  });

  it('runs concurrent calls one at a time', async () => {
    const { engine, model } = setup([{ deltas: ['a', 'b'] }, { deltas: ['c'] }]);
    const [first, second] = await Promise.all([model.complete(request()), model.complete(request())]);
    expect([first.text, second.text]).toEqual(['ab', 'c']);
    expect(engine.events).toEqual(['create 1', 'done 1 stop', 'create 2', 'done 2 stop']);
  });
});

describe('WebLlmChatModel: prompts stay prefix-stable across an episode', () => {
  it('sends each turn as the previous messages, the reply without its thought, and the new observation', async () => {
    const replies = ['<think>try 3</think>\\boxed{3}', '<think>\n\n</think>\n\nLower.\\boxed{2}', '\\boxed{1}'];
    // What the history carries: a thought dropped, the empty block of a reply with thinking off kept as web-llm produced it (its KV cache matches).
    const carried = ['\\boxed{3}', replies[1], replies[2]];
    const { engine, model } = setup(replies.map((reply) => ({ deltas: [reply.slice(0, 5), reply.slice(5)] })));
    const observations = ['Guess a number from 1 to 3.', 'Too high.', 'Too high.'];
    let step = 0;
    const env: EnvHandle = {
      className: 'GuessEnv',
      hasSolution: false,
      reset: async () => ({ observation: observations[0]!, info: {} }),
      step: async () => {
        step++;
        return {
          observation: observations[step] ?? 'Correct!',
          reward: step === 3 ? 1 : 0,
          terminated: step === 3,
          truncated: false,
          info: {},
        };
      },
      solution: async () => null,
      toolFacts: async () => null,
      executeTool: async () => {
        throw new Error('this fake has no tools outside step');
      },
      renew: async () => undefined,
      dispose: async () => undefined,
    };
    const episode = await playEpisode(model, env, {
      seed: 1,
      hint: null,
      maxTurns: 5,
      stepTimeoutMs: 1000,
      sampling: { temperature: 0.6, topP: 1, maxTokens: 64 },
      thinking: { mode: 'default', budget: 0 },
      modelSeedKey: 'k',
      template: DEFAULT_TEMPLATES.agent,
    });
    expect(episode.turns).toHaveLength(3);
    expect(episode.turns.map((t) => t.reply)).toEqual(replies);
    const sent = engine.requests.map((r) => r.messages);
    expect(sent).toHaveLength(3);
    for (let turn = 1; turn < sent.length; turn++) {
      expect(sent[turn]).toEqual([
        ...sent[turn - 1]!,
        { role: 'assistant', content: carried[turn - 1] },
        { role: 'user', content: observations[turn] },
      ]);
    }
    expect(sent[0]).toEqual([
      { role: 'user', content: expect.stringContaining('Observation: Guess a number from 1 to 3.') },
    ]);
    expect(new Set(engine.requests.map((r) => r.seed)).size).toBe(3);
  });
});

describe('WebLlmChatModel: abort', () => {
  it('never calls the engine when the signal is already aborted', async () => {
    const { engine, model } = setup([]);
    const result = await model.complete(request({ signal: AbortSignal.abort() }));
    // No usage from the engine: estimated as ⌈34 characters / 4⌉ + 4 per message.
    expect(result).toEqual({ text: '', usage: { promptTokens: 17, completionTokens: 0 }, finishReason: 'abort' });
    expect(engine.requests).toEqual([]);
  });

  it('resolves at once with the text so far, interrupts the engine, and the engine serves the next call', async () => {
    const gate = deferred();
    const { engine, model } = setup([
      { deltas: ['one ', 'two ', 'three'], holdAt: 2, gate: gate.promise },
      { deltas: ['next'] },
    ]);
    const controller = new AbortController();
    const seen: string[] = [];
    const pending = model.complete(
      request({
        signal: controller.signal,
        onToken: (d) => (seen.push(d), seen.length === 2 && setTimeout(() => controller.abort(), 0)),
      }),
    );
    const result = await pending;
    expect(result.text).toBe('one two ');
    expect(result.finishReason).toBe('abort');
    expect(engine.interrupts).toBe(1);
    expect(engine.events).toEqual(['create 1']);
    gate.resolve();
    const next = await model.complete(request());
    expect(next.text).toBe('next');
    expect(engine.events).toEqual(['create 1', 'done 1 abort', 'create 2', 'done 2 stop']);
  });

  it('repeats the interrupt when the first one came before the generation began', async () => {
    const lock = deferred();
    const { engine, model } = setup([{ deltas: ['a', 'b', 'c', 'd'], lockGate: lock.promise }, { deltas: ['next'] }]);
    const controller = new AbortController();
    const pending = model.complete(request({ signal: controller.signal }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(pending).resolves.toMatchObject({ text: '', finishReason: 'abort' });
    lock.resolve();
    await expect(model.complete(request())).resolves.toMatchObject({ text: 'next' });
    expect(engine.interrupts).toBe(2);
    expect(engine.events).toEqual(['create 1', 'done 1 abort', 'create 2', 'done 2 stop']);
  });

  it('resolves at once when aborted while the engine has not answered create', async () => {
    const gate = deferred();
    const engine = new FakeEngine([]);
    const create = engine.chat.completions.create;
    engine.chat.completions.create = async (r) => (await gate.promise, create(r));
    const model = new WebLlmChatModel(new FakeSource([engine]));
    const controller = new AbortController();
    const pending = model.complete(request({ signal: controller.signal }));
    setTimeout(() => controller.abort(), 5);
    await expect(pending).resolves.toMatchObject({ text: '', finishReason: 'abort' });
    gate.resolve();
  });
});

describe('WebLlmChatModel: a lost engine', () => {
  it('waits for the recovered engine and starts the call over', async () => {
    const gate = deferred();
    const { engines, source, model } = setup(
      [{ deltas: ['par', 'tial'], holdAt: 1, gate: gate.promise }],
      [{ deltas: ['whole ', 'reply'] }],
    );
    const recovered = deferred();
    const seen: string[] = [];
    const pending = model.complete(request({ onToken: (d) => seen.push(d) }));
    await new Promise((resolve) => setTimeout(resolve, 5));
    source.recovering = recovered.promise;
    source.lose(new Error('DeviceLostError: the GPU device was lost (unknown)'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(source.reported.map((e) => e.message)).toEqual(['DeviceLostError: the GPU device was lost (unknown)']);
    recovered.resolve();
    source.recovering = null;
    const result = await pending;
    expect(result.text).toBe('whole reply');
    expect(seen).toEqual(['par', 'whole ', 'reply']);
    expect(engines[1]!.requests[0]).toEqual(engines[0]!.requests[0]);
  });

  it("treats web-llm's 'model not loaded' rejection as a loss", async () => {
    const { source, model } = setup(
      [{ deltas: [], createError: 'Error: Model not loaded before trying to complete ChatCompletionRequest.' }],
      [{ deltas: ['fine'] }],
    );
    await expect(model.complete(request())).resolves.toMatchObject({ text: 'fine' });
    expect(source.reported).toHaveLength(1);
  });

  it('gives up after maxRecoveries losses in one call', async () => {
    const lost = { deltas: [], createError: 'DeviceLostError: The WebGPU device was lost while loading the model.' };
    const { model } = setup([lost], [lost], [lost]);
    const error = await model.complete(request()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).code).toBe('unreachable');
    expect((error as ChatModelError).message).toMatch(/was lost 3 times during one call/);
  });
});

describe('WebLlmChatModel: failures', () => {
  it.each([
    [
      'Error: Prompt tokens exceed context window size: number of prompt tokens: 5000; context window size: 4096',
      'context_length',
      /longer than webllm:Qwen3-0\.6B-q4f32_1-MLC's 8192-token context window .*load the model with a larger window under "Context window"/,
    ],
    [
      'MessageOrderError: The last message should be from the `user` or `tool`.',
      'bad_response',
      /^web-llm failed on webllm:Qwen3-0\.6B-q4f32_1-MLC: MessageOrderError/,
    ],
  ])('%s -> %s', async (text, code, message) => {
    const { model } = setup([{ deltas: [], createError: text }]);
    const error = (await model.complete(request()).catch((e: unknown) => e)) as ChatModelError;
    expect(error.code).toBe(code);
    expect(error.message).toMatch(message);
  });

  it('says what to do when no model is loaded', async () => {
    const { source, model } = setup([]);
    source.failWith = new ModelLoadError(
      'network',
      'Could not download Qwen3-0.6B-q4f32_1-MLC.',
      'Check the connection.',
    );
    const error = (await model.complete(request()).catch((e: unknown) => e)) as ChatModelError;
    expect(error.code).toBe('unreachable');
    expect(error.message).toBe(
      'the local model webllm:Qwen3-0.6B-q4f32_1-MLC is not available: Could not download Qwen3-0.6B-q4f32_1-MLC.. Check the connection.',
    );
  });

  it('reports the window the model was loaded with, or null when only its own config knows', async () => {
    const { source, model } = setup([]);
    await expect(model.contextWindow()).resolves.toBe(8192);
    source.contextWindowSize = null;
    await expect(model.contextWindow()).resolves.toBeNull();
    expect((model as ChatModel).countPromptTokens).toBeUndefined();
  });

  it('refuses to be created before a model is loaded', () => {
    expect(
      () =>
        new WebLlmChatModel({ modelId: null, lease: async () => Promise.reject(new Error('x')), reportLost: () => {} }),
    ).toThrow(ChatModelError);
  });
});
