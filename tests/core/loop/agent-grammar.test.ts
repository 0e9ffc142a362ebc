// Constrained decoding in the loop: which requests carry a grammar, for which models and settings,
// and what the run says when the model cannot honour one. In-process doubles only.
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import {
  constrainsAgent,
  grammarNote,
  withActionGrammar,
  withToolGrammar,
} from '../../../src/core/loop/agent-grammar.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import { roleThinking } from '../../../src/core/thinking.ts';
import { playEpisode } from '../../../src/core/loop/play-episode.ts';
import type { ChatModel, ChatRequest, ToolSchema } from '../../../src/core/ports/chat-port.ts';
import type { Suite } from '../../../src/core/eval/suite.ts';
import { boxedAnswer, fakeSandbox, type FakeClass } from '../../fixtures/fake-sandbox.ts';
import { matches, parseGbnf } from '../../fixtures/gbnf-matcher.ts';

/** Say the game's name in a box to win. */
const named =
  (name: string): FakeClass =>
  () => ({
    reset: () => ({ observation: `Game ${name}: say its name.`, info: {} }),
    step: (action) => ({
      observation: 'over',
      reward: boxedAnswer(action) === name.toLowerCase() ? 1 : 0,
      terminated: true,
      truncated: false,
      info: {},
    }),
  });

const TOOLS: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'lookup',
      description: 'Look up a code.',
      parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    },
  },
];

/** A tool-use double: any reply ends the episode. */
const desk: FakeClass = () => ({
  reset: () => ({ observation: 'Find code 7.', info: {} }),
  step: () => ({ observation: 'ok', reward: 0, terminated: true, truncated: false, info: {} }),
  toolFacts: () => ({
    methods: ['lookup'],
    tools: TOOLS,
    toolsError: null,
    messages: null,
    criteria: null,
    current: null,
  }),
});

function reply(request: ChatRequest): string {
  if (request.purpose === 'designer' || request.purpose === 'repair') return '```python\nAmber\n```';
  if (request.purpose === 'hint') return 'Say the name of the game.';
  return 'It is \\boxed{amber}.';
}

/** A recording model that says whether it honours grammars. */
function recording(grammars: boolean | undefined): { model: ChatModel; requests: ChatRequest[] } {
  const scripted = new ScriptedChatModel(reply, 'stateless');
  const requests: ChatRequest[] = [];
  const model: ChatModel = {
    id: 'test:recording',
    ...(grammars === undefined ? {} : { grammars }),
    complete: (request) => (requests.push(request), scripted.complete(request)),
  };
  return { model, requests };
}

const SUITE: Suite = {
  name: 'doubles',
  sha256: 'doubles',
  environments: [{ id: 'held-0', skill: 'Logical Deduction', code: 'Amber', title: null }],
};
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  skills: ['Logical Deduction'],
  skillsPerEpoch: 1,
  slotsPerEpoch: 1,
  playsPerArm: 2,
  hintPlays: 1,
  maxTurns: 2,
  useCorpus: false,
  evalEvery: 1,
  evalSeeds: 2,
};

async function epochRequests(config: Config, grammars: boolean | undefined): Promise<ChatRequest[]> {
  const { model, requests } = recording(grammars);
  await runEpoch(
    { model, sandbox: fakeSandbox({ Amber: named('Amber') }), corpus: [], evalSuite: SUITE },
    INITIAL_RUN_STATE,
    config,
  );
  return requests;
}

describe('which requests are constrained', () => {
  it('every agent request of the epoch and its evaluation, and nothing else, when the knob is on and the model honours grammars', async () => {
    const requests = await epochRequests({ ...CONFIG, constrainAgent: true }, true);
    const agent = requests.filter((r) => r.purpose === 'agent');
    // Two unhinted plays, one hinted, and two evaluation plays before training and two after.
    expect(agent.length).toBe(2 + 1 + 2 + 2);
    for (const request of agent) expect(request.grammar?.name).toBe('boxed-action');
    expect(requests.filter((r) => r.purpose !== 'agent').map((r) => [r.purpose, r.grammar])).toEqual([
      ['designer', undefined],
      ['hint', undefined],
    ]);
  });

  it('none when the knob is off, or when the model does not honour grammars', async () => {
    for (const [constrainAgent, grammars] of [
      [false, true],
      [true, false],
      [true, undefined],
    ] as const) {
      const requests = await epochRequests({ ...CONFIG, constrainAgent }, grammars);
      expect(requests.filter((r) => r.grammar !== undefined)).toEqual([]);
      expect(requests.some((r) => r.purpose === 'agent')).toBe(true);
    }
  });

  it('a tool-use play: a call to its own tools or an answer, with the tools still on the request', async () => {
    const { model, requests } = recording(true);
    const handle = await fakeSandbox({ Desk: desk }).load('Desk', { maxTurns: 3, timeoutMs: 1000 });
    await playEpisode(model, handle, {
      seed: 1,
      hint: null,
      maxTurns: 3,
      stepTimeoutMs: 1000,
      sampling: CONFIG.agent,
      thinking: roleThinking(CONFIG, 'agent'),
      template: CONFIG.prompts.agent,
      modelSeedKey: 'k',
      constrain: true,
    });
    expect(requests).toHaveLength(1);
    expect(requests[0]!.tools).toEqual(TOOLS);
    const rules = parseGbnf(requests[0]!.grammar!.gbnf);
    expect(requests[0]!.grammar!.name).toBe('tool-reply');
    expect(matches(rules, '<tool_call>{"name": "lookup", "arguments": {"code": "7"}}</tool_call>')).toBe(true);
    expect(matches(rules, '<tool_call>{"name": "other", "arguments": {"code": "7"}}</tool_call>')).toBe(false);
  });
});

describe('the decision and the note', () => {
  it('constrains only with the knob on and a model that honours grammars', () => {
    expect(constrainsAgent({ constrainAgent: true }, { grammars: true })).toBe(true);
    expect(constrainsAgent({ constrainAgent: true }, {})).toBe(false);
    expect(constrainsAgent({ constrainAgent: false }, { grammars: true })).toBe(false);
  });

  it('says once, by the model, that replies stay unconstrained; nothing otherwise', () => {
    expect(grammarNote({ constrainAgent: true }, { id: 'scripted:demo', grammars: false })).toMatch(
      /^Constrained agent replies are on, but scripted:demo does not support grammars: the agent plays unconstrained\./,
    );
    expect(grammarNote({ constrainAgent: true }, { id: 'wllama:x.gguf', grammars: true })).toBeNull();
    expect(grammarNote({ constrainAgent: false }, { id: 'scripted:demo' })).toBeNull();
  });
});

describe('the grammar follows the request', () => {
  const base: ChatRequest = {
    messages: [{ role: 'user', content: 'x' }],
    temperature: 0.6,
    topP: 0.95,
    maxTokens: 50,
    seed: 1,
    purpose: 'agent',
  };

  it('allows a think block unless thinking is off, bounded by twice the reply budget in characters', () => {
    const thinking = parseGbnf(withActionGrammar(base).grammar!.gbnf);
    expect(matches(thinking, `<think>${'a'.repeat(100)}</think>\\boxed{x}`)).toBe(true);
    expect(matches(thinking, `<think>${'a'.repeat(101)}</think>\\boxed{x}`)).toBe(false);
    expect(withActionGrammar({ ...base, thinking: false }).grammar!.gbnf).not.toContain('<think>');
    expect(withToolGrammar({ ...base, thinking: false }, TOOLS).grammar!.gbnf).not.toContain('<think>');
    expect(withToolGrammar({ ...base, thinking: true }, TOOLS).grammar!.gbnf).toContain('<think>');
  });

  it('leaves the rest of the request as it was', () => {
    const { grammar, ...rest } = withActionGrammar(base);
    expect(rest).toEqual(base);
    expect(grammar!.name).toBe('boxed-action');
  });
});
