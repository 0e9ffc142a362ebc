// Pure helpers of the prefix measurement (npm run bench -- prefix) and of the prompt-order tests.
import type { ChatMessage } from '../../src/core/ports/chat-port.ts';

/** The prefix figures of one role's requests in one epoch. */
export interface RolePrefix {
  /** The role (the request's purpose), or a label for a built set of prompts. */
  role: string;
  requests: number;
  meanChars: number;
  /** Longest prefix every request of the role shares. */
  commonChars: number;
  /** Characters a prefix cache could reuse: for each request, the longest prefix it shares with an earlier request of the role, summed. */
  reusableChars: number;
  totalChars: number;
}

/** A request as a chat template lays it out: each message's role, then its text, in order. */
export function serializeMessages(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `<|${m.role}|>\n${m.content}\n`).join('');
}

/** Length of the longest common prefix of two strings. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The figures of one role's prompts, in the order they were sent. */
export function rolePrefix(role: string, prompts: readonly string[]): RolePrefix {
  const totalChars = prompts.reduce((n, p) => n + p.length, 0);
  const commonChars =
    prompts.length < 2
      ? 0
      : prompts.slice(1).reduce((n, p) => Math.min(n, commonPrefixLength(prompts[0]!, p)), prompts[0]!.length);
  const reusableChars = prompts.reduce(
    (n, p, i) => n + Math.max(0, ...prompts.slice(0, i).map((q) => commonPrefixLength(p, q))),
    0,
  );
  return {
    role,
    requests: prompts.length,
    meanChars: prompts.length === 0 ? 0 : totalChars / prompts.length,
    commonChars,
    reusableChars,
    totalChars,
  };
}
