// A stand-in for vLLM started with --max-model-len: it reports the window in /v1/models, counts
// each chat request's prompt with Qwen3's tokenizer over its own ChatML rendering (the client
// cannot see this count: there is no /tokenize), refuses prompt + max_tokens above the window
// with vLLM's HTTP 400, and otherwise answers from a chat script, cut at max_tokens as a real
// server cuts a reply.
import type { ChatModel, ToolSchema } from '../../src/core/ports/chat-port.ts';
import {
  coreMessages,
  FakeOpenAIServer,
  jsonReply,
  purposeOf,
  streamReply,
  type Reply,
} from '../adapters/llm/openai/fake-openai-server.ts';
import { qwen3PromptTokens, qwen3Truncate } from '../fixtures/qwen3-chatml.ts';

/** What the stand-in saw. */
export interface StandInLog {
  served: number;
  refused: string[];
  /** The largest prompt + max_tokens of a served request. */
  largestRequest: number;
  /** Replies cut at max_tokens. */
  cut: number;
}

type Body = {
  messages: Parameters<typeof coreMessages>[0];
  max_tokens: number;
  seed: number;
  temperature: number;
  top_p: number;
  tools?: unknown[];
};

/** Starts the stand-in on 127.0.0.1 with this window, answering with `model` (a fresh scripted model per server). */
export async function startVllmStandIn(
  model: ChatModel,
  window: number,
  name = 'qwen3-stand-in',
): Promise<{ server: FakeOpenAIServer; log: StandInLog }> {
  const server = await FakeOpenAIServer.start();
  const log: StandInLog = { served: 0, refused: [], largestRequest: 0, cut: 0 };
  server.respondWith(async (raw, path): Promise<Reply> => {
    if (path === '/v1/models')
      return jsonReply({ object: 'list', data: [{ id: name, object: 'model', max_model_len: window }] });
    if (path !== '/v1/chat/completions') return jsonReply({ detail: 'Not Found' }, 404);
    const body = raw as Body;
    const messages = coreMessages(body.messages);
    const prompt = qwen3PromptTokens(messages, body.tools as ToolSchema[] | undefined);
    const asked = prompt + body.max_tokens;
    if (asked > window) {
      const message = `This model's maximum context length is ${window} tokens. However, you requested ${asked} tokens (${prompt} in the messages, ${body.max_tokens} in the completion). Please reduce the length of the messages or completion.`;
      log.refused.push(message);
      return jsonReply({ object: 'error', message, type: 'BadRequestError', param: null, code: 400 }, 400);
    }
    log.served++;
    log.largestRequest = Math.max(log.largestRequest, asked);
    const reply = await model.complete({
      messages,
      temperature: body.temperature,
      topP: body.top_p,
      maxTokens: body.max_tokens,
      seed: body.seed,
      purpose: purposeOf(messages),
    });
    const { text, cut } = qwen3Truncate(reply.text, body.max_tokens);
    if (cut) log.cut++;
    return streamReply(text.match(/\s*\S+|\s+$/g) ?? [text], { finish: cut ? 'length' : 'stop', pieces: 'whole' });
  });
  return { server, log };
}
