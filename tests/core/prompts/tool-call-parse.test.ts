import { describe, expect, it } from 'vitest';
import { parseToolReply, toolCallAction, toolReplyAction } from '../../../src/core/prompts/tool-call-parse.ts';

describe('tool-use replies', () => {
  it.each([
    [
      'the JSON form',
      'I will look. <tool_call>{"name": "list_orders", "arguments": {"status": "open"}}</tool_call>',
      [{ name: 'list_orders', arguments: { status: 'open' } }],
    ],
    [
      'parameters and string arguments',
      '<tool_call>{"name":"a","parameters":{"x":1}}</tool_call><tool_call>{"name":"b","arguments":"{\\"y\\": true}"}</tool_call>',
      [
        { name: 'a', arguments: { x: 1 } },
        { name: 'b', arguments: { y: true } },
      ],
    ],
    ['no arguments', '<tool_call>{"name": "ls"}</tool_call>', [{ name: 'ls', arguments: {} }]],
    [
      "Qwen's XML form, values read as JSON when they parse and unescaped",
      '<tool_call>\n<function=transfer>\n<parameter=amount>\n42.5\n</parameter>\n<parameter=note>\nrent &amp; bills\n</parameter>\n<parameter=to>\nACC-7\n</parameter>\n</function>\n</tool_call>',
      [{ name: 'transfer', arguments: { amount: 42.5, note: 'rent & bills', to: 'ACC-7' } }],
    ],
    [
      'the XML form without the wrapper',
      '<function=status><parameter=room>den</parameter></function>',
      [{ name: 'status', arguments: { room: 'den' } }],
    ],
  ])('reads %s', (_what, reply, calls) => {
    expect(parseToolReply(reply)).toEqual({ kind: 'calls', calls });
  });

  it('prefers an answer, ignores calls inside a closed think block, and passes anything else on as text', () => {
    expect(parseToolReply('<tool_call>{"name":"a"}</tool_call> <ANSWER> $1,200 </ANSWER>')).toEqual({
      kind: 'answer',
      text: '$1,200',
    });
    expect(parseToolReply('<think><tool_call>{"name":"a"}</tool_call></think>Done thinking.')).toEqual({
      kind: 'none',
      text: 'Done thinking.',
    });
    for (const broken of [
      '<tool_call>{"name": 3}</tool_call>',
      '<tool_call>{"name": "a", "arguments": [1]}</tool_call>',
      '<tool_call>not json</tool_call>',
      '<tool_call>{"name": "rm -rf /"}</tool_call>',
    ]) {
      expect(parseToolReply(broken), broken).toEqual({ kind: 'none', text: broken });
    }
  });

  it('keeps at most eight calls of one reply', () => {
    const reply = Array.from({ length: 20 }, (_, i) => `<tool_call>{"name":"t${i}"}</tool_call>`).join('');
    const parsed = parseToolReply(reply);
    expect(parsed.kind === 'calls' && parsed.calls.map((c) => c.name)).toEqual([
      't0',
      't1',
      't2',
      't3',
      't4',
      't5',
      't6',
      't7',
    ]);
  });

  it('turns a reply into the step action: the answer, the first call in the JSON form, or the text', () => {
    expect(toolReplyAction(parseToolReply('<answer>done</answer>'))).toBe('<answer>done</answer>');
    expect(
      toolReplyAction(parseToolReply('<function=a><parameter=n>2</parameter></function><function=b></function>')),
    ).toBe('<tool_call>{"name":"a","arguments":{"n":2}}</tool_call>');
    expect(toolReplyAction(parseToolReply('hello'))).toBe('hello');
    expect(toolCallAction({ name: 'x', arguments: { q: 'a"b' } })).toBe(
      '<tool_call>{"name":"x","arguments":{"q":"a\\"b"}}</tool_call>',
    );
  });
  it('with reply aids: a pending call runs before an answer, a call that cannot be read leaves the answer, and calls stay capped', () => {
    expect(parseToolReply('<answer>done</answer> first <tool_call>{"name": "a"}</tool_call>', true)).toEqual({
      kind: 'calls',
      calls: [{ name: 'a', arguments: {} }],
    });
    expect(parseToolReply('<tool_call>{name: a}</tool_call> <answer> "Done." </answer>', true)).toEqual({
      kind: 'answer',
      text: 'Done',
    });
    expect(parseToolReply('<think>x</think>plain words', true)).toEqual({ kind: 'none', text: 'plain words' });
    const many = Array.from({ length: 20 }, (_, i) => `<tool_call>{'name': 't${i}'}</tool_call>`).join('');
    const parsed = parseToolReply(many, true);
    expect(parsed.kind === 'calls' && parsed.calls.length).toBe(8);
    expect(parseToolReply("<tool_call>{'name': 'rm -rf /'}</tool_call>", true).kind).toBe('none');
  });
});
