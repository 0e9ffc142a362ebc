import { THINKING_MODES, UNSET_THINKING, UNSET_THINKING_BUDGET } from '../thinking.ts';
import type { KnobRows } from './knob-spec.ts';

/** How the model is asked: each role's sampling and thinking, the agent's grammar, and how many requests run at once. */
export const MODEL_KNOBS = {
  designer: {
    kind: 'value',
    group: 'models',
    doc: 'Designer sampling: temperature, top-p and most tokens per reply (SPADE: 0.6 / 0.95).',
    default: { temperature: 0.6, topP: 0.95, maxTokens: 4096 },
  },
  hint: {
    kind: 'value',
    group: 'models',
    doc: 'Hint sampling: temperature, top-p and most tokens per reply (SPADE: 0.3).',
    default: { temperature: 0.3, topP: 0.95, maxTokens: 256 },
  },
  agent: {
    kind: 'value',
    group: 'models',
    doc: 'Agent sampling: temperature, top-p and most tokens per reply (SPADE: 0.6).',
    default: { temperature: 0.6, topP: 0.95, maxTokens: 1024 },
  },
  thinking: {
    kind: 'value',
    group: 'models',
    doc: "Thinking per role (the designer's covers its repairs and the solvability judge): on asks the model to think, off turns thinking off (Qwen3's enable_thinking), default sends nothing and leaves the model's own; the tab turns it off for every role, so a small model's replies fit a 4k window (docs/method.md section 5).",
    default: { designer: 'off', hint: 'off', agent: 'off', lesson: 'off' },
    reference: { ...UNSET_THINKING },
    flag: 'thinking',
    flagValue: `[ROLE=]${THINKING_MODES.join('|')},..`,
    label: 'Thinking',
    help: "Per role: on, off, or the model's default (Qwen3 thinks by default); off keeps short replies whole in a small window",
  },
  thinkingBudget: {
    kind: 'value',
    group: 'models',
    doc: 'Thinking budget per role, in tokens: a role that may think (on or default) gets its reply budget plus this much, and a reply cut by that limit inside an unclosed <think> is asked once more with thinking off; 0: thinking spends the reply budget and a cut reply stays as it is, as in the reference.',
    default: { designer: 2048, hint: 1024, agent: 1024, lesson: 1024 },
    reference: { ...UNSET_THINKING_BUDGET },
    flag: 'thinking-budget',
    flagValue: '[ROLE=]N,..',
    label: 'Thinking budget (tokens)',
    help: "Per role: tokens a thought may use on top of the reply's; a thought cut at this limit is asked again without thinking; 0 = thinking shares the reply's tokens",
  },
  constrainAgent: {
    kind: 'toggle',
    group: 'models',
    doc: "Constrain the agent's replies with a grammar (a tab addition): a game reply is short reasoning then exactly one \\boxed{...}, a tool-use reply one call to a listed tool or one <answer>; only with a model that honours grammars (others play unconstrained and the run says so).",
    default: false,
    reference: false,
    flag: 'constrain-agent',
    label: 'Constrained agent replies',
    help: 'Grammar-constrained decoding of the agent: one boxed action, or one well-formed tool call or answer, per reply; the CPU and WebGPU models honour it, other models play unconstrained (a tab addition)',
  },
  concurrency: {
    kind: 'number',
    group: 'models',
    doc: 'Most units of work (a slot design, a hint, a play) running at once, in units; bounded by what the model can take (one for WebGPU and CPU models); results are the same at any value.',
    default: 16,
    min: 1,
    max: 128,
    integer: true,
    flag: 'concurrency',
    flagValue: 'N',
    label: 'Concurrent requests',
    help: 'Designs, hints and plays run at once against a server that serves several requests (WebGPU and CPU models take one at a time); the results do not depend on it. A tab sends at most six at once to a plain http:// server (the browser opens six connections per server); the CLI has no such limit',
  },
} satisfies KnobRows;
