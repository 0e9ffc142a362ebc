import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { estimatePromptTokens } from '../../../src/core/budget/prompt-estimate.ts';
import { parseCorpus } from '../../../src/core/loop/corpus.ts';
import { DEFAULT_TEMPLATES } from '../../../src/core/prompts/templates.ts';
import type { ChatMessage, ToolSchema } from '../../../src/core/ports/chat-port.ts';
import { qwen3PromptTokens } from '../../fixtures/qwen3-chatml.ts';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const replies = (file: string) =>
  (JSON.parse(read(file)) as { rules: Array<{ replies: string[] }> }).rules.flatMap((r) => r.replies);
const TOOLS: ToolSchema[] = [
  {
    type: 'function',
    function: {
      name: 'set_light',
      description: 'Turn a room light on or off.',
      parameters: {
        type: 'object',
        properties: { room: { type: 'string', enum: ['hall', 'kitchen'] }, on: { type: 'boolean' } },
        required: ['room', 'on'],
      },
    },
  },
  {
    type: 'function',
    function: {
      name: 'read_meter',
      description: 'Read the energy meter in kWh.',
      parameters: { type: 'object', properties: {}, required: [] },
    },
  },
];

// The estimate must never count fewer tokens than the engine, or a fitted request could still overflow.
describe('the prompt estimate against Qwen3\u2019s tokenizer', () => {
  const texts = [
    ...Object.values(DEFAULT_TEMPLATES),
    ...replies('public/demo/demo-script.json'),
    ...replies('public/demo/tool-use-script.json'),
    ...parseCorpus(read('public/corpus/concepts.jsonl'))
      .docs.slice(0, 40)
      .map((d) => d.text),
  ];

  it('counts at least as many tokens as Qwen3 for every template, demo reply and the first 40 corpus documents, alone and in a conversation', () => {
    for (const text of texts) {
      const messages: ChatMessage[] = [{ role: 'user', content: text }];
      expect(estimatePromptTokens({ messages }), text.slice(0, 60)).toBeGreaterThanOrEqual(qwen3PromptTokens(messages));
    }
    const conversation: ChatMessage[] = texts
      .slice(0, 24)
      .map((content, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content }));
    expect(estimatePromptTokens({ messages: conversation })).toBeGreaterThanOrEqual(qwen3PromptTokens(conversation));
  });

  it('counts at least as many tokens as Qwen3 for a tool-use request with its tool schemas', () => {
    const messages: ChatMessage[] = [{ role: 'user', content: DEFAULT_TEMPLATES.toolAgent }];
    expect(estimatePromptTokens({ messages, tools: TOOLS })).toBeGreaterThanOrEqual(qwen3PromptTokens(messages, TOOLS));
  });
});
