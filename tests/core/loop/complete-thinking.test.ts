// Thinking per role (docs/method.md section 5): the switch and budget on each request, a thought
// cut at its budget asked again without thinking, and earlier thoughts dropped from agent history.
import { describe, expect, it } from 'vitest';
import {
  completeThinking,
  cutInThought,
  historyWithoutThoughts,
  thinkingRequest,
  THOUGHT_CUT_NOTE,
} from '../../../src/core/loop/complete-thinking.ts';
import { playEpisode } from '../../../src/core/loop/play-episode.ts';
import type { EpisodeSpec } from '../../../src/core/loop/agent-settings.ts';
import { deriveSeed } from '../../../src/core/loop/random.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import type { ChatModel, ChatRequest, ChatResult, FinishReason } from '../../../src/core/ports/chat-port.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import type { ToolFacts } from '../../../src/core/env/tool-use-facts.ts';
import type { RoleThinking } from '../../../src/core/thinking.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withPreset, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import { fakeSandbox, oneStepGame } from '../../fixtures/fake-sandbox.ts';

const ON: RoleThinking = { mode: 'on', budget: 500 };

/** A model that records every request and answers from a list (the last repeats), each with its finish reason. */
function recording(replies: Array<{ text: string; finish?: FinishReason }>): ChatModel & { requests: ChatRequest[] } {
  const requests: ChatRequest[] = [];
  return {
    id: 'test:recording',
    requests,
    async complete(request: ChatRequest): Promise<ChatResult> {
      requests.push(request);
      const reply = replies[Math.min(requests.length - 1, replies.length - 1)]!;
      request.onToken?.(reply.text);
      return {
        text: reply.text,
        usage: { promptTokens: 10, completionTokens: reply.text.length },
        finishReason: reply.finish ?? 'stop',
      };
    },
  };
}

const request = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [{ role: 'user', content: 'Hint?' }],
  temperature: 0.3,
  topP: 0.95,
  maxTokens: 256,
  seed: 77,
  purpose: 'hint',
  ...overrides,
});

describe('thinkingRequest: the switch and the budget on a request', () => {
  it('off sends thinking false with the reply budget alone', () => {
    expect(thinkingRequest(request(), { mode: 'off', budget: 500 })).toEqual({ ...request(), thinking: false });
  });
  it('on sends thinking true and adds the thinking budget to the reply budget', () => {
    expect(thinkingRequest(request(), ON)).toEqual({ ...request(), thinking: true, maxTokens: 756 });
  });
  it("default sends no switch (the model's own) and still adds the budget; a budget of 0 leaves the request as it was", () => {
    expect(thinkingRequest(request(), { mode: 'default', budget: 300 })).toEqual({ ...request(), maxTokens: 556 });
    expect(thinkingRequest(request(), { mode: 'default', budget: 0 })).toEqual(request());
  });
});

describe('cutInThought', () => {
  const result = (text: string, finishReason: FinishReason = 'length'): ChatResult => ({
    text,
    usage: { promptTokens: 1, completionTokens: 1 },
    finishReason,
  });
  it('is true for a reply cut at its limit inside an unclosed <think>, or showing nothing', () => {
    expect(cutInThought(result('<think>Let me see, the door is'))).toBe(true);
    expect(cutInThought(result('<think>a</think> then <think>second thought'))).toBe(true);
    expect(cutInThought(result('  \n'))).toBe(true);
  });
  it('is false for a closed thought, a reply that stopped by itself, or an answer cut after its thought', () => {
    expect(cutInThought(result('<think>a</think>\\boxed{3}'))).toBe(false);
    expect(cutInThought(result('<think>never closed', 'stop'))).toBe(false);
    expect(cutInThought(result('<think>a</think>The hint is to check the'))).toBe(false);
  });
});

describe('completeThinking: a thought cut at its budget is asked again without thinking', () => {
  it('asks once more with thinking off, the reply budget and a seed derived from the first; keeps the second reply and counts both', async () => {
    const model = recording([
      { text: '<think>Hmm, the code picks', finish: 'length' },
      { text: 'Check the parity first.' },
    ]);
    const streamed: string[] = [];
    const result = await completeThinking(model, request({ onToken: (d) => streamed.push(d) }), ON);
    expect(model.requests.map((r) => [r.thinking, r.maxTokens, r.seed])).toEqual([
      [true, 756, 77],
      [false, 256, deriveSeed(77, 'thought-cut')],
    ]);
    expect(result).toEqual({
      text: 'Check the parity first.',
      usage: { promptTokens: 20, completionTokens: 26 + 23 },
      finishReason: 'stop',
    });
    expect(streamed).toEqual(['<think>Hmm, the code picks', THOUGHT_CUT_NOTE, 'Check the parity first.']);
  });

  it('asks again after an empty reply cut at its limit when the role is left to the model default', async () => {
    const model = recording([{ text: '', finish: 'length' }, { text: 'Sort first.' }]);
    expect((await completeThinking(model, request(), { mode: 'default', budget: 100 })).text).toBe('Sort first.');
    expect(model.requests.map((r) => r.thinking)).toEqual([undefined, false]);
  });

  it('asks once only: with thinking off, with a budget of 0 (the reference), or when the thought was closed', async () => {
    const cut = { text: '<think>still going', finish: 'length' as const };
    for (const thinking of [
      { mode: 'off', budget: 500 },
      { mode: 'on', budget: 0 },
      { mode: 'default', budget: 0 },
    ] as RoleThinking[]) {
      const model = recording([cut, { text: 'second' }]);
      expect((await completeThinking(model, request(), thinking)).text, thinking.mode).toBe(cut.text);
      expect(model.requests, `${thinking.mode} ${thinking.budget}`).toHaveLength(1);
    }
    const closed = recording([{ text: '<think>done</think>Look at the', finish: 'length' }, { text: 'second' }]);
    expect((await completeThinking(closed, request(), ON)).text).toBe('<think>done</think>Look at the');
    expect(closed.requests).toHaveLength(1);
  });
});

describe('historyWithoutThoughts', () => {
  it('drops the thoughts of assistant replies, closed or cut, and the blank lines after them; keeps empty blocks and other messages', () => {
    const messages = [
      { role: 'user' as const, content: 'Observation: <think>user text is never touched</think>' },
      { role: 'assistant' as const, content: '<think>\nTry 3 first.\n</think>\n\n\\boxed{3}' },
      { role: 'user' as const, content: 'Too high.' },
      { role: 'assistant' as const, content: '<think>\n\n</think>\n\n\\boxed{2}' },
      { role: 'tool' as const, content: '<think>x</think>' },
      { role: 'assistant' as const, content: 'I pick \\boxed{1}. <think>but maybe' },
    ];
    expect(historyWithoutThoughts(messages)).toEqual([
      messages[0],
      { role: 'assistant', content: '\\boxed{3}' },
      messages[2],
      messages[3],
      messages[4],
      { role: 'assistant', content: 'I pick \\boxed{1}. ' },
    ]);
    expect(messages[1]!.content).toContain('Try 3 first.');
  });
});

/** A three-turn guessing game. */
function guessGame(tools?: ToolFacts): EnvHandle {
  let step = 0;
  return {
    className: 'GuessEnv',
    hasSolution: false,
    reset: async () => ({ observation: 'Guess 1 to 3.', info: {} }),
    step: async () => {
      step++;
      return {
        observation: step < 3 ? 'Too high.' : 'Correct!',
        reward: step === 3 ? 1 : 0,
        terminated: step === 3,
        truncated: false,
        info: {},
      };
    },
    solution: async () => null,
    toolFacts: async () => tools ?? null,
    executeTool: async () => {
      throw new Error('this fake has no tools outside step');
    },
    renew: async () => undefined,
    dispose: async () => undefined,
  };
}

const SPEC: EpisodeSpec = {
  seed: 1,
  hint: null,
  maxTurns: 5,
  stepTimeoutMs: 1000,
  sampling: { temperature: 0.6, topP: 0.95, maxTokens: 64 },
  thinking: { mode: 'on', budget: 100 },
  modelSeedKey: 'k',
  template: DEFAULT_TEMPLATES.agent,
};

const REPLIES = ['<think>Start high.</think>\\boxed{3}', '<think>Lower now.</think>\\boxed{2}', '\\boxed{1}'];

describe('an episode drops earlier thoughts from what it sends and keeps them in what it records', () => {
  it('a game: turn 2 and 3 carry earlier replies without <think>; the episode keeps every reply whole', async () => {
    const model = recording(REPLIES.map((text) => ({ text })));
    const episode = await playEpisode(model, guessGame(), SPEC);
    expect(model.requests).toHaveLength(3);
    for (const sent of model.requests.slice(1)) {
      const assistants = sent.messages.filter((m) => m.role === 'assistant');
      expect(assistants.length).toBeGreaterThan(0);
      for (const m of assistants) expect(m.content).not.toContain('<think>');
    }
    expect(model.requests[2]!.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual([
      '\\boxed{3}',
      '\\boxed{2}',
    ]);
    expect(model.requests.map((r) => [r.thinking, r.maxTokens])).toEqual([
      [true, 164],
      [true, 164],
      [true, 164],
    ]);
    expect(episode.turns.map((t) => t.reply)).toEqual(REPLIES);
    expect(episode.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(REPLIES);
    expect(episode.return).toBe(1);
  });

  it('a tool-use episode: the same', async () => {
    const facts: ToolFacts = {
      methods: ['guess'],
      tools: [
        {
          type: 'function',
          function: { name: 'guess', description: 'Guess.', parameters: { type: 'object', properties: {} } },
        },
      ],
      toolsError: null,
      messages: null,
      criteria: null,
      current: 0,
    };
    const replies = [
      '<think>call it</think><tool_call>{"name": "guess", "arguments": {}}</tool_call>',
      '<think>again</think><tool_call>{"name": "guess", "arguments": {}}</tool_call>',
      '<answer>1</answer>',
    ];
    const model = recording(replies.map((text) => ({ text })));
    const episode = await playEpisode(model, guessGame(facts), SPEC);
    expect(model.requests).toHaveLength(3);
    expect(model.requests[2]!.messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(
      replies.slice(0, 2).map((r) => r.replace(/<think>.*<\/think>/, '')),
    );
    expect(episode.turns.map((t) => t.reply)).toEqual(replies);
  });
});

describe("an epoch's requests follow each role's setting", () => {
  /** One slot, one unhinted and one hinted play of a one-step game; every request recorded. */
  async function requestsOf(config: Config): Promise<ChatRequest[]> {
    const requests: ChatRequest[] = [];
    const model = new ScriptedChatModel((r) => {
      requests.push(r);
      return r.purpose === 'designer' ? '```python\nW\n```' : r.purpose === 'hint' ? 'Say win.' : '\\boxed{win}';
    });
    const small: Config = {
      ...config,
      skills: ['Optimization'],
      skillsPerEpoch: 1,
      slotsPerEpoch: 1,
      playsPerArm: 1,
      hintPlays: 1,
      rolloutsPerEpoch: 1,
      useCorpus: false,
      useMemory: false,
    };
    await runEpoch({ model, sandbox: fakeSandbox({ W: oneStepGame }), corpus: [] }, INITIAL_RUN_STATE, small);
    return requests;
  }
  const byPurpose = (requests: ChatRequest[]) =>
    Object.fromEntries(requests.map((r) => [r.purpose, { thinking: r.thinking, maxTokens: r.maxTokens }]));

  it('the tab turns thinking off for the designer, the hint and the agent, with their reply budgets', async () => {
    expect(byPurpose(await requestsOf(DEFAULT_CONFIG))).toEqual({
      designer: { thinking: false, maxTokens: DEFAULT_CONFIG.designer.maxTokens },
      hint: { thinking: false, maxTokens: DEFAULT_CONFIG.hint.maxTokens },
      agent: { thinking: false, maxTokens: DEFAULT_CONFIG.agent.maxTokens },
    });
  });

  it('the reference preset sends no switch and adds nothing; a role switched on asks for its reply and thinking budgets', async () => {
    const reference = withPreset(DEFAULT_CONFIG, 'reference');
    expect(byPurpose(await requestsOf(reference))).toEqual({
      designer: { thinking: undefined, maxTokens: reference.designer.maxTokens },
      hint: { thinking: undefined, maxTokens: reference.hint.maxTokens },
      agent: { thinking: undefined, maxTokens: reference.agent.maxTokens },
    });
    const agentOn = { ...DEFAULT_CONFIG, thinking: { ...DEFAULT_CONFIG.thinking, agent: 'on' as const } };
    expect(byPurpose(await requestsOf(agentOn)).agent).toEqual({
      thinking: true,
      maxTokens: DEFAULT_CONFIG.agent.maxTokens + DEFAULT_CONFIG.thinkingBudget.agent,
    });
  });
});
