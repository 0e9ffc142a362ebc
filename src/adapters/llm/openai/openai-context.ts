import type { AbortSignalLike, ChatRequest } from '../../../core/ports/chat-port.ts';
import { openAiMessages, withoutListedTools } from './openai-tools.ts';
import { isObject, parseJson, type Json } from './openai-errors.ts';

/** The part of `fetch` the model uses; `globalThis.fetch` fits, in Node 20 and in browsers. */
export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** How long one probe of an optional endpoint may take, by default, before it counts as absent. */
export const PROBE_TIMEOUT_MS = 5000;

/** Which tokenizer endpoint a server offers: vLLM's chat-aware /tokenize, llama.cpp's /apply-template then /tokenize, or none. */
type Tokenizer = 'vllm' | 'llamacpp' | 'none';

/** A positive whole number, or null. */
const positive = (value: unknown): number | null =>
  typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null;

/**
 * What an OpenAI-compatible server says about its context, from its optional endpoints: the
 * window (vLLM's `max_model_len` in `/v1/models`, llama.cpp's `/props`
 * `default_generation_settings.n_ctx`) and prompt token counts (vLLM's `POST /tokenize` with the
 * messages; llama.cpp's `POST /apply-template` then `POST /tokenize`). Every probe is optional:
 * a failure, an error status or an answer of another shape means "not offered" (null, or a
 * rejection the core replaces with its estimate), never a failed run.
 */
export class OpenAIContext {
  private tokenizer: Promise<Tokenizer> | null = null;

  constructor(
    /** The server root, without `/v1`. */
    private readonly root: string,
    private readonly model: string,
    private readonly headers: Record<string, string>,
    private readonly fetchFn: FetchLike,
    private readonly timeoutMs = PROBE_TIMEOUT_MS,
  ) {}

  /** The window the server reports, or null when neither endpoint says. */
  async window(signal?: AbortSignalLike): Promise<number | null> {
    const models = await this.json('GET', '/v1/models', undefined, signal);
    const listed = isObject(models) && Array.isArray(models.data) ? models.data.filter(isObject) : [];
    const entry = listed.find((m) => m.id === this.model) ?? (listed.length === 1 ? listed[0] : undefined);
    const vllm = positive(entry?.max_model_len);
    if (vllm !== null) return vllm;
    const props = await this.json('GET', '/props', undefined, signal);
    const settings = isObject(props) ? props.default_generation_settings : undefined;
    return (
      positive(isObject(settings) ? settings.n_ctx : undefined) ?? positive(isObject(props) ? props.n_ctx : undefined)
    );
  }

  /** Prompt tokens of a request as the server's tokenizer and chat template count them; rejects when the server offers no way to count. */
  async count(request: Pick<ChatRequest, 'messages' | 'tools'>, signal?: AbortSignalLike): Promise<number> {
    let counted: number | null;
    if (this.tokenizer) {
      const kind = await this.tokenizer;
      counted =
        kind === 'vllm'
          ? await this.countVllm(request, signal)
          : kind === 'llamacpp'
            ? await this.countLlamaCpp(request, signal)
            : null;
    } else {
      const detected = this.detect(request, signal);
      this.tokenizer = detected.then((d) => d.kind);
      counted = (await detected).counted;
    }
    if (counted === null) throw new Error(`${this.root} offers no prompt token count`);
    return counted;
  }

  // The first count: vLLM's endpoint, else llama.cpp's, else none; which one answered is kept for the next counts.
  private async detect(
    request: Pick<ChatRequest, 'messages' | 'tools'>,
    signal?: AbortSignalLike,
  ): Promise<{ kind: Tokenizer; counted: number | null }> {
    const vllm = await this.countVllm(request, signal);
    if (vllm !== null) return { kind: 'vllm', counted: vllm };
    const llamacpp = await this.countLlamaCpp(request, signal);
    return llamacpp !== null ? { kind: 'llamacpp', counted: llamacpp } : { kind: 'none', counted: null };
  }

  private async countVllm(
    request: Pick<ChatRequest, 'messages' | 'tools'>,
    signal?: AbortSignalLike,
  ): Promise<number | null> {
    const body = {
      model: this.model,
      messages: openAiMessages(withoutListedTools(request.messages, request.tools), request.tools !== undefined),
      ...(request.tools ? { tools: request.tools } : {}),
      add_generation_prompt: true,
    };
    const answer = await this.json('POST', '/tokenize', body, signal);
    return isObject(answer) ? positive(answer.count) : null;
  }

  private async countLlamaCpp(
    request: Pick<ChatRequest, 'messages' | 'tools'>,
    signal?: AbortSignalLike,
  ): Promise<number | null> {
    const templated = await this.json(
      'POST',
      '/apply-template',
      { messages: openAiMessages(withoutListedTools(request.messages, request.tools), request.tools !== undefined) },
      signal,
    );
    const prompt = isObject(templated) && typeof templated.prompt === 'string' ? templated.prompt : null;
    if (prompt === null) return null;
    const answer = await this.json('POST', '/tokenize', { content: prompt, add_special: true }, signal);
    const tokens = isObject(answer) && Array.isArray(answer.tokens) ? answer.tokens.length : 0;
    if (tokens === 0) return null;
    // The template applied without the tools: their schemas are counted at the core estimate's rate.
    return tokens + (request.tools ? Math.ceil(JSON.stringify(request.tools).length / 3) : 0);
  }

  // One optional endpoint: its JSON answer, or null for anything else (unreachable, an error status, a timeout, not JSON).
  private async json(
    method: 'GET' | 'POST',
    path: string,
    body: Json | undefined,
    signal?: AbortSignalLike,
  ): Promise<unknown> {
    const controller = new AbortController();
    const stop = (): void => controller.abort();
    const timer = setTimeout(stop, this.timeoutMs);
    signal?.addEventListener('abort', stop);
    try {
      const response = await this.fetchFn(`${this.root}${path}`, {
        method,
        headers: this.headers,
        signal: controller.signal,
        ...(body ? { body: JSON.stringify(body) } : {}),
      });
      return response.ok ? parseJson(await response.text()) : null;
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', stop);
    }
  }
}
