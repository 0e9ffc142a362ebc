import { describe, expect, it } from 'vitest';
import { boxedActionGrammar } from '../../../src/core/prompts/action-grammar.ts';
import { gbnfLiteral, jsonLiteral } from '../../../src/core/prompts/gbnf.ts';
import { parseAction } from '../../../src/core/prompts/agent-prompt.ts';
import { toolReplyGrammar } from '../../../src/core/prompts/tool-grammar.ts';
import { parseToolReply } from '../../../src/core/prompts/tool-call-parse.ts';
import type { ToolSchema } from '../../../src/core/ports/chat-port.ts';
import { matches, parseGbnf, sampleGbnf, seededRandom } from '../../fixtures/gbnf-matcher.ts';

const tool = (name: string, parameters: unknown): ToolSchema => ({
  type: 'function',
  function: { name, description: '', parameters: parameters as Record<string, unknown> },
});

const TOOLS: ToolSchema[] = [
  tool('get_order', {
    type: 'object',
    properties: {
      order_id: { type: 'integer' },
      view: { type: 'string', enum: ['summary', 'items'] },
      note: { type: 'string' },
      tags: { type: 'array', items: { type: 'string' } },
    },
    required: ['order_id'],
  }),
  tool('refund', {
    type: 'object',
    properties: { order_id: { type: 'integer' }, amount: { type: 'number' }, full: { type: 'boolean' } },
    required: ['order_id', 'full'],
  }),
  tool('ping', { type: 'object', properties: {} }),
  tool('search', {
    type: 'object',
    properties: {
      query: { type: ['string', 'null'] },
      filters: { type: 'object', properties: { city: { const: 'Paris' } }, required: ['city'] },
    },
  }),
];

describe('GBNF literals', () => {
  it('escape quotes, backslashes and everything outside printable ASCII', () => {
    expect(gbnfLiteral('\\boxed{')).toBe('"\\\\boxed{"');
    expect(gbnfLiteral('a"b\n\u00fc\u{1f600}')).toBe('"a\\"b\\u000a\\u00fc\\U0001f600"');
    expect(() => gbnfLiteral('\ud800')).toThrow(/lone surrogate U\+D800; JSON-encode the text first/);
  });

  it('write JSON values with `<` escaped, and nothing for what JSON cannot write', () => {
    expect(jsonLiteral('</tool_call>')).toBe('"\\"\\\\u003c/tool_call>\\""');
    expect(jsonLiteral('\ud800')).toBe('"\\"\\\\ud800\\""');
    expect(jsonLiteral(undefined)).toBeNull();
  });
});

describe('the boxed-action grammar', () => {
  const grammar = parseGbnf(boxedActionGrammar({ think: true }).gbnf);
  const noThink = parseGbnf(boxedActionGrammar({ think: false }).gbnf);

  it.each([
    ['\\boxed{read 7}'],
    ['I should open the door first.\n\\boxed{open door}'],
    ['<think>the key is behind 3</think>\n\n\\boxed{open 3}'],
    ['\\boxed{UP, UP, LEFT}'],
  ])('allows %j', (reply) => {
    expect(matches(grammar, reply)).toBe(true);
  });

  it.each([
    ['no box', 'I open the door.'],
    ['two boxes', 'A or \\boxed{read 3}? Best is \\boxed{read 7}'],
    ['a nested wrapper', '\\boxed{\\text{brass}}'],
    ['an empty box', '\\boxed{}'],
    ['a box that starts with a space', '\\boxed{ read 7}'],
    ['text after the box', '\\boxed{read 7} done'],
    ['a backslash in the reasoning', 'read\\ 7 \\boxed{read 7}'],
    ['an unclosed think block', '<think>hmm \\boxed{read 7}'],
    ['a box longer than 120 characters', `\\boxed{${'x'.repeat(121)}}`],
  ])('refuses %s', (_what, reply) => {
    expect(matches(grammar, reply)).toBe(false);
  });

  it('allows a think block only when the request may think', () => {
    expect(matches(noThink, '<think>x</think>\\boxed{a}')).toBe(false);
    expect(matches(noThink, 'so \\boxed{a}')).toBe(true);
    expect(boxedActionGrammar({ think: false }).gbnf).not.toContain('think');
  });

  it('only allows replies the action parser reads as their one box', () => {
    const random = seededRandom(7);
    for (let i = 0; i < 300; i++) {
      const reply = sampleGbnf(grammar, random, 0.08);
      const box = /\\boxed\{([^{}]*)\}$/.exec(reply)![1]!;
      expect(parseAction(reply), reply).toBe(`\\boxed{${box.trim()}}`);
      expect(box.trim()).not.toBe('');
    }
  });

  it('keeps its bounds', () => {
    const short = parseGbnf(boxedActionGrammar({ think: false, leadChars: 3, boxChars: 2 }).gbnf);
    expect(matches(short, 'abc\\boxed{xy}')).toBe(true);
    expect(matches(short, 'abcd\\boxed{xy}')).toBe(false);
    expect(matches(short, '\\boxed{xyz}')).toBe(false);
    expect(matches(parseGbnf(boxedActionGrammar({ think: false, leadChars: 0 }).gbnf), 'a\\boxed{x}')).toBe(false);
  });
});

describe('the tool-reply grammar', () => {
  const grammar = parseGbnf(toolReplyGrammar(TOOLS, { think: false }).gbnf);

  it.each([
    ['<tool_call>{"name": "get_order", "arguments": {"order_id": 408}}</tool_call>'],
    [
      'Let me look.<tool_call>{"name":"get_order","arguments":{"order_id":408,"view":"items","tags":["a","b"]}}</tool_call>',
    ],
    ['<tool_call>{"name": "refund", "arguments": {"order_id": 1, "full": false, "amount": 12.5}}</tool_call>'],
    ['<tool_call>{"name": "ping", "arguments": {}}</tool_call>'],
    ['<tool_call>{"name": "search", "arguments": {"filters": {"city": "Paris"}}}</tool_call>'],
    ['<tool_call>{"name": "search", "arguments": {"query": null}}</tool_call>'],
    ['<answer>$408</answer>'],
    ['Done.<answer>The refund is 12.50</answer>'],
  ])('allows %j', (reply) => {
    expect(matches(grammar, reply)).toBe(true);
  });

  it.each([
    ['an unknown tool', '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>'],
    ['a missing required argument', '<tool_call>{"name": "refund", "arguments": {"order_id": 1}}</tool_call>'],
    [
      'a value outside the enum',
      '<tool_call>{"name": "get_order", "arguments": {"order_id": 1, "view": "all"}}</tool_call>',
    ],
    ['a string for an integer', '<tool_call>{"name": "get_order", "arguments": {"order_id": "408"}}</tool_call>'],
    ['an undeclared argument', '<tool_call>{"name": "ping", "arguments": {"x": 1}}</tool_call>'],
    ['a wrong const', '<tool_call>{"name": "search", "arguments": {"filters": {"city": "Rome"}}}</tool_call>'],
    ['a call and an answer', '<tool_call>{"name": "ping", "arguments": {}}</tool_call><answer>done</answer>'],
    [
      'two calls',
      '<tool_call>{"name": "ping", "arguments": {}}</tool_call><tool_call>{"name": "ping", "arguments": {}}</tool_call>',
    ],
    ['an empty answer', '<answer></answer>'],
    [
      'a tag inside a string',
      '<tool_call>{"name": "get_order", "arguments": {"order_id": 1, "note": "<answer>x</answer>"}}</tool_call>',
    ],
    ['Python-style quotes', "<tool_call>{'name': 'ping', 'arguments': {}}</tool_call>"],
    ['an unclosed call', '<tool_call>{"name": "ping", "arguments": {}}'],
  ])('refuses %s', (_what, reply) => {
    expect(matches(grammar, reply)).toBe(false);
  });

  it('only allows replies the tool-call parser reads as one call to a listed tool with its required arguments, or one answer', () => {
    const random = seededRandom(11);
    const kinds = new Set<string>();
    for (let i = 0; i < 400; i++) {
      const reply = sampleGbnf(grammar, random, 0.3);
      const parsed = parseToolReply(reply);
      kinds.add(parsed.kind === 'calls' ? parsed.calls[0]!.name : parsed.kind);
      if (parsed.kind === 'answer') {
        expect(parsed.text, reply).not.toBe('');
        continue;
      }
      expect(parsed.kind, reply).toBe('calls');
      if (parsed.kind !== 'calls') continue;
      expect(parsed.calls).toHaveLength(1);
      const schema = TOOLS.find((t) => t.function.name === parsed.calls[0]!.name)!.function.parameters;
      for (const key of (schema.required as string[] | undefined) ?? [])
        expect(parsed.calls[0]!.arguments, reply).toHaveProperty(key);
      for (const key of Object.keys(parsed.calls[0]!.arguments))
        expect(Object.keys(schema.properties as object), reply).toContain(key);
      if ('view' in parsed.calls[0]!.arguments) expect(['summary', 'items']).toContain(parsed.calls[0]!.arguments.view);
    }
    expect([...kinds].sort()).toEqual(['answer', 'get_order', 'ping', 'refund', 'search']);
  });

  it('escapes hostile tool names and keys, and gives them back exactly through JSON', () => {
    const names = ['x"</tool_call>\\', 'a\nb', '\u00fc\u{1f600}', ']) | root', 'lone\ud800'];
    const hostile = names.map((name) =>
      tool(name, {
        type: 'object',
        properties: { [`${name}-key`]: { type: 'string', enum: [name] } },
        required: [`${name}-key`],
      }),
    );
    const rules = parseGbnf(toolReplyGrammar(hostile, { think: false }).gbnf);
    const random = seededRandom(3);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const reply = sampleGbnf(rules, random, 0.5);
      const body = /^[^<]*<tool_call>([\s\S]*)<\/tool_call>$/.exec(reply)?.[1];
      if (body === undefined) continue;
      expect(body).not.toMatch(/</);
      const call = JSON.parse(body) as { name: string; arguments: Record<string, unknown> };
      expect(names).toContain(call.name);
      expect(call.arguments).toEqual({ [`${call.name}-key`]: call.name });
      seen.add(call.name);
    }
    expect(seen.size).toBe(names.length);
  });

  it('falls back to any bounded JSON object for schemas it cannot shape, without failing', () => {
    const odd = [
      tool('a', null),
      tool('b', { type: 'object', properties: [1, 2] }),
      tool('c', { type: 'object', properties: { x: { enum: [] }, y: 'str', z: { type: 'date' } }, required: 'x' }),
      tool('d', {
        type: 'object',
        properties: Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, { type: 'integer' }])),
      }),
      { type: 'function', function: { name: 42 } } as unknown as ToolSchema,
      tool('a', { type: 'object', properties: {} }),
    ];
    const rules = parseGbnf(toolReplyGrammar(odd, { think: false }).gbnf);
    expect(matches(rules, '<tool_call>{"name": "a", "arguments": {"any": [1, {"b": "c"}]}}</tool_call>')).toBe(true);
    expect(matches(rules, '<tool_call>{"name": "c", "arguments": {"x": true, "y": "s", "z": 3}}</tool_call>')).toBe(
      true,
    );
    expect(matches(rules, '<tool_call>{"name": "d", "arguments": {"k5": 1, "zz": "s"}}</tool_call>')).toBe(true);
    expect(matches(rules, '<tool_call>{"name": "42", "arguments": {}}</tool_call>')).toBe(false);
    expect(matches(rules, '<tool_call>{"name": "a", "arguments": {"a": [[[1]]]}}</tool_call>')).toBe(false);
  });

  it('allows only an answer when there are no tools', () => {
    const rules = parseGbnf(toolReplyGrammar([], { think: false }).gbnf);
    expect(matches(rules, '<answer>42</answer>')).toBe(true);
    expect(matches(rules, '<tool_call>{"name": "a", "arguments": {}}</tool_call>')).toBe(false);
  });

  it('is the same text for the same tools', () => {
    expect(toolReplyGrammar(TOOLS, { think: true })).toEqual(toolReplyGrammar(structuredClone(TOOLS), { think: true }));
  });
});
