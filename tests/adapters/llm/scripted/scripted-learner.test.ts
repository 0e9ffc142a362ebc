import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { ScriptedLearnerModel, scriptedModel } from '../../../../src/adapters/llm/scripted/scripted-learner.ts';
import type { ChatRequest } from '../../../../src/core/ports/chat-port.ts';
import { agentFirstMessage } from '../../../../src/core/prompts/agent-prompt.ts';
import { DEFAULT_TEMPLATES } from '../../../../src/core/prompts/templates.ts';

const SCRIPT = parseChatScript({
  name: 'test',
  learner: true,
  rules: [{ purpose: 'agent', replies: ['\\boxed{script}'] }],
});
const OBSERVATION =
  '[Beacon Sync] Three beacons flash every 4, 6 and 10 seconds. All three flashed together at second 7. At which second after second 100 do all three next flash together? Reply with the second as \\boxed{number}. One wrong answer ends the game.';

function agentRequest(lessons: string[], observation = OBSERVATION): ChatRequest {
  return {
    messages: [agentFirstMessage(observation, DEFAULT_TEMPLATES.agent, lessons)],
    temperature: 0,
    topP: 1,
    maxTokens: 100,
    seed: 1,
    purpose: 'agent',
  };
}

describe('the scripted learner', () => {
  it('plays a held-out game by its winning line only with a playbook lesson, and by its losing line without', async () => {
    const learner = new ScriptedLearnerModel(new ScriptedChatModel(SCRIPT));
    const helped = await learner.complete(agentRequest(['Compute before you answer.']));
    const alone = await learner.complete(agentRequest([]));
    expect(helped.text).toBe(
      'My playbook has a lesson for Mathematical Reasoning; following it, I choose \\boxed{127}.',
    );
    expect(alone.text).toMatch(/^I go with my first idea: \\boxed\{\d+\}\.$/);
    expect(alone.text).not.toContain('{127}');
  });

  it('leaves every other request to its script, and keeps the script id and counters', async () => {
    const inner = new ScriptedChatModel(SCRIPT);
    const learner = new ScriptedLearnerModel(inner);
    expect(learner.id).toBe(inner.id);
    expect((await learner.complete(agentRequest(['A lesson.'], 'A cave with two doors.'))).text).toBe(
      '\\boxed{script}',
    );
    expect(learner.snapshot()).toEqual({ 0: 1 });
  });

  it("keeps the script's window, also for the held-out games it answers itself", async () => {
    const learner = scriptedModel(SCRIPT, undefined, 0, { contextWindow: 64 });
    await expect(learner.contextWindow!()).resolves.toBe(64);
    await expect(learner.complete(agentRequest(['A lesson.']))).rejects.toMatchObject({ code: 'context_length' });
    const roomy = scriptedModel(SCRIPT, undefined, 0, { contextWindow: 4096 });
    expect((await roomy.complete(agentRequest(['Compute before you answer.']))).text).toMatch(/\\boxed\{127\}/);
  });

  it('is what a script asking for it gets, and only then', () => {
    expect(scriptedModel(SCRIPT)).toBeInstanceOf(ScriptedLearnerModel);
    expect(scriptedModel({ ...SCRIPT, learner: false })).toBeInstanceOf(ScriptedChatModel);
    expect(() => parseChatScript({ learner: 'yes', rules: SCRIPT.rules })).toThrow('"learner" must be true or false');
  });
});
