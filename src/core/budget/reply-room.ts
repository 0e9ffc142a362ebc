import type { ChatPurpose } from '../ports/chat-port.ts';

/**
 * The fewest reply tokens a request of each role must be left before it is sent (docs/method.md,
 * "Token budget"); the prompt is trimmed until it leaves this much, or the request fails before
 * it is sent. A designer or repair reply is a whole Python environment (1-3k tokens); the judge
 * reasons before its verdict; a hint is at most three sentences; an agent turn is one short
 * answer after some reasoning; a lesson is one line.
 */
export const MIN_REPLY_TOKENS: Readonly<Record<ChatPurpose, number>> = {
  designer: 1536,
  repair: 1536,
  judge: 512,
  hint: 128,
  agent: 256,
  lesson: 128,
};

/** The reply room a request needs: the role's minimum, or the configured most tokens when that is less. */
export function minimumReplyRoom(purpose: ChatPurpose, maxTokens: number): number {
  return Math.min(MIN_REPLY_TOKENS[purpose], maxTokens);
}
