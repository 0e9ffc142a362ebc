import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import type { ChatRequest, ChatUsage } from '../../../src/core/ports/chat-port.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';

// The hint-helps script, which answers a lesson request too: its hint wins where the agent alone loses, so the playbook asks.
const BASE = JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')) as {
  name: string;
  rules: unknown[];
};
const SCRIPT = {
  ...BASE,
  rules: [...BASE.rules, { purpose: 'lesson', replies: ['LESSON: Read which key the text marks before trying one.'] }],
};
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 11,
  skills: ['Logical Deduction', 'Optimization'],
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  usePlaybook: true,
};

// The epoch's tokens are every model call it made: designs, hints, plays and the playbook's lessons.
describe("an epoch's token count", () => {
  it('adds up the usage of every request, hint and lesson requests included', async () => {
    const scripted = new ScriptedChatModel(parseChatScript(SCRIPT));
    const spent: Array<{ purpose: string; usage: ChatUsage }> = [];
    const model = {
      id: scripted.id,
      complete: async (request: ChatRequest) => {
        const result = await scripted.complete(request);
        spent.push({ purpose: request.purpose ?? 'unknown', usage: result.usage });
        return result;
      },
    };
    const result = await runEpoch(
      { model, sandbox: fakeSandbox(HINT_HELPS_DOUBLES), corpus: [] },
      INITIAL_RUN_STATE,
      CONFIG,
    );
    const tokens = (purpose: string) =>
      spent.filter((s) => s.purpose === purpose).reduce((n, s) => n + s.usage.promptTokens, 0);
    expect(tokens('hint')).toBeGreaterThan(0);
    expect(tokens('lesson')).toBeGreaterThan(0);
    expect(result.metrics.promptTokens).toBe(spent.reduce((n, s) => n + s.usage.promptTokens, 0));
    expect(result.metrics.completionTokens).toBe(spent.reduce((n, s) => n + s.usage.completionTokens, 0));
    for (const env of result.environments.filter((e) => e.status === 'valid'))
      expect(env.hintUsage!.promptTokens).toBeGreaterThan(0);
  });
});
