import type { ChatRequest } from '../ports/chat-port.ts';

/** Characters per token the estimate assumes: Qwen3's tokenizer averages about 4.2 on the prompt templates, 3.5-3.8 on Python code and 3.3 on the corpus, so 3 over-counts every part the prompts hold. */
export const ESTIMATE_CHARS_PER_TOKEN = 3;
/** Tokens the estimate adds per message for the chat template's framing (Qwen's ChatML spends 5: `<|im_start|>role\n` ... `<|im_end|>\n`). */
export const ESTIMATE_MESSAGE_TOKENS = 8;
/** Tokens the estimate adds once for the assistant turn the template opens and a default system prompt some templates add. */
export const ESTIMATE_REQUEST_TOKENS = 32;

/**
 * A conservative prompt token count for a model that cannot count its own (docs/method.md,
 * "Token budget"): ⌈characters / 3⌉ over the messages and the tool schemas as JSON, plus 8 per
 * message and 32 per request. English prose and code tokenize at 3.3-4.6 characters per token
 * with Qwen-like BPE vocabularies, so this counts more than the engine will, never fewer, for
 * the text SPADE sends; text in scripts without spaces between words (CJK) is denser and needs
 * a backend that counts.
 */
export function estimatePromptTokens(request: Pick<ChatRequest, 'messages' | 'tools'>): number {
  const chars =
    request.messages.reduce((n, m) => n + m.content.length, 0) +
    (request.tools ? JSON.stringify(request.tools).length : 0);
  return (
    Math.ceil(chars / ESTIMATE_CHARS_PER_TOKEN) +
    ESTIMATE_MESSAGE_TOKENS * request.messages.length +
    ESTIMATE_REQUEST_TOKENS
  );
}
