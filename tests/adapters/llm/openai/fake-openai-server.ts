import { DEFAULT_TEMPLATES } from '../../../../src/core/prompts/templates.ts';
import { LESSON_INSTRUCTIONS } from '../../../../src/core/prompts/lesson-prompt.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ScriptedChatModel } from '../../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import type { ChatMessage, ChatPurpose } from '../../../../src/core/ports/chat-port.ts';
import { parseToolReply, toolCallAction } from '../../../../src/core/prompts/tool-call-parse.ts';

/** One request the fake server received. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** How the fake server answers one request. */
export type Reply = (res: ServerResponse) => Promise<void> | void;

/** A streamed reply's shape. */
export interface StreamOptions {
  reasoning?: string[];
  finish?: 'stop' | 'length';
  usage?: { prompt_tokens: number; completion_tokens: number };
  crlf?: boolean;
  /** Piece sizes cycled through when writing (default: awkward small sizes); `whole` writes everything at once. */
  pieces?: number[] | 'whole';
  /** Stop after the content deltas and send nothing more, keeping the connection open. */
  stall?: boolean;
  /** Destroy the socket after the content deltas. */
  cut?: boolean;
}

const AWKWARD = [1, 7, 3, 13, 2, 29, 5, 11];
const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The SSE text a llama.cpp-like server sends for these deltas: role chunk, reasoning, content, finish, usage, `[DONE]`, with keep-alive comments and an `id:` field. */
export function sseText(deltas: string[], options: StreamOptions = {}): { head: string; tail: string } {
  const eol = options.crlf ? '\r\n' : '\n';
  const chunk = (delta: object, finish: string | null = null): object => ({
    id: 'c1',
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const event = (data: object | string): string =>
    `data: ${typeof data === 'string' ? data : JSON.stringify(data)}${eol}${eol}`;
  const head = [
    `: keep-alive${eol}${eol}`,
    event(chunk({ role: 'assistant', content: null })),
    ...(options.reasoning ?? []).map((r) => event(chunk({ reasoning_content: r }))),
    ...deltas.map((d, i) => `${i === 1 ? `: ping${eol}id: ${i}${eol}` : ''}${event(chunk({ content: d }))}`),
  ].join('');
  const tail = [
    event(chunk({}, options.finish ?? 'stop')),
    ...(options.usage
      ? [
          event({
            id: 'c1',
            choices: [],
            usage: { ...options.usage, total_tokens: options.usage.prompt_tokens + options.usage.completion_tokens },
          }),
        ]
      : []),
    event('[DONE]'),
  ].join('');
  return { head, tail };
}

async function writePieces(res: ServerResponse, text: string, pieces: number[] | 'whole'): Promise<void> {
  const bytes = Buffer.from(text, 'utf8');
  if (pieces === 'whole') {
    res.write(bytes);
    return;
  }
  for (let at = 0, i = 0; at < bytes.length && !res.destroyed; i++) {
    const size = pieces[i % pieces.length]!;
    res.write(bytes.subarray(at, at + size));
    at += size;
    await delay(1);
  }
}

/** A streamed SSE reply of these content deltas. */
export function streamReply(deltas: string[], options: StreamOptions = {}): Reply {
  return async (res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' });
    const { head, tail } = sseText(deltas, options);
    await writePieces(res, head, options.pieces ?? AWKWARD);
    if (options.cut) res.socket?.destroy();
    if (options.stall || options.cut) return;
    await writePieces(res, tail, options.pieces ?? AWKWARD);
    res.end();
  };
}

/** A reply with this status, content type and body text. */
export function rawReply(status: number, contentType: string, body: string): Reply {
  return (res) => {
    res.writeHead(status, { 'Content-Type': contentType });
    res.end(body);
  };
}

/** A JSON reply (a non-streaming completion, or an error body). */
export function jsonReply(body: unknown, status = 200): Reply {
  return rawReply(status, 'application/json', JSON.stringify(body));
}

/** No answer at all: not even headers. */
export function silentReply(): Reply {
  return () => undefined;
}

/** Headers, then a keep-alive comment every `everyMs` until the client leaves. */
export function trickleReply(everyMs: number): Reply {
  return (res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    const timer = setInterval(() => res.write(': keep-alive\n\n'), everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** A small OpenAI-compatible HTTP server on 127.0.0.1 that answers queued replies in order and records every request. */
export class FakeOpenAIServer {
  readonly requests: RecordedRequest[] = [];
  private readonly queue: Reply[] = [];
  private readonly server: Server;
  private fallback: ((body: unknown, path: string) => Reply | Promise<Reply>) | null = null;

  private constructor(private readonly cors: boolean) {
    this.server = createServer((req, res) => void this.handle(req, res));
  }

  /** Starts a server on a free loopback port; with `cors`, it answers preflights and allows any origin, as llama.cpp's server does, so a page can call it. */
  static async start(options: { cors?: boolean } = {}): Promise<FakeOpenAIServer> {
    const fake = new FakeOpenAIServer(options.cors ?? false);
    await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
    return fake;
  }

  /** `http://127.0.0.1:<port>`. */
  get origin(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** Queues replies for the next requests, in order. */
  enqueue(...replies: Reply[]): void {
    this.queue.push(...replies);
  }

  /** Answers requests that find the queue empty by calling `respond` with the request body and path. */
  respondWith(respond: (body: unknown, path: string) => Reply | Promise<Reply>): void {
    this.fallback = respond;
  }

  /** Forgets recorded requests and queued replies. */
  reset(): void {
    this.requests.length = 0;
    this.queue.length = 0;
  }

  /** Drops every connection and stops listening. */
  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const parts: Buffer[] = [];
    for await (const part of req) parts.push(part as Buffer);
    const text = Buffer.concat(parts).toString('utf8');
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    this.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
    if (this.cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      if (req.method === 'OPTIONS') {
        res.writeHead(204, {
          'Access-Control-Allow-Methods': 'GET, POST',
          'Access-Control-Allow-Headers': req.headers['access-control-request-headers'] ?? '*',
          'Access-Control-Max-Age': '600',
        });
        res.end();
        return;
      }
    }
    const reply =
      this.queue.shift() ??
      (this.fallback
        ? await this.fallback(body, req.url ?? '')
        : jsonReply({ error: { message: 'fake server: no reply queued' } }, 418));
    await reply(res);
  }
}

/** What a real model would be asked to do, read from the prompt (the protocol carries no purpose). */
export function purposeOf(messages: ChatMessage[]): ChatPurpose {
  const first = messages[0]?.content ?? '';
  if (first.startsWith(DEFAULT_TEMPLATES.designer.slice(0, 40))) return 'designer';
  if (first.startsWith(DEFAULT_TEMPLATES.hint.slice(0, 40))) return 'hint';
  if (first.startsWith(DEFAULT_TEMPLATES.toolDesigner.slice(0, 40))) return 'designer';
  if (first.startsWith(DEFAULT_TEMPLATES.toolHint.slice(0, 40))) return 'hint';
  if (first.startsWith(DEFAULT_TEMPLATES.judge.slice(0, 40))) return 'judge';
  if (first.startsWith(LESSON_INSTRUCTIONS.slice(0, 40))) return 'lesson';
  return 'agent';
}

/** A streamed reply that calls tools the way OpenAI-compatible servers do: text first, then each call's name and its arguments in pieces, finish `tool_calls`. */
export function toolCallsReply(
  text: string,
  calls: Array<{ name: string; arguments: Record<string, unknown> }>,
): Reply {
  const chunk = (delta: object, finish: string | null = null) =>
    `data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const parts = [chunk({ role: 'assistant', content: text || null })];
  calls.forEach((call, index) => {
    const args = JSON.stringify(call.arguments);
    const half = Math.floor(args.length / 2);
    parts.push(
      chunk({
        tool_calls: [
          {
            index,
            id: `srv_${index}`,
            type: 'function',
            function: { name: call.name, arguments: args.slice(0, half) },
          },
        ],
      }),
    );
    parts.push(chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }));
  });
  parts.push(chunk({}, 'tool_calls'), 'data: [DONE]\n\n');
  return async (res) => {
    res.writeHead(200, { 'Content-Type': 'text/event-stream' });
    await writePieces(res, parts.join(''), 'whole');
    res.end();
  };
}

/** A request's messages as the core writes them: a call the client sent as `tool_calls` back in its `<tool_call>` text. */
export function coreMessages(
  messages: Array<{
    role: ChatMessage['role'];
    content: string | null;
    tool_calls?: Array<{ function: { name: string; arguments: string } }>;
  }>,
): ChatMessage[] {
  return messages.map(({ role, content, tool_calls }) => {
    const calls = (tool_calls ?? []).map((c) =>
      toolCallAction({ name: c.function.name, arguments: JSON.parse(c.function.arguments) as Record<string, unknown> }),
    );
    return { role, content: [content ?? '', ...calls].filter(Boolean).join('\n') };
  });
}

/**
 * A responder (for respondWith) that answers each chat request with the scripted model's reply,
 * streamed word by word; a request with `tools` gets the calls of the reply as native `tool_calls`;
 * any other path gets 404.
 */
export function scriptedResponder(
  scripted: ScriptedChatModel,
  stream: StreamOptions = {},
): (body: unknown, path?: string) => Promise<Reply> {
  return async (body, path = '/v1/chat/completions') => {
    // Like a server without the optional context endpoints (/v1/models without max_model_len, /props, /tokenize).
    if (!path.endsWith('/chat/completions')) return jsonReply({ error: { message: `fake server: no ${path}` } }, 404);
    const request = body as {
      messages: Parameters<typeof coreMessages>[0];
      temperature: number;
      top_p: number;
      max_tokens: number;
      seed: number;
      tools?: unknown[];
    };
    const messages = coreMessages(request.messages);
    const reply = await scripted.complete({
      messages,
      temperature: request.temperature,
      topP: request.top_p,
      maxTokens: request.max_tokens,
      seed: request.seed,
      purpose: purposeOf(messages),
    });
    const parsed = request.tools ? parseToolReply(reply.text) : null;
    if (parsed?.kind === 'calls')
      return toolCallsReply(reply.text.replace(/<tool_call>[\s\S]*?<\/tool_call>/g, '').trim(), parsed.calls);
    return streamReply(reply.text.match(/\s*\S+/g) ?? [reply.text], stream);
  };
}
