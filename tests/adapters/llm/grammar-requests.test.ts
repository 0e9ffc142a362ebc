// How each backend passes a request's grammar, with the fakes of each engine or server: wllama's
// sampling `grammar`, web-llm's `response_format`, and the field an OpenAI-compatible server of
// the named family reads (none, and `grammars` false, when no family is named).
// Test tier: unit (the CLI over fakes only: no Python, no process).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OpenAIChatModel } from '../../../src/adapters/llm/openai/openai-chat-model.ts';
import { GRAMMAR_SERVERS, isGrammarServer } from '../../../src/adapters/llm/openai/openai-grammar.ts';
import { toWebLlmRequest, WebLlmChatModel } from '../../../src/adapters/llm/webllm/webllm-chat-model.ts';
import { WllamaChatModel } from '../../../src/adapters/llm/wllama/wllama-chat-model.ts';
import type { ChatRequest, ReplyGrammar, ToolSchema } from '../../../src/core/ports/chat-port.ts';
import { grammarServerOf } from '../../../src/cli/model-spec.ts';
import { FakeOpenAIServer, streamReply } from './openai/fake-openai-server.ts';
import { FakeWllama } from './wllama/wllama-fakes.ts';

const GRAMMAR: ReplyGrammar = { name: 'boxed-action', gbnf: 'root ::= "\\\\boxed{" [a-z]+ "}"\n' };
const TOOLS: ToolSchema[] = [
  {
    type: 'function',
    function: { name: 'lookup', description: 'Look up.', parameters: { type: 'object', properties: {} } },
  },
];

function request(overrides: Partial<ChatRequest> = {}): ChatRequest {
  return {
    messages: [{ role: 'user', content: 'Play.' }],
    temperature: 0.6,
    topP: 0.95,
    maxTokens: 64,
    seed: 3,
    purpose: 'agent',
    ...overrides,
  };
}

describe('wllama', () => {
  it('honours grammars: the GBNF goes in the sampling field `grammar`, only when the request has one', async () => {
    const engine = new FakeWllama([{ deltas: ['\\boxed{a}'] }, { deltas: ['x'] }]);
    const model = new WllamaChatModel(engine, { modelName: 'tiny.gguf' });
    expect(model.grammars).toBe(true);
    await model.complete(request({ grammar: GRAMMAR }));
    await model.complete(request());
    expect(engine.requests[0]).toMatchObject({ grammar: GRAMMAR.gbnf, seed: 3, temperature: 0.6 });
    expect(engine.requests[1]).not.toHaveProperty('grammar');
  });
});

describe('web-llm', () => {
  it('honours grammars: the GBNF goes in a `grammar` response format, only when the request has one', () => {
    expect(toWebLlmRequest(request({ grammar: GRAMMAR }), {}, 'Qwen3-0.6B-q4f32_1-MLC')).toMatchObject({
      response_format: { type: 'grammar', grammar: GRAMMAR.gbnf },
      seed: 3,
    });
    expect(toWebLlmRequest(request(), {}, 'Qwen3-0.6B-q4f32_1-MLC')).not.toHaveProperty('response_format');
    const source = {
      modelId: 'Qwen3-0.6B-q4f32_1-MLC',
      lease: () => Promise.reject(new Error('unused')),
      reportLost: () => undefined,
    };
    expect(new WebLlmChatModel(source).grammars).toBe(true);
  });
});

describe('OpenAI-compatible servers', () => {
  let server: FakeOpenAIServer;
  beforeAll(async () => void (server = await FakeOpenAIServer.start()));
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const sent = async (grammarServer: (typeof GRAMMAR_SERVERS)[number] | undefined, overrides: Partial<ChatRequest>) => {
    server.enqueue(streamReply(['\\boxed{a}']));
    const model = new OpenAIChatModel({
      baseUrl: server.origin,
      model: 'qwen3',
      ...(grammarServer ? { grammarServer } : {}),
    });
    await model.complete(request(overrides));
    return { model, body: server.requests.at(-1)!.body as Record<string, unknown> };
  };

  it('send the field of the named family', async () => {
    const expected = {
      'llama.cpp': { grammar: GRAMMAR.gbnf },
      vllm: { structured_outputs: { grammar: GRAMMAR.gbnf } },
      'vllm-guided': { guided_grammar: GRAMMAR.gbnf },
      sglang: { ebnf: GRAMMAR.gbnf },
    };
    for (const family of GRAMMAR_SERVERS) {
      const { model, body } = await sent(family, { grammar: GRAMMAR });
      expect(model.grammars).toBe(true);
      expect(body).toMatchObject({ ...expected[family], model: 'qwen3', seed: 3, max_tokens: 64 });
      for (const other of GRAMMAR_SERVERS.filter((f) => f !== family))
        for (const key of Object.keys(expected[other]))
          if (!(key in expected[family])) expect(body).not.toHaveProperty(key);
    }
  });

  it('leave out the native tools beside a grammar (llama.cpp refuses both), and keep them without one', async () => {
    const constrained = await sent('llama.cpp', { grammar: GRAMMAR, tools: TOOLS });
    expect(constrained.body).not.toHaveProperty('tools');
    expect(constrained.body.grammar).toBe(GRAMMAR.gbnf);
    const free = await sent('llama.cpp', { tools: TOOLS });
    expect(free.body.tools).toEqual(TOOLS);
    expect(free.body).not.toHaveProperty('grammar');
  });

  it('without a named family: no grammar fields, tools kept, and `grammars` false', async () => {
    const { model, body } = await sent(undefined, { grammar: GRAMMAR, tools: TOOLS });
    expect(model.grammars).toBe(false);
    expect(body.tools).toEqual(TOOLS);
    for (const key of ['grammar', 'structured_outputs', 'guided_grammar', 'ebnf']) expect(body).not.toHaveProperty(key);
  });

  it('are named by OPENAI_GRAMMAR on the command line, and a wrong name is refused with the choices', () => {
    expect(grammarServerOf(undefined)).toEqual({});
    expect(grammarServerOf('')).toEqual({});
    expect(grammarServerOf('vllm')).toEqual({ grammarServer: 'vllm' });
    expect(isGrammarServer('ollama')).toBe(false);
    expect(() => grammarServerOf('ollama')).toThrow(
      'OPENAI_GRAMMAR must be one of llama.cpp, vllm, vllm-guided, sglang (how the server takes a grammar), got "ollama"',
    );
  });
});
