import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { ChatModelError, type ChatRequest } from '../../../../src/core/ports/chat-port.ts';

const request = (purpose: ChatRequest['purpose'], ...contents: string[]): ChatRequest => ({
  messages: contents.map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content })),
  temperature: 0.6,
  topP: 0.95,
  maxTokens: 100,
  seed: 1,
  purpose,
});

describe('ScriptedChatModel', () => {
  const script = parseChatScript({
    name: 'demo',
    rules: [
      { purpose: 'agent', in: 'all', match: 'code is (\\d+)', replies: ['\\boxed{$1}'] },
      { purpose: ['agent', 'hint'], match: '^Turn', replies: ['first', 'second'] },
      { replies: ['fallback'] },
    ],
  });

  it('chooses by purpose and content, inserting capture groups', async () => {
    const model = new ScriptedChatModel(script);
    expect(model.id).toBe('scripted:demo');
    expect((await model.complete(request('agent', 'The code is 42', 'hm', 'Turn 2'))).text).toBe('\\boxed{42}');
    expect((await model.complete(request('designer', 'code is 42'))).text).toBe('fallback');
  });

  it("uses a rule's replies in turn, repeating the last", async () => {
    const model = new ScriptedChatModel(script);
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await model.complete(request('hint', 'Turn'))).text);
    expect(texts).toEqual(['first', 'second', 'second']);
  });

  it('streams the reply in pieces that add up, with estimated usage', async () => {
    const model = new ScriptedChatModel({ rules: [{ replies: ['alpha beta  gamma'] }] });
    const pieces: string[] = [];
    const result = await model.complete({ ...request('agent', 'go'), onToken: (d) => pieces.push(d) });
    expect(pieces).toEqual(['alpha', ' beta', '  gamma']);
    expect(result).toEqual({
      text: 'alpha beta  gamma',
      usage: { promptTokens: 1, completionTokens: 5 },
      finishReason: 'stop',
    });
  });

  it('stops at an abort with the text so far', async () => {
    const model = new ScriptedChatModel({ rules: [{ replies: ['one two three'] }] });
    let aborted = false;
    const signal = {
      get aborted() {
        return aborted;
      },
      addEventListener() {},
      removeEventListener() {},
    };
    const result = await model.complete({
      ...request('agent', 'go'),
      signal,
      onToken: (d) => {
        if (d === ' two') aborted = true;
      },
    });
    expect(result).toMatchObject({ text: 'one two', finishReason: 'abort' });
  });

  it('accepts a function script and fails clearly when nothing matches', async () => {
    const model = new ScriptedChatModel((r) => (r.purpose === 'hint' ? 'a hint' : undefined));
    expect((await model.complete(request('hint', 'x'))).text).toBe('a hint');
    await expect(model.complete(request('agent', 'play'))).rejects.toThrow(ChatModelError);
    await expect(model.complete(request('agent', 'play'))).rejects.toMatchObject({ code: 'no_script_match' });
  });

  it('rejects malformed scripts with the exact problem', () => {
    expect(() => parseChatScript({})).toThrow('non-empty "rules"');
    expect(() => parseChatScript({ rules: [{ replies: [] }] })).toThrow('rule 0 needs "replies"');
    expect(() => parseChatScript({ rules: [{ replies: ['x'], match: '(' }] })).toThrow('invalid "match"');
  });
});

describe('ScriptedChatModel: an optional context window', () => {
  const script = parseChatScript({ rules: [{ replies: ['ok'] }] });

  it('has none by default: any request is answered and the window is null', async () => {
    const model = new ScriptedChatModel(script);
    await expect(model.contextWindow()).resolves.toBeNull();
    expect((await model.complete({ ...request('designer', 'x'.repeat(40_000)), maxTokens: 100_000 })).text).toBe('ok');
  });

  it('reports the window given and refuses a request whose prompt plus maxTokens exceeds it, as a server does', async () => {
    const model = new ScriptedChatModel(script, 'windowed', 0, { contextWindow: 200 });
    await expect(model.contextWindow()).resolves.toBe(200);
    // 400 characters are 100 prompt tokens by the shared estimate (what usage reports).
    const fits = await model.complete(request('agent', 'x'.repeat(400)));
    expect(fits.usage.promptTokens).toBe(100);
    const refused = await model.complete({ ...request('agent', 'x'.repeat(404)) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ChatModelError);
    expect(refused).toMatchObject({ code: 'context_length' });
    expect((refused as Error).message).toBe(
      'scripted:windowed holds 200 tokens; this agent request asks for 101 prompt tokens plus maxTokens 100. Shorten the prompt or lower maxTokens.',
    );
  });
});
