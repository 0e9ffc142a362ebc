// The OpenAI adapter sends a tool-use request's tools as `tools=`, so the first message's schema
// block is replaced by a pointer: the model reads each schema once, from the server's chat template.
import { describe, expect, it } from 'vitest';
import { withoutListedTools } from '../../../../src/adapters/llm/openai/openai-tools.ts';
import { toolAgentFirstMessage, TOOLS_SENT_NATIVELY } from '../../../../src/core/prompts/agent-prompt.ts';
import { DEFAULT_TEMPLATES } from '../../../../src/core/prompts/templates.ts';
import type { ChatMessage, ToolSchema } from '../../../../src/core/ports/chat-port.ts';

const TOOLS: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'count',
      description: 'Units of an item.',
      parameters: { type: 'object', properties: { item: { type: 'string' } } },
    },
  },
  {
    type: 'function',
    function: { name: 'restock', description: 'Add units ($& kept).', parameters: { type: 'object', properties: {} } },
  },
];

describe('withoutListedTools', () => {
  it('replaces exactly the schema block of the first tool-use message and leaves every other message as it was', () => {
    const first = toolAgentFirstMessage('How many oats?', TOOLS, DEFAULT_TEMPLATES.toolAgent);
    const messages: ChatMessage[] = [
      first,
      { role: 'assistant', content: '<answer>3</answer>' },
      { role: 'user', content: 'Not accepted.' },
    ];
    const sent = withoutListedTools(messages, TOOLS);
    expect(first.content).toContain('"name":"count"');
    expect(sent[0]!.content).not.toContain('"type":"function"');
    expect(sent[0]!.content).toBe(
      first.content.replace(TOOLS.map((t) => JSON.stringify(t)).join('\n'), TOOLS_SENT_NATIVELY),
    );
    expect(sent[0]!.content.endsWith('User: How many oats?')).toBe(true);
    expect(sent.slice(1)).toEqual(messages.slice(1));
    expect(messages[0]).toBe(first);
  });

  it('changes nothing without tools, or when no message lists these very tools', () => {
    const first = toolAgentFirstMessage('How many oats?', TOOLS, DEFAULT_TEMPLATES.toolAgent);
    expect(withoutListedTools([first], undefined)).toEqual([first]);
    expect(withoutListedTools([first], [])).toEqual([first]);
    expect(withoutListedTools([first], TOOLS.slice(1).concat(TOOLS.slice(0, 1)))).toEqual([first]);
  });
});
