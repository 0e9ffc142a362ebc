import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { playEpisode } from '../../../src/core/loop/play-episode.ts';
import { roleThinking } from '../../../src/core/thinking.ts';
import {
  ChatModelError,
  type ChatMessage,
  type ChatModel,
  type ChatRequest,
} from '../../../src/core/ports/chat-port.ts';
import type { SpadeEvent } from '../../../src/core/loop/events.ts';
import { fakeSandbox, type FakeClass } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 5,
  skills: ['Logical Deduction', 'Optimization'],
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  useCorpus: false,
};

/** This model's own token count: a quarter token per character and 4 per message. */
const count = (messages: readonly ChatMessage[]) =>
  messages.reduce((n, m) => n + Math.ceil(m.content.length / 4) + 4, 0);

/** The scripted model behind a window (null: it does not say), recording every request sent. */
function windowed(window: number | null, script = new ScriptedChatModel(SCRIPT)): ChatModel & { sent: ChatRequest[] } {
  const sent: ChatRequest[] = [];
  return {
    id: script.id,
    sent,
    contextWindow: async () => window,
    countPromptTokens: async (request) => count(request.messages),
    complete: (request) => (sent.push(request), script.complete(request)),
  };
}

const scores = (r: EpochResult) => ({
  envs: r.environments.map((e) => [e.id, e.status, e.stats]),
  returns: r.episodes.map((e) => [e.id, e.return]),
});

describe('an epoch against a model that reports its context window', () => {
  it('sends every request within the window, lowers max_tokens to fit, keeps per-role figures, and scores as with an unknown window', async () => {
    const events: SpadeEvent[] = [];
    const tight = windowed(3000);
    const result = await runEpoch(
      { model: tight, sandbox: fakeSandbox(HINT_HELPS_DOUBLES), corpus: [], emit: (e) => events.push(e) },
      INITIAL_RUN_STATE,
      CONFIG,
    );
    for (const request of tight.sent) expect(count(request.messages) + request.maxTokens).toBeLessThanOrEqual(3000);
    expect(
      tight.sent.filter((r) => r.purpose === 'designer').every((r) => r.maxTokens < CONFIG.designer.maxTokens),
    ).toBe(true);
    const budget = result.metrics.promptBudget!;
    expect(Object.keys(budget)).toEqual(['designer', 'hint', 'agent']);
    const designs = tight.sent.filter((r) => r.purpose === 'designer');
    expect(budget.designer).toEqual({
      requests: designs.length,
      trimmed: 0,
      maxPromptTokens: Math.max(...designs.map((r) => count(r.messages))),
      minMaxTokens: Math.min(...designs.map((r) => r.maxTokens)),
      window: 3000,
    });
    expect(events.filter((e) => e.type === 'prompt_fitted')).toHaveLength(tight.sent.length);

    const open = windowed(null);
    const unmeasured = await runEpoch(
      { model: open, sandbox: fakeSandbox(HINT_HELPS_DOUBLES), corpus: [] },
      INITIAL_RUN_STATE,
      CONFIG,
    );
    expect(unmeasured.metrics.promptBudget).toBeUndefined();
    expect(
      open.sent.every(
        (r) =>
          r.maxTokens === { designer: 4096, repair: 4096, hint: 256, agent: 1024, judge: 4096, lesson: 256 }[r.purpose],
      ),
    ).toBe(true);
    expect(scores(result)).toEqual(scores(unmeasured));
  });

  it('fails before sending a request that cannot fit even trimmed, naming the role and the window', async () => {
    const small = windowed(1200);
    const error = await runEpoch(
      { model: small, sandbox: fakeSandbox(HINT_HELPS_DOUBLES), corpus: [] },
      INITIAL_RUN_STATE,
      CONFIG,
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChatModelError);
    expect((error as ChatModelError).code).toBe('context_length');
    expect((error as ChatModelError).message).toMatch(
      /^the designer request does not fit the model's 1200-token context window: its prompt is \d+ tokens/,
    );
    expect(small.sent).toEqual([]);
  });
});

// A game that never ends by itself: each observation is long, so a long episode outgrows a small window.
const endless: FakeClass = () => ({
  reset: () => ({ observation: 'Count the stones. '.repeat(20), info: {} }),
  step: (action) => ({
    observation: `You said ${action}. ${'More stones roll in. '.repeat(20)}`,
    reward: 0,
    terminated: false,
    truncated: false,
    info: {},
  }),
});

describe('a long episode against a small window', () => {
  it('leaves the earliest turns out of later requests, keeps the whole conversation in the record, and never overflows', async () => {
    const model = windowed(
      1400,
      new ScriptedChatModel({ rules: [{ purpose: 'agent', replies: ['I add one more: \\boxed{1}'] }] }),
    );
    const handle = await fakeSandbox({ 'class Endless:': endless }).load('class Endless:', {
      maxTurns: 12,
      timeoutMs: 1000,
    });
    const episode = await playEpisode(model, handle, {
      seed: 1,
      hint: null,
      lessons: ['Count first.'],
      maxTurns: 12,
      stepTimeoutMs: 1000,
      sampling: { temperature: 0, topP: 1, maxTokens: 512 },
      thinking: roleThinking(DEFAULT_CONFIG, 'agent'),
      template: DEFAULT_CONFIG.prompts.agent,
      modelSeedKey: 'k',
    });
    expect(episode.turns).toHaveLength(12);
    expect(episode.messages).toHaveLength(25);
    for (const request of model.sent) expect(count(request.messages) + request.maxTokens).toBeLessThanOrEqual(1400);
    const last = model.sent.at(-1)!;
    expect(last.messages.length).toBeLessThan(23);
    expect(last.messages[0]!.content).toMatch(/\[Turns 1-\d+ are left out here to fit the model's context/);
    expect(last.messages.at(-1)).toEqual(episode.messages.at(-3));
    expect(last.messages[0]!.content.startsWith('PLAYBOOK')).toBe(true);
  });
});
