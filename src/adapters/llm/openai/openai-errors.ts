import { ChatModelError, type ChatErrorCode } from '../../../core/ports/chat-port.ts';

/** A parsed JSON object. */
export type Json = Record<string, unknown>;

const CONTEXT_OVERFLOW =
  /context (length|size|window)|maximum model length|context_length_exceeded|exceed_context_size|too many tokens|prompt is too long|input is too large/i;
const retryDelays = new WeakMap<ChatModelError, number>();

/** A `ChatModelError`; with `retryDelayMs` (0 = plain backoff) it is marked retryable. */
export function failure(code: ChatErrorCode, message: string, retryDelayMs?: number): ChatModelError {
  const error = new ChatModelError(code, message);
  if (retryDelayMs !== undefined) retryDelays.set(error, retryDelayMs);
  return error;
}

/** The server's requested retry delay of a retryable failure (0 when it named none); undefined when the failure must not be retried. */
export function retryDelayOf(error: unknown): number | undefined {
  return error instanceof ChatModelError ? retryDelays.get(error) : undefined;
}

/** True for a plain JSON object. */
export const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The first 200 characters of `text`, whitespace collapsed, quoted. */
export const snippet = (text: string): string => JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 200));

/** `JSON.parse`, or undefined for text that is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function serverMessage(body: string): string {
  const json = parseJson(body);
  if (!isObject(json)) return body.trim() ? snippet(body) : '';
  const error = json.error;
  for (const candidate of [error, isObject(error) ? error.message : undefined, json.message, json.detail]) {
    if (typeof candidate === 'string') return candidate;
  }
  return snippet(body);
}

function nextStep(status: number, model: string): string {
  if (status === 401 || status === 403) return 'Check apiKey.';
  if (status === 404)
    return `Check baseUrl (the server must serve /v1/chat/completions) and the model name "${model}".`;
  if (status === 429) return 'The server is rate limiting; try again later.';
  if (status >= 500) return 'The server failed; see its log.';
  return 'The server rejected the request; see its message above.';
}

/** The failure for an HTTP error status: `context_length` for a 4xx about the context (llama.cpp, vLLM, SGLang, OpenAI wording), else `http_error`, retryable for 429 and 5xx. */
export function httpFailure(url: string, model: string, response: Response, body: string): ChatModelError {
  const { status } = response;
  const detail = serverMessage(body) || response.statusText || 'no message';
  if (status >= 400 && status < 500 && status !== 429 && CONTEXT_OVERFLOW.test(detail)) {
    return failure(
      'context_length',
      `${url} rejected the prompt as longer than the model's context (HTTP ${status}: ${detail}). Shorten the messages, lower maxTokens, or start the server with a larger context (llama.cpp: --ctx-size; vLLM: --max-model-len).`,
    );
  }
  const retryAfter = Number(response.headers.get('retry-after')) * 1000;
  const retryDelay = status === 429 || status >= 500 ? (Number.isFinite(retryAfter) ? retryAfter : 0) : undefined;
  return failure('http_error', `HTTP ${status} from ${url}: ${detail}. ${nextStep(status, model)}`, retryDelay);
}

/** The failure for an `error` object inside a 200 reply (some servers report failures mid-stream); not retryable. */
export function replyFailure(url: string, chunk: Json): ChatModelError {
  const detail = serverMessage(JSON.stringify(chunk));
  return failure(
    CONTEXT_OVERFLOW.test(detail) ? 'context_length' : 'http_error',
    `${url} reported an error in its reply: ${detail}. See the server log.`,
  );
}

/** The retryable `unreachable` failure for a fetch or body read that threw (refused, reset, DNS, CORS). */
export function connectionFailure(url: string, error: unknown, phase: 'connect' | 'read'): ChatModelError {
  const cause = error instanceof Error && isObject(error.cause) ? error.cause : undefined;
  const reason = String(cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : error));
  const what = phase === 'connect' ? `cannot reach ${url}` : `the connection to ${url} broke mid-reply`;
  return failure(
    'unreachable',
    `${what} (${reason}): is the server running? Start it (e.g. \`llama-server -m model.gguf --port 8080\` or \`ollama serve\`) and check baseUrl; from a browser the server must also allow CORS.`,
    0,
  );
}
