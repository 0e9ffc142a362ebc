// A whole tool-use epoch against the real Node sandbox, with the scripted tool-use demo model
// (public/demo/tool-use-script.json), whose agent wins only with the hint: in-process and
// through the OpenAI-compatible backend against a local stand-in server.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { FakeOpenAIServer, scriptedResponder } from '../../adapters/llm/openai/fake-openai-server.ts';
import { OpenAIChatModel } from '../../../src/adapters/llm/openai/openai-chat-model.ts';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withSetting, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { slotDomain } from '../../../src/core/loop/design-slot.ts';
import type { ChatModel } from '../../../src/core/ports/chat-port.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';

const SCRIPT = parseChatScript(JSON.parse(readFileSync(new URL('../../../public/demo/tool-use-script.json', import.meta.url), 'utf8')));
const runtime = fileSandbox();

// Two slots, two unhinted and two hinted plays each, the judge on; roomy limits for a shared machine.
const CONFIG: Config = {
  ...withSetting(DEFAULT_CONFIG, 'tool_use'),
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 5,
  useCorpus: false,
  solvabilityJudge: true,
  validateTimeoutMs: 30_000,
  stepTimeoutMs: 10_000,
};

const epoch = (model: ChatModel) => runEpoch({ model, sandbox: runtime(), corpus: [] }, INITIAL_RUN_STATE, CONFIG);

// What the method defines for an agent that wins every hinted play and no unhinted one.
function expectKnownRegret(result: EpochResult): void {
  expect(result.environments.map((e) => [e.status, e.skill, e.domain])).toEqual([
    ['valid', 'API Orchestration', slotDomain(CONFIG.seed, 'e0000-s00')],
    ['valid', 'Data Retrieval', slotDomain(CONFIG.seed, 'e0000-s01')],
  ]);
  for (const env of result.environments) {
    expect(env.attempts[0]!.judge?.verdict).toBe('yes');
    // r_hint 1, r_nohint 0: regret 1; win rate 0; blend = 0.4 * clip(1 / 0.15, 0, 1) + 0.6 * plateau(0) = 0.4.
    expect(env.stats).toMatchObject({ rHint: 1, rNoHint: 0, regret: 1, winRate: 0, designerReward: 0.4 });
  }
  const hinted = result.episodes.filter((e) => e.arm === 'hint');
  expect(hinted.map((e) => [e.return, e.turns.length])).toEqual(Array(4).fill([1, 4]));
  const unhinted = result.episodes.filter((e) => e.arm === 'nohint');
  expect(unhinted.map((e) => [e.return, e.turns.length, e.error])).toEqual(Array(4).fill([0, 5, null]));
}

describe('a tool-use epoch with the real sandbox', () => {
  let inProcess: EpochResult;

  it('gives the known regret: the agent wins only with the hint', async () => {
    inProcess = await epoch(new ScriptedChatModel(SCRIPT));
    expectKnownRegret(inProcess);
  });

  it('plays with the tools in the first message, tool results as tool messages, and exports them in the rows', () => {
    const play = inProcess.episodes.find((e) => e.arm === 'hint')!;
    expect(play.messages[0]!.content).toContain('{"type":"function","function":{"name":"set_light","description":"Switch a room\'s light on or off."');
    expect(play.messages[0]!.content.startsWith(DEFAULT_TEMPLATES.toolAgent.slice(0, 60))).toBe(true);
    expect(play.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    expect(play.messages[2]!.content).toMatch(/^Tool result:\n\w+ light: on\n\n\[DONE\. NEXT INSTRUCTION\] Make it warm in there: comfort mode\.$/);
    expect(play.turns.map((t) => t.action.slice(0, 32))).toEqual(['<tool_call>{"name":"set_light","', '<tool_call>{"name":"set_heating"', '<tool_call>{"name":"status","arg', '<answer>done</answer>']);
    const unhinted = inProcess.episodes.find((e) => e.arm === 'nohint')!;
    expect(unhinted.turns.map((t) => t.action)).toEqual([
      '<tool_call>{"name":"list_scenes","arguments":{}}</tool_call>',
      '<answer>done</answer>',
      '<tool_call>{"name":"list_scenes","arguments":{}}</tool_call>',
      '<answer>done</answer>',
      '<tool_call>{"name":"list_scenes","arguments":{}}</tool_call>',
    ]);
    expect(unhinted.messages[4]).toEqual({
      role: 'user',
      content: expect.stringMatching(/^Not accepted: instruction 1 of 3 is still open: "I'm heading to the \w+; please turn its light on\." Finish it with the tools first\.$/),
    });
    const row = inProcess.rollouts.find((r) => r.role === 'agent' && r.envId === unhinted.envId)!;
    expect(row.messages.map((m) => [m.role, m.weight ?? 0])).toEqual([
      ['user', 0],
      ['assistant', 1],
      ['tool', 0],
      ['assistant', 1],
      ['user', 0],
      ['assistant', 1],
      ['tool', 0],
      ['assistant', 1],
      ['user', 0],
      ['assistant', 1],
    ]);
  });

  it("records a multi-turn task's instructions and, after each step, the instructions done and each criterion's truth", () => {
    const play = inProcess.episodes.find((e) => e.arm === 'hint')!;
    const room = /heading to the (\w+);/.exec(play.firstObservation)![1]!;
    expect(play.instructions).toEqual([`I'm heading to the ${room}; please turn its light on.`, 'Make it warm in there: comfort mode.', 'Show me how that room is set up now.']);
    expect(play.turns.map((t) => t.progress)).toEqual([
      { done: 1, criteria: [true, false, false] },
      { done: 2, criteria: [true, true, false] },
      { done: 3, criteria: [true, true, true] },
      { done: 3, criteria: [true, true, true] },
    ]);
    const unhinted = inProcess.episodes.find((e) => e.arm === 'nohint')!;
    expect(unhinted.turns.map((t) => t.progress?.done)).toEqual([0, 0, 0, 0, 0]);
  });

  describe('through the OpenAI-compatible backend', () => {
    let server: FakeOpenAIServer;
    beforeAll(async () => {
      server = await FakeOpenAIServer.start();
      server.respondWith(scriptedResponder(new ScriptedChatModel(SCRIPT), { pieces: 'whole' }));
    });
    afterAll(() => server.close());

    it('gives the same environments, returns and regret, the tools sent natively and the calls paired with their results', async () => {
      const result = await epoch(new OpenAIChatModel({ baseUrl: server.origin, model: 'stand-in' }));
      expectKnownRegret(result);
      expect(result.episodes.map((e) => e.turns.map((t) => t.action))).toEqual(inProcess.episodes.map((e) => e.turns.map((t) => t.action)));
      const agentBodies = server.requests.map((r) => r.body as { tools?: Array<{ function: { name: string } }>; messages: Array<Record<string, unknown>> }).filter((b) => b.tools);
      expect(agentBodies[0]!.tools!.map((t) => t.function.name)).toEqual(['set_light', 'set_heating', 'status', 'list_scenes']);
      const last = agentBodies.find((b) => b.messages.length === 7 && String(b.messages[0]!.content).includes('HINT:'))!;
      expect(last.messages.map((m) => [m.role, m.tool_call_id ?? (Array.isArray(m.tool_calls) ? 'calls' : '')])).toEqual([
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
