// Issue 32's "Done when": a multi-epoch run at the reference preset, recomputed with the
// reference's rules (docs/method.md section 5, "What it cost your run"), shows zero differences, in
// both settings; the same environments and agent at the tab defaults show the crash rule's cost.
// A scripted agent and the in-process fake sandbox: the sandbox is not the point here.
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withPreset, withSetting, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { compareWithReference, type ReferenceComparison } from '../../../src/core/scoring/reference-recompute.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import { fakeFailure, fakeSandbox, type FakeInstance } from '../../fixtures/fake-sandbox.ts';

/** A game: `win` wins, `crash` makes step raise, `lose` loses, anything else plays on (truncated at the class's turns). */
function game(maxTurns: number): FakeInstance {
  let turns = 0;
  return {
    reset: () => ((turns = 0), { observation: 'Say win.', info: {} }),
    step: (action) => {
      turns += 1;
      if (action.includes('crash')) throw fakeFailure('step_exception');
      const over = action.includes('win') || action.includes('lose');
      return {
        observation: 'next',
        reward: action.includes('win') ? 1 : 0,
        terminated: over,
        truncated: !over && turns >= maxTurns,
        info: {},
      };
    },
  };
}

const TOOLS = [
  {
    type: 'function',
    function: { name: 'lookup', description: 'Shelf of a book.', parameters: { type: 'object', properties: {} } },
  },
];

/** A tool-use desk: `lookup` tells the shelf, the answer B4 wins, `crash` in an answer makes step raise, another answer loses. */
function desk(maxTurns: number): FakeInstance {
  let turns = 0;
  return {
    ...game(maxTurns),
    reset: () => (
      (turns = 0),
      { observation: 'Which shelf holds Dune? Answer with <answer>shelf</answer>.', info: {} }
    ),
    step: (action) => {
      turns += 1;
      if (action.includes('crash')) throw fakeFailure('step_exception');
      const answered = action.includes('<answer>');
      return {
        observation: answered ? 'over' : 'Tool result: B4',
        reward: action.includes('B4</answer>') ? 1 : 0,
        terminated: answered,
        truncated: !answered && turns >= maxTurns,
        info: {},
      };
    },
    toolFacts: () => ({
      methods: ['lookup'],
      tools: TOOLS,
      toolsError: null,
      messages: null,
      criteria: null,
      current: 0,
    }),
    executeTool: () => 'B4',
  };
}

const GAME_REPLIES = ['\\boxed{win}', '\\boxed{crash}', '\\boxed{lose}', '\\boxed{wait}'];
const TOOL_REPLIES = [
  '<answer>B4</answer>',
  '<answer>crash</answer>',
  '<tool_call>{"name": "lookup", "arguments": {}}</tool_call>',
  '<tool_call>{"name": lookup</tool_call>',
  '<answer>A1</answer>',
];

/** The designer sends the fake's name, hints are one sentence; a hinted agent wins at once, an unhinted one picks a reply by its request's seed. */
function agent(code: string, replies: readonly string[]): ScriptedChatModel {
  return new ScriptedChatModel((r: ChatRequest) => {
    if (r.purpose === 'designer' || r.purpose === 'repair') return `\`\`\`python\n${code}\n\`\`\``;
    if (r.purpose === 'hint') return 'Answer at once.';
    if (r.messages[0]!.content.includes('HINT:')) return replies[0]!;
    return replies[r.seed % replies.length]!;
  });
}

async function run(config: Config, code: string, replies: readonly string[]): Promise<EpochResult[]> {
  const ports = {
    model: agent(code, replies),
    sandbox: { ...fakeSandbox({ Game: game, Desk: desk }), parallelism: 4 },
    corpus: [],
  };
  const first = await runEpoch(ports, INITIAL_RUN_STATE, config);
  return [first, await runEpoch(ports, first.nextState, config)];
}

const compared = (config: Config, epochs: readonly EpochResult[]): ReferenceComparison =>
  compareWithReference(config, epochs);
const differing = (c: ReferenceComparison) => c.combined.filter((t) => t.changes.length > 0).map((t) => t.quantity);
const changesOf = (c: ReferenceComparison, knob: string) =>
  c.differences
    .find((d) => d.knob === knob)!
    .tallies.filter((t) => t.changes.length > 0)
    .map((t) => t.quantity);

const GAMES: Config = { ...withPreset(DEFAULT_CONFIG, 'reference'), useCorpus: false, concurrency: 8 };
const TOOL_USE: Config = {
  ...withPreset(withSetting(DEFAULT_CONFIG, 'tool_use'), 'reference'),
  useCorpus: false,
  concurrency: 8,
};
const TAB_GAMES: Config = { ...DEFAULT_CONFIG, useCorpus: false };
const TAB_TOOL_USE: Config = { ...withSetting(DEFAULT_CONFIG, 'tool_use'), useCorpus: false };

describe('a two-epoch run at the reference preset, recomputed with the reference rules', () => {
  it('games: crashes kept as -1, zero differences', async () => {
    const epochs = await run(GAMES, 'Game', GAME_REPLIES);
    const episodes = epochs.flatMap((e) => e.episodes);
    // The run is at the reference's scale (24 slots, 8 plays x 4 rollouts and 16 hinted per environment) and crashes were kept.
    expect(epochs.map((e) => e.environments.filter((env) => env.status === 'valid').length)).toEqual([24, 24]);
    expect(episodes.length).toBe(2 * 24 * (8 * 4 + 16));
    expect(episodes.filter((e) => e.crash?.at === 'step').length).toBeGreaterThan(100);
    const comparison = compared(GAMES, epochs);
    expect(comparison.differences).toEqual([]);
    expect(differing(comparison)).toEqual([]);
    expect(comparison.combined.find((t) => t.quantity === 'play return')!.compared).toBe(episodes.length);
    expect(comparison.needReplay).toEqual([]);
  }, 60_000);

  it('tool use: crashes kept, unreadable calls masked, zero differences', async () => {
    const epochs = await run(TOOL_USE, 'Desk', TOOL_REPLIES);
    const episodes = epochs.flatMap((e) => e.episodes);
    expect(epochs.map((e) => e.environments.filter((env) => env.status === 'valid').length)).toEqual([24, 24]);
    expect(episodes.filter((e) => e.crash?.at === 'step').length).toBeGreaterThan(100);
    expect(episodes.some((e) => e.turns.some((t) => t.malformedCall))).toBe(true);
    const comparison = compared(TOOL_USE, epochs);
    expect(comparison.differences).toEqual([]);
    expect(differing(comparison)).toEqual([]);
    expect(comparison.combined.find((t) => t.quantity === 'reply weights')!.compared).toBeGreaterThan(1000);
  }, 60_000);
});

describe('the same at the tab defaults', () => {
  it("games: the crash rule's cost is recomputed, the rest is named as needing a new run", async () => {
    const epochs = await run(TAB_GAMES, 'Game', GAME_REPLIES);
    expect(epochs.flatMap((e) => e.episodes).some((e) => e.retried)).toBe(true);
    const comparison = compared(TAB_GAMES, epochs);
    expect(comparison.differences.filter((d) => d.status === 'recomputed').map((d) => d.knob)).toEqual(['crashesLose']);
    expect(changesOf(comparison, 'crashesLose')).toEqual(
      expect.arrayContaining([
        'play return',
        'agent advantage',
        'agent rows',
        'win rate',
        'designer reward',
        'skill average (slow)',
      ]),
    );
    expect(comparison.differences.filter((d) => d.status === 'replay').map((d) => d.knob)).toEqual(
      expect.arrayContaining(['playsPerArm', 'maxTurns', 'replyAids', 'difficulty']),
    );
    expect(differing(comparison)).toEqual(changesOf(comparison, 'crashesLose'));
  }, 60_000);

  it('tool use: the crash rule costs the same way; the masks, on in both presets, cost nothing', async () => {
    const epochs = await run(TAB_TOOL_USE, 'Desk', TOOL_REPLIES);
    const comparison = compared(TAB_TOOL_USE, epochs);
    expect(comparison.differences.filter((d) => d.status === 'recomputed').map((d) => d.knob)).toEqual(['crashesLose']);
    expect(changesOf(comparison, 'crashesLose')).toEqual(expect.arrayContaining(['play return', 'win rate']));
    expect(comparison.differences.find((d) => d.knob === 'freeToolCalls')).toMatchObject({
      status: 'replay',
      run: false,
      reference: true,
    });
    expect(comparison.combined.find((t) => t.quantity === 'reply weights')!.changes).toEqual([]);
  }, 60_000);
});
