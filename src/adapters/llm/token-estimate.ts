import type { ChatMessage } from '../../core/ports/chat-port.ts';

/** Rough token count of a text, for usage figures a backend does not report: ⌈characters / 4⌉ (UTF-16 code units). */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Rough prompt token count of a chat a real backend reported none for: ⌈all characters / 4⌉, plus 4 per message for the chat template's framing. */
export function estimatePromptTokens(messages: readonly ChatMessage[]): number {
  const chars = messages.reduce((sum, message) => sum + message.content.length, 0);
  return Math.ceil(chars / 4) + 4 * messages.length;
}
