import { describe, expect, it } from 'vitest';
import {
  contextWindowOf,
  fitRequest,
  fixedLadder,
  type PromptLadder,
  type RequestBudget,
} from '../../../src/core/budget/fit-request.ts';
import { estimatePromptTokens } from '../../../src/core/budget/prompt-estimate.ts';
import { MIN_REPLY_TOKENS } from '../../../src/core/budget/reply-room.ts';
import {
  ChatModelError,
  type ChatMessage,
  type ChatModel,
  type ChatPurpose,
} from '../../../src/core/ports/chat-port.ts';

const user = (content: string): ChatMessage => ({ role: 'user', content });

/** A model with this window that counts one token per character, and what it was asked. */
function windowed(
  window: number | null,
  count: ((messages: ChatMessage[]) => number) | null = (m) => m.reduce((n, x) => n + x.content.length, 0),
) {
  const asked = { window: 0, counts: 0 };
  const fitted: Array<{ purpose: ChatPurpose; budget: RequestBudget }> = [];
  const model: ChatModel & { onFitted(purpose: ChatPurpose, budget: RequestBudget): void } = {
    id: 'test:windowed',
    complete: () => Promise.reject(new Error('never sent in these tests')),
    contextWindow: async () => {
      asked.window++;
      return window;
    },
    ...(count
      ? { countPromptTokens: async (request: { messages: ChatMessage[] }) => (asked.counts++, count(request.messages)) }
      : {}),
    onFitted: (purpose, budget) => fitted.push({ purpose, budget }),
  };
  return { model, asked, fitted };
}

/** A ladder whose level k prompt is `sizes[k]` characters long. */
const sized =
  (...sizes: number[]): PromptLadder =>
  (level) =>
    level < sizes.length ? [user('x'.repeat(sizes[level]!))] : null;

describe('fitting a request to the context window', () => {
  it('sends the whole prompt and the configured reply length, unmeasured, when the window is unknown', async () => {
    for (const { model, asked, fitted } of [
      windowed(null),
      {
        model: { id: 'plain', complete: () => Promise.reject(new Error('x')) } as ChatModel,
        asked: { counts: 0 },
        fitted: [],
      },
    ]) {
      const out = await fitRequest(model, { purpose: 'designer', maxTokens: 4096, ladder: sized(50_000, 10) });
      expect(out).toEqual({ messages: [user('x'.repeat(50_000))], maxTokens: 4096, budget: null });
      expect(asked.counts).toBe(0);
      expect(fitted).toEqual([]);
    }
  });

  it('lowers max_tokens to what the window leaves after the prompt, never raising it', async () => {
    const { model, fitted } = windowed(4096);
    const tight = await fitRequest(model, { purpose: 'designer', maxTokens: 4096, ladder: sized(1384) });
    expect(tight.maxTokens).toBe(4096 - 1384);
    expect(tight.budget).toEqual({ promptTokens: 1384, window: 4096, maxTokens: 2712, trimLevel: 0 });
    const roomy = await fitRequest(model, { purpose: 'hint', maxTokens: 256, ladder: sized(500) });
    expect(roomy.maxTokens).toBe(256);
    expect(fitted.map((f) => f.purpose)).toEqual(['designer', 'hint']);
  });

  it('trims level by level until the prompt leaves the role\u2019s minimum reply room', async () => {
    const { model } = windowed(4096);
    const room = MIN_REPLY_TOKENS.designer;
    const out = await fitRequest(model, {
      purpose: 'designer',
      maxTokens: 4096,
      ladder: sized(4000, 3000, 4096 - room, 100),
    });
    expect(out.budget).toEqual({ promptTokens: 4096 - room, window: 4096, maxTokens: room, trimLevel: 2 });
    expect(out.messages[0]!.content).toHaveLength(4096 - room);
  });

  it('needs only the configured reply length when that is below the role\u2019s minimum', async () => {
    const { model } = windowed(1000);
    const out = await fitRequest(model, { purpose: 'agent', maxTokens: 64, ladder: sized(936) });
    expect(out.budget).toMatchObject({ maxTokens: 64, trimLevel: 0 });
  });

  it('fails before sending, naming the role, the prompt tokens and the window, when even the last level does not fit', async () => {
    const { model, fitted } = windowed(4096);
    const error = await fitRequest(model, { purpose: 'repair', maxTokens: 4096, ladder: sized(6000, 3900) }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).code).toBe('context_length');
    expect((error as ChatModelError).message).toMatch(
      /the repair request does not fit the model's 4096-token context window: its prompt is 3900 tokens .*needs at least 1536\. It was not sent\./,
    );
    expect(fitted).toEqual([]);
  });

  it('asks the model for its window once, however many requests it fits', async () => {
    const { model, asked } = windowed(8192);
    await Promise.all(
      Array.from({ length: 5 }, () =>
        fitRequest(model, { purpose: 'hint', maxTokens: 256, ladder: fixedLadder([user('hello')]) }),
      ),
    );
    expect(asked.window).toBe(1);
    expect(await contextWindowOf(model)).toBe(8192);
  });

  it('falls back to the estimate when the model cannot count, or its count fails', async () => {
    const messages = [user('a'.repeat(3000))];
    const estimate = estimatePromptTokens({ messages });
    for (const count of [null, () => Promise.reject(new Error('tokenize is down')) as unknown as number]) {
      const { model } = windowed(4096, count as null);
      const out = await fitRequest(model, { purpose: 'agent', maxTokens: 1024, ladder: fixedLadder(messages) });
      expect(out.budget?.promptTokens).toBe(estimate);
    }
  });

  it('treats a window that is not a positive whole number, or a probe that fails, as unknown', async () => {
    for (const answer of [0, -5, 1.5, Number.NaN]) expect(await contextWindowOf(windowed(answer).model)).toBeNull();
    const failing: ChatModel = {
      id: 'x',
      complete: () => Promise.reject(new Error('x')),
      contextWindow: () => Promise.reject(new Error('down')),
    };
    expect(await contextWindowOf(failing)).toBeNull();
  });
});

describe('the prompt estimate', () => {
  it('counts a third of a token per character plus the framing of each message and of the request', () => {
    expect(
      estimatePromptTokens({ messages: [user('x'.repeat(300)), { role: 'assistant', content: 'y'.repeat(301) }] }),
    ).toBe(100 + 101 + 2 * 8 + 32);
    const tools = [{ type: 'function' as const, function: { name: 'f', description: 'd', parameters: {} } }];
    expect(estimatePromptTokens({ messages: [user('')], tools })).toBe(
      Math.ceil(JSON.stringify(tools).length / 3) + 8 + 32,
    );
  });
});
