import type { ChatMessage } from '../ports/chat-port.ts';
import type { PromptLadder } from '../budget/fit-request.ts';

/** Lengths, in characters, older tool results are cut to at the tool-use trim levels, longest first. */
export const TOOL_RESULT_CUTS = [600, 150] as const;

/** An agent conversation as the budget sees it: the first message (with or without the playbook) and the turns after it. */
export interface AgentHistory {
  /** The episode's first user message; `withPlaybook` false leaves the playbook block out. */
  first(withPlaybook: boolean): ChatMessage;
  /** Whether the first message shows playbook lessons. */
  hasPlaybook: boolean;
  /** Every message after the first, in order: pairs of the agent's reply and the environment's answer. */
  turns: readonly ChatMessage[];
  /** True for a tool-use episode: older tool results are shortened before whole turns are left out. */
  toolUse: boolean;
}

interface Trim {
  cut: number | null;
  elided: number;
  playbook: boolean;
}

function elisionNote(elided: number): string {
  return `\n\n[${elided === 1 ? 'Turn 1 is' : `Turns 1-${elided} are`} left out here to fit the model's context; the latest turns follow.]`;
}

function render(history: AgentHistory, trim: Trim): ChatMessage[] {
  const first = history.first(trim.playbook);
  const kept = history.turns.slice(2 * trim.elided);
  const latest = kept.length - 1;
  const turns = kept.map((m, i) =>
    trim.cut !== null && m.role === 'tool' && i < latest && m.content.length > trim.cut
      ? { ...m, content: `${m.content.slice(0, trim.cut)} …[cut]` }
      : m,
  );
  return [trim.elided > 0 ? { ...first, content: first.content + elisionNote(trim.elided) } : first, ...turns];
}

/**
 * An agent request at every trim level, in the order the budget trims (docs/method.md, "Token
 * budget"): the whole conversation; for tool use, older tool results cut to each of
 * TOOL_RESULT_CUTS; then the earliest turns left out one pair at a time, keeping the first
 * message (with a note saying which turns are missing) and the latest turn; then the playbook
 * block dropped.
 */
export function historyLadder(history: AgentHistory): PromptLadder {
  const pairs = Math.floor(history.turns.length / 2);
  const trims: Trim[] = [{ cut: null, elided: 0, playbook: true }];
  const olderTools = history.turns.slice(0, -1).some((m) => m.role === 'tool');
  const cut = history.toolUse && olderTools ? TOOL_RESULT_CUTS : [];
  for (const length of cut) trims.push({ cut: length, elided: 0, playbook: true });
  const shortest = cut.at(-1) ?? null;
  for (let elided = 1; elided < pairs; elided++) trims.push({ cut: shortest, elided, playbook: true });
  if (history.hasPlaybook) trims.push({ cut: shortest, elided: Math.max(0, pairs - 1), playbook: false });
  return (level) => {
    const trim = trims[level];
    return trim ? render(history, trim) : null;
  };
}
