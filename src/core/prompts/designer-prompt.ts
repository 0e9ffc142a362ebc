import type { ChatMessage } from '../chat-port.ts';
import type { MemorySelection } from '../memory.ts';

/** Everything one designer prompt is built from. */
export interface DesignerPromptInput {
  skill: string;
  skillDescription: string;
  /** Grounding document, already truncated; null when the corpus is switched off. */
  document: string | null;
  memory: MemorySelection | null;
  difficulty: 'easy' | 'medium' | 'hard';
}

const REQUIREMENTS = `Write one complete Python environment for a text game that a reasoning agent plays over several turns.

Contract:
- Exactly one class whose name ends in "Env", constructible as Cls() or Cls(max_turns=N); set every attribute in __init__ before reset() is called.
- reset(self, seed=None) returns (observation: str, info: dict). Use random.Random(seed) (or the global random, which is seeded for you) so the same seed gives the same episode.
- step(self, action: str) returns (observation: str, reward: float, terminated: bool, truncated: bool, info: dict) on every path, including garbage input; never raise.
- The agent sends one action per turn inside \\boxed{...}; extract the first \\boxed{...} yourself, else use the raw text.
- Keep a turn_count; set truncated=True when turn_count >= max_turns.
- solution(self) returns a short reference answer or strategy as a string. Do not assign self.solution.
- Standard library only (no numpy). Common names such as random, re, math, itertools, collections, deque, Counter are already available.

Game design:
- The state is hidden and revealed by acting; reaching the goal needs at least 3 interaction steps.
- Every observation restates the available actions and the \\boxed{...} format.
- Reward 1.0 with terminated=True when the goal is reached; partial progress in [0, 1] is allowed; otherwise 0.0.
- No one-shot "grade the answer and stop" games, and no bare "wrong, try again" loops: wrong moves must teach something.
- In f-strings, double literal braces: write \\\\boxed{{...}} to print \\boxed{...}.

Reply with the complete code in one fenced python block.`;

function memoryText(memory: MemorySelection | null): string {
  if (!memory || (memory.positives.length === 0 && !memory.negative)) return '';
  const parts: string[] = [];
  if (memory.positives.length > 0) {
    parts.push('These environments were well calibrated for the agent (it sometimes wins, and the hint helps). Create a DIFFERENT game:');
    for (const p of memory.positives) {
      parts.push(`# win rate ${p.winRate.toFixed(2)}, regret ${p.regret.toFixed(2)}\n\`\`\`python\n${p.code}\n\`\`\``);
    }
  }
  if (memory.negative) {
    const n = memory.negative;
    parts.push(`Avoid this kind of environment: it was ${n.reason} (win rate ${n.record.winRate.toFixed(2)}).\n\`\`\`python\n${n.record.code}\n\`\`\``);
  }
  return parts.join('\n\n');
}

/** Builds the designer messages for one slot (SPADE.md section 3). */
export function buildDesignerPrompt(input: DesignerPromptInput): ChatMessage[] {
  const sections = [
    `Target skill: ${input.skill}: ${input.skillDescription}.`,
    `Difficulty: ${input.difficulty}.`,
    input.document
      ? `Ground the game in one concept from this document, without mentioning the document:\n<document>\n${input.document}\n</document>`
      : 'Choose a concept that exercises the target skill.',
    memoryText(input.memory),
    REQUIREMENTS,
  ].filter((s) => s !== '');
  return [
    { role: 'system', content: 'You design executable training environments for reasoning agents.' },
    { role: 'user', content: sections.join('\n\n') },
  ];
}

/** Builds the one-shot repair messages: the previous attempt and the validator's message. */
export function buildRepairPrompt(previous: ChatMessage[], reply: string, validatorMessage: string): ChatMessage[] {
  return [
    ...previous,
    { role: 'assistant', content: reply },
    {
      role: 'user',
      content: `The environment failed validation:\n${validatorMessage}\n\nReply with the complete fixed code in one fenced python block.`,
    },
  ];
}
