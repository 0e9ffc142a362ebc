import { describe, expect, it } from 'vitest';
import {
  episodeInstructions,
  instructionTimeline,
  isToolUse,
  toolSteps,
  type StepRecord,
} from '../../src/app/explorer/tool-steps.ts';
import { answerText, choiceTexts, toolCallText, toolFormSpecs } from '../../src/app/explorer/tool-form.ts';
import { DEFAULT_CONFIG, withSetting } from '../../src/core/config.ts';
import type { Episode } from '../../src/core/records.ts';

const INSTRUCTIONS = ['Find order 7.', 'Refund it.'];
const step = (action: string, observation: string, progress?: unknown, reward = 0, terminated = false): StepRecord =>
  ({
    action,
    observation,
    reward,
    terminated,
    truncated: false,
    ...(progress === undefined ? {} : { progress }),
  }) as StepRecord;

describe('tool-use steps as rows', () => {
  it('reads each turn as a call, an answer or text, with the criteria it met and the instruction it revealed', () => {
    const steps = toolSteps({
      instructions: INSTRUCTIONS,
      turns: [
        step(
          '<tool_call>{"name":"find_order","arguments":{"id":7,"tags":["a"]}}</tool_call>',
          'Tool result:\norder 7: shoes\n\nNEXT: Refund it.',
          { done: 1, criteria: [true, false] },
        ),
        step('hello', 'Format error: ...', { done: 1, criteria: [true, 'KeyError: refund'] }, -0.1),
        step('<tool_call>{"name":"refund","arguments":{}}</tool_call>', 'Tool result:\nrefunded', {
          done: 2,
          criteria: [true, true],
        }),
        step('<answer>ok</answer>', 'Correct!', { done: 2, criteria: [true, true] }, 1, true),
      ],
    });
    expect(steps[0]).toEqual({
      kind: 'call',
      tool: 'find_order',
      arguments: [
        { name: 'id', value: '7' },
        { name: 'tags', value: '["a"]' },
      ],
      moreCalls: [],
      text: null,
      result: 'order 7: shoes\n\nNEXT: Refund it.',
      reward: 0,
      terminated: false,
      truncated: false,
      met: [{ number: 1, text: 'Find order 7.' }],
      revealed: { number: 2, text: 'Refund it.' },
      allDone: false,
      criteria: [
        { number: 1, text: 'Find order 7.', state: 'met', detail: null },
        { number: 2, text: 'Refund it.', state: 'open', detail: null },
      ],
    });
    expect(steps[1]).toMatchObject({ kind: 'text', tool: null, text: 'hello', met: [], revealed: null, reward: -0.1 });
    expect(steps[1]!.criteria[1]).toEqual({
      number: 2,
      text: 'Refund it.',
      state: 'raised',
      detail: 'KeyError: refund',
    });
    expect(steps[2]).toMatchObject({
      kind: 'call',
      tool: 'refund',
      arguments: [],
      met: [{ number: 2 }],
      revealed: null,
      allDone: true,
    });
    expect(steps[3]).toMatchObject({ kind: 'answer', text: 'ok', met: [], allDone: false, terminated: true });
  });

  it('names the further calls of a turn that ran several (tool calls outside step)', () => {
    const action = [
      '<tool_call>{"name":"find_order","arguments":{"id":7}}</tool_call>',
      '<tool_call>{"name":"refund","arguments":{"id":7}}</tool_call>',
    ].join('\n');
    const [only] = toolSteps({ instructions: INSTRUCTIONS, turns: [step(action, 'order 7: shoes\n\nrefunded')] });
    expect(only).toMatchObject({
      kind: 'call',
      tool: 'find_order',
      moreCalls: ['refund({"id":7})'],
      result: 'order 7: shoes\n\nrefunded',
    });
  });

  it('counts every instruction a single step completes, and skips turns without usable progress', () => {
    const steps = toolSteps({
      instructions: ['a', 'b', 'c'],
      turns: [
        step('x', 'y'),
        step('x', 'y', { done: 2, criteria: [] }),
        step('x', 'y', { done: 9 }),
        step('x', 'y', { done: 3 }),
      ],
    });
    expect(steps.map((s) => s.met.map((m) => m.number))).toEqual([[], [1, 2], [], [3]]);
    expect(steps[1]!.revealed).toEqual({ number: 3, text: 'c' });
  });

  it('survives imported records that hold anything: no instructions, odd progress, odd criteria', () => {
    const odd = [
      step('<tool_call>{"name":"t","arguments":{}}</tool_call>', 'Tool result:\nr', { done: '1', criteria: 'all' }),
      step('x', 'y', null),
      step('x', 'y', { done: 1.5, criteria: [true, 3] }),
    ];
    expect(episodeInstructions({ instructions: 'not a list' })).toEqual([]);
    expect(episodeInstructions({ instructions: ['a', 2] })).toEqual([]);
    const steps = toolSteps({ instructions: { 0: 'a' }, turns: odd });
    expect(steps.map((s) => [s.met, s.revealed, s.criteria])).toEqual([
      [[], null, []],
      [[], null, []],
      [[], null, []],
    ]);
    expect(toolSteps({ instructions: ['a', 'b'], turns: [odd[2]!] })[0]!.criteria.map((c) => c.state)).toEqual([
      'met',
      'open',
    ]);
  });

  it('places each instruction at a replay position: done, the current one, or not revealed yet', () => {
    const episode = {
      instructions: INSTRUCTIONS,
      turns: [
        step('a', 'b', { done: 0, criteria: [] }),
        step('a', 'b', { done: 1, criteria: [] }),
        step('a', 'b', { done: 2, criteria: [] }),
      ],
    };
    expect(instructionTimeline(episode, 0).map((i) => i.state)).toEqual(['current', 'hidden']);
    expect(instructionTimeline(episode, 2).map((i) => i.state)).toEqual(['done', 'current']);
    expect(instructionTimeline(episode, 3).map((i) => i.state)).toEqual(['done', 'done']);
    expect(instructionTimeline({ turns: [] }, 0)).toEqual([]);
  });

  it('tells tool-use environments from games by setting, domain, instructions or tool messages', () => {
    const games = { config: DEFAULT_CONFIG };
    const episode = (over: Partial<Episode>) => ({ messages: [], ...over }) as unknown as Episode;
    expect(isToolUse(games, {}, [episode({})])).toBe(false);
    expect(isToolUse({ config: withSetting(DEFAULT_CONFIG, 'tool_use') }, {}, [])).toBe(true);
    expect(isToolUse(games, { domain: 'retail' }, [])).toBe(true);
    expect(isToolUse(games, {}, [episode({ instructions: ['a'] })])).toBe(true);
    expect(isToolUse(games, {}, [episode({ messages: [{ role: 'tool', content: 'r' }] })])).toBe(true);
  });
});

describe('the play-it-yourself tool form', () => {
  const tools = toolFormSpecs([
    {
      type: 'function',
      function: {
        name: 'book',
        description: 'Book a seat.',
        parameters: {
          type: 'object',
          properties: {
            seat: { type: 'integer' },
            cls: { type: 'string', enum: ['economy', 'business'] },
            meal: { type: 'boolean' },
            note: { type: 'string' },
            legs: { type: 'array' },
            price: { type: 'number' },
            odd: { type: 'tuple' },
          },
          required: ['seat', 'cls'],
        },
      },
    },
    { type: 'function', function: { name: 'ping' } },
    { type: 'function', function: { name: 3 } },
    'junk',
  ]);

  it('reads get_tools() into fields, leaving out entries not in the function-calling form', () => {
    expect(tools.map((t) => t.name)).toEqual(['book', 'ping']);
    expect(tools[0]!.parameters.map((p) => [p.name, p.type, p.required, p.choices])).toEqual([
      ['seat', 'integer', true, null],
      ['cls', 'string', true, ['economy', 'business']],
      ['meal', 'boolean', false, null],
      ['note', 'string', false, null],
      ['legs', 'array', false, null],
      ['price', 'number', false, null],
      ['odd', 'string', false, null],
    ]);
    expect(toolFormSpecs({ not: 'a list' })).toEqual([]);
  });

  it('builds the <tool_call> text with values read by their schema types, optional empties left out', () => {
    expect(
      toolCallText(tools[0]!, {
        seat: '12',
        cls: 'business',
        meal: 'true',
        legs: '["LIS", "OPO"]',
        price: '9.5',
        note: '',
      }),
    ).toEqual({
      text: '<tool_call>{"name":"book","arguments":{"seat":12,"cls":"business","meal":true,"legs":["LIS","OPO"],"price":9.5}}</tool_call>',
    });
    expect(toolCallText(tools[1]!, {})).toEqual({ text: '<tool_call>{"name":"ping","arguments":{}}</tool_call>' });
    expect(answerText('  42 ')).toBe('<answer>42</answer>');
  });

  it('tells apart choices that would show alike (enum [1, "1"]) and sends the one picked', () => {
    expect(choiceTexts(['economy', 2, true])).toEqual(['economy', '2', 'true']);
    expect(choiceTexts([1, '1', 'x'])).toEqual(['1', '"1"', '"x"']);
    const [dial] = toolFormSpecs([
      {
        type: 'function',
        function: { name: 'dial', parameters: { type: 'object', properties: { level: { enum: [1, '1'] } } } },
      },
    ]);
    expect(toolCallText(dial!, { level: '"1"' })).toEqual({
      text: '<tool_call>{"name":"dial","arguments":{"level":"1"}}</tool_call>',
    });
    expect(toolCallText(dial!, { level: '1' })).toEqual({
      text: '<tool_call>{"name":"dial","arguments":{"level":1}}</tool_call>',
    });
  });

  it('names the first problem instead of sending a call the schema rules out', () => {
    const book = tools[0]!;
    expect(toolCallText(book, { cls: 'economy' })).toEqual({ error: 'seat is required' });
    expect(toolCallText(book, { seat: '1.5', cls: 'economy' })).toEqual({ error: 'seat needs a whole number' });
    expect(toolCallText(book, { seat: '1', cls: 'first' })).toEqual({ error: 'choose one of the values of cls' });
    expect(toolCallText(book, { seat: '1', cls: 'economy', meal: 'yes' })).toEqual({
      error: 'meal needs true or false',
    });
    expect(toolCallText(book, { seat: '1', cls: 'economy', legs: '{"a": 1}' })).toEqual({
      error: 'legs needs a JSON list, e.g. ["a", "b"]',
    });
    expect(toolCallText(book, { seat: '1', cls: 'economy', price: 'cheap' })).toEqual({
      error: 'price needs a number',
    });
  });
});
