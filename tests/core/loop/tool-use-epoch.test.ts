// A whole tool-use epoch with the scripted tool-use demo model (public/demo/tool-use-script.json),
// whose agent wins only with the hint. The first epoch runs in-process against the real Node
// sandbox: it proves the known regret end to end. The second runs the same epoch through the
// OpenAI-compatible backend against a local stand-in server, with the sandbox answered from the
// first epoch's recording: the real-sandbox path is already proven, and the replay demands the very
// same sandbox calls in the same order, so it proves the backend path acts exactly as in-process.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { recordingSandbox, replayingSandbox, type RecordedCall } from '../../fixtures/recorded-sandbox.ts';
import { FakeOpenAIServer, scriptedResponder } from '../../adapters/llm/openai/fake-openai-server.ts';
import { OpenAIChatModel } from '../../../src/adapters/llm/openai/openai-chat-model.ts';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { slotDomain } from '../../../src/core/loop/design-slot.ts';
import type { ChatModel } from '../../../src/core/ports/chat-port.ts';
import type { SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import { TOOLS_SENT_NATIVELY } from '../../../src/core/prompts/agent-prompt.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../../../public/demo/tool-use-script.json', import.meta.url), 'utf8')),
);
const runtime = fileSandbox();

// The least that proves it: one slot, one unhinted and one hinted play, and a turn cap of 4, the
// length of the hinted winning line (three tool calls and the answer), so the unhinted play runs
// out of turns. The judge is on. Roomy limits for a shared machine. One unit of work at a time, so
// the sandbox calls come in one order that the OpenAI-backend epoch can replay.
const CONFIG: Config = {
  ...withSetting(DEFAULT_CONFIG, 'tool_use'),
  slotsPerEpoch: 1,
  playsPerArm: 1,
  hintPlays: 1,
  maxTurns: 4,
  useCorpus: false,
  solvabilityJudge: true,
  validateTimeoutMs: 30_000,
  stepTimeoutMs: 10_000,
  concurrency: 1,
};

const epoch = (model: ChatModel, sandbox: SandboxRuntime) =>
  runEpoch({ model, sandbox, corpus: [] }, INITIAL_RUN_STATE, CONFIG);

// What the method defines for an agent that wins every hinted play and no unhinted one.
function expectKnownRegret(result: EpochResult): void {
  expect(result.environments.map((e) => [e.status, e.skill, e.domain])).toEqual([
    ['valid', 'API Orchestration', slotDomain(CONFIG.seed, 'e0000-s00')],
  ]);
  for (const env of result.environments) {
    expect(env.attempts[0]!.judge?.verdict).toBe('yes');
    // r_hint 1, r_nohint 0: regret 1; win rate 0; blend = 0.4 * clip(1 / 0.15, 0, 1) + 0.6 * plateau(0) = 0.4.
    expect(env.stats).toMatchObject({ rHint: 1, rNoHint: 0, regret: 1, winRate: 0, designerReward: 0.4 });
  }
  const hinted = result.episodes.filter((e) => e.arm === 'hint');
  expect(hinted.map((e) => [e.return, e.turns.length])).toEqual([[1, 4]]);
  const unhinted = result.episodes.filter((e) => e.arm === 'nohint');
  expect(unhinted.map((e) => [e.return, e.turns.length, e.error])).toEqual([[0, 4, null]]);
}

describe('a tool-use epoch with the real sandbox', () => {
  let inProcess: EpochResult;
  let calls: RecordedCall[];
  beforeAll(async () => {
    const recording = recordingSandbox(runtime());
    inProcess = await epoch(new ScriptedChatModel(SCRIPT), recording.runtime);
    calls = recording.calls;
  });

  it('gives the known regret: the agent wins only with the hint', () => {
    expectKnownRegret(inProcess);
  });

  it('plays with the tools in the first message, tool results as tool messages, and exports them in the rows', () => {
    const play = inProcess.episodes.find((e) => e.arm === 'hint')!;
    expect(play.messages[0]!.content).toContain(
      '{"type":"function","function":{"name":"set_light","description":"Switch a room\'s light on or off."',
    );
    expect(play.messages[0]!.content.startsWith(DEFAULT_TEMPLATES.toolAgent.slice(0, 60))).toBe(true);
    expect(play.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
      'tool',
      'assistant',
    ]);
    expect(play.messages[2]!.content).toMatch(
      /^Tool result:\n\w+ light: on\n\n\[DONE\. NEXT INSTRUCTION\] Make it warm in there: comfort mode\.$/,
    );
    expect(play.turns.map((t) => t.action.slice(0, 32))).toEqual([
      '<tool_call>{"name":"set_light","',
      '<tool_call>{"name":"set_heating"',
      '<tool_call>{"name":"status","arg',
      '<answer>done</answer>',
    ]);
    const unhinted = inProcess.episodes.find((e) => e.arm === 'nohint')!;
    expect(unhinted.turns.map((t) => t.action)).toEqual([
      '<tool_call>{"name":"list_scenes","arguments":{}}</tool_call>',
      '<answer>done</answer>',
      '<tool_call>{"name":"list_scenes","arguments":{}}</tool_call>',
      '<answer>done</answer>',
    ]);
    expect(unhinted.messages[4]).toEqual({
      role: 'user',
      content: expect.stringMatching(
        /^Not accepted: instruction 1 of 3 is still open: "I'm heading to the \w+; please turn its light on\." Finish it with the tools first\.$/,
      ),
    });
    const row = inProcess.rollouts.find((r) => r.role === 'agent' && r.envId === unhinted.envId)!;
    // The play ran out of turns without terminating, so the tool-use masks (on by default) weight every reply 0; the row stays.
    expect(unhinted.turns.at(-1)!.terminated).toBe(false);
    expect(row.messages.map((m) => [m.role, m.weight])).toEqual([
      ['user', undefined],
      ['assistant', 0],
      ['tool', undefined],
      ['assistant', 0],
      ['user', undefined],
      ['assistant', 0],
      ['tool', undefined],
      ['assistant', 0],
    ]);
  });

  it('the recording answers only the recorded calls: a different action diverges loudly', async () => {
    const replay = replayingSandbox(calls.slice(calls.findIndex((c) => c.method === 'load')));
    const handle = await replay.load(inProcess.environments[0]!.code, { maxTurns: CONFIG.maxTurns, timeoutMs: 1000 });
    await expect(handle.step('<answer>done</answer>')).rejects.toThrow(
      'replay diverged at call 1: asked step("<answer>done</answer>") on handle 0, the recording has reset(42) on handle 0',
    );
  });

  it("records a multi-turn task's instructions and, after each step, the instructions done and each criterion's truth", () => {
    const play = inProcess.episodes.find((e) => e.arm === 'hint')!;
    const room = /heading to the (\w+);/.exec(play.firstObservation)![1]!;
    expect(play.instructions).toEqual([
      `I'm heading to the ${room}; please turn its light on.`,
      'Make it warm in there: comfort mode.',
      'Show me how that room is set up now.',
    ]);
    expect(play.turns.map((t) => t.progress)).toEqual([
      { done: 1, criteria: [true, false, false] },
      { done: 2, criteria: [true, true, false] },
      { done: 3, criteria: [true, true, true] },
      { done: 3, criteria: [true, true, true] },
    ]);
    const unhinted = inProcess.episodes.find((e) => e.arm === 'nohint')!;
    expect(unhinted.turns).toHaveLength(CONFIG.maxTurns);
    expect(unhinted.turns.map((t) => t.progress?.done)).toEqual(unhinted.turns.map(() => 0));
  });

  describe('through the OpenAI-compatible backend', () => {
    let server: FakeOpenAIServer;
    beforeAll(async () => {
      server = await FakeOpenAIServer.start();
      server.respondWith(scriptedResponder(new ScriptedChatModel(SCRIPT), { pieces: 'whole' }));
    });
    afterAll(() => server.close());

    it('gives the same environments, returns and regret, the tools sent natively and the calls paired with their results', async () => {
      const replay = replayingSandbox(calls);
      const result = await epoch(new OpenAIChatModel({ baseUrl: server.origin, model: 'stand-in' }), replay);
      expect(replay.remaining()).toBe(0);
      expectKnownRegret(result);
      expect(result.episodes.map((e) => e.turns.map((t) => t.action))).toEqual(
        inProcess.episodes.map((e) => e.turns.map((t) => t.action)),
      );
      const agentBodies = server.requests
        .map(
          (r) => r.body as { tools?: Array<{ function: { name: string } }>; messages: Array<Record<string, unknown>> },
        )
        .filter((b) => b.tools);
      expect(agentBodies[0]!.tools!.map((t) => t.function.name)).toEqual([
        'set_light',
        'set_heating',
        'status',
        'list_scenes',
      ]);
      // Sent natively, the schemas are not listed in the first message a second time.
      expect(String(agentBodies[0]!.messages[0]!.content)).not.toContain('"type":"function"');
      expect(String(agentBodies[0]!.messages[0]!.content)).toContain(TOOLS_SENT_NATIVELY);
      const last = agentBodies.find(
        (b) => b.messages.length === 7 && String(b.messages[0]!.content).includes('HINT:'),
      )!;
      expect(
        last.messages.map((m) => [m.role, m.tool_call_id ?? (Array.isArray(m.tool_calls) ? 'calls' : '')]),
      ).toEqual([
        ['user', ''],
        ['assistant', 'calls'],
        ['tool', 'call_1'],
        ['assistant', 'calls'],
        ['tool', 'call_3'],
        ['assistant', 'calls'],
        ['tool', 'call_5'],
      ]);
    });
  });
});
