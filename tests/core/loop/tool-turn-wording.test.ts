// The tool-use designer prompt tells the turns an episode really has (docs/method.md section 4):
// one reply is one step in the tab, so the class's own cap of 10 lowered to the run's cap; under
// the reference's tool-use turns (`freeToolCalls`) calls cost no step and the run's cap on replies
// bounds the episode, so that cap. Checked on the prompt designSlot really sends.
import { describe, expect, it } from 'vitest';
import { fakeSandbox, type FakeInstance } from '../../fixtures/fake-sandbox.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withPreset, withSetting, type Config } from '../../../src/core/config.ts';
import { designSlot } from '../../../src/core/loop/design-slot.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';

const TOOLS = [
  {
    type: 'function',
    function: { name: 'lookup', description: 'Shelf of a book.', parameters: { type: 'object', properties: {} } },
  },
];

function desk(): FakeInstance {
  return {
    reset: () => ({ observation: 'Which shelf holds Dune? Reply <answer>shelf</answer>.', info: {} }),
    step: () => ({ observation: 'B4', reward: 0, terminated: false, truncated: false, info: {} }),
    toolFacts: () => ({
      methods: ['lookup'],
      tools: TOOLS,
      toolsError: null,
      messages: null,
      criteria: null,
      current: 0,
    }),
  };
}

async function designerPrompt(config: Config): Promise<string> {
  const asked: ChatRequest[] = [];
  const model = new ScriptedChatModel((request) => (asked.push(request), '```python\nDeskEnv\n```'));
  await designSlot({
    ...{
      epoch: 0,
      slot: 0,
      skill: 'Data Retrieval',
      envId: 'e0000-s00',
      config: { ...config, useCorpus: false },
      corpus: [],
      memory: [],
      model,
      sandbox: fakeSandbox({ DeskEnv: desk }),
    },
    ...{ onAttemptStart: () => undefined, onToken: () => undefined, onValidated: () => undefined },
  });
  return asked.find((r) => r.purpose === 'designer')!.messages[0]!.content;
}

const TOOL_USE = withSetting(DEFAULT_CONFIG, 'tool_use');

describe("the tool-use designer prompt's turn budget", () => {
  it('tab (one reply, one step, 12-turn cap): the class cap of 10', async () => {
    expect(await designerPrompt(TOOL_USE)).toContain('An episode stops after 10 agent turns');
  });

  it('reference preset (free tool calls, 25-reply cap): 25', async () => {
    const reference = withPreset(TOOL_USE, 'reference');
    expect([reference.freeToolCalls, reference.maxTurns]).toEqual([true, 25]);
    const text = await designerPrompt(reference);
    expect(text).toContain('An episode stops after 25 agent turns');
    expect(text).not.toContain('after 10 agent turns');
  });

  it('the reference preset with one step per reply keeps the class cap', async () => {
    expect(await designerPrompt({ ...withPreset(TOOL_USE, 'reference'), freeToolCalls: false })).toContain(
      'An episode stops after 10 agent turns',
    );
  });
});
