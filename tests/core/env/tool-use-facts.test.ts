// The tool-use facts the sandbox reports, read and checked without Python: the function-calling
// form of get_tools(), the methods behind the tools, and a multi-turn task's shape at reset.
import { describe, expect, it } from 'vitest';
import { isEnvError } from '../../../src/core/env/env-error.ts';
import {
  checkInstructions,
  checkToolFactsValue,
  checkToolSchemas,
  type ToolFacts,
} from '../../../src/core/env/tool-use-facts.ts';

const tool = (
  name: string,
  parameters: unknown = { type: 'object', properties: {} },
  description: unknown = 'does a thing',
) => ({ type: 'function', function: { name, description, parameters } });

const facts = (over: Partial<ToolFacts> = {}): ToolFacts => ({
  methods: ['find'],
  tools: [tool('find')],
  toolsError: null,
  messages: [],
  criteria: [],
  current: 0,
  ...over,
});

function failure(run: () => unknown): { code: string; seen: string } {
  try {
    run();
  } catch (error) {
    if (!isEnvError(error)) throw error;
    return { code: error.code, seen: /Saw (.*?)\. Fix: /s.exec(error.message)![1]! };
  }
  throw new Error('did not throw');
}

describe('checkToolFactsValue', () => {
  it('reads null for an environment that is not a tool-use one, and the facts of one that is', () => {
    expect(checkToolFactsValue({ t: 'NoneType' }, 'probe')).toBeNull();
    const value = {
      t: 'dict' as const,
      v: { methods: ['a'], tools: [], messages: ['go'], criteria: [false, 'KeyError: x'], current: 0 },
    };
    expect(checkToolFactsValue(value, 'probe')).toEqual({
      methods: ['a'],
      tools: [],
      toolsError: null,
      messages: ['go'],
      criteria: [false, 'KeyError: x'],
      current: 0,
    });
  });

  it('refuses a value that is not the harness facts', () => {
    expect(failure(() => checkToolFactsValue({ t: 'str', v: 'x' }, 'probe'))).toEqual({
      code: 'inspect_exception',
      seen: 'a str of 1 characters',
    });
  });
});

describe('checkToolSchemas', () => {
  it('returns the tool names in order for tools with enum and required parameters', () => {
    const parameters = {
      type: 'object',
      properties: { status: { type: 'string', enum: ['a', 'b'] } },
      required: ['status'],
    };
    expect(
      checkToolSchemas(facts({ methods: ['find', 'set'], tools: [tool('set', parameters), tool('find')] }), 'probe'),
    ).toEqual(['set', 'find']);
  });

  it.each([
    [
      'get_tools() raised',
      { tools: null, toolsError: "AttributeError: 'list' object has no attribute 'get'" },
      "get_tools() raised AttributeError: 'list' object has no attribute 'get'",
    ],
    ['no tools', { tools: [] }, 'get_tools() returned no tools'],
    ['not a list', { tools: 'find' }, 'get_tools() returned something other than a list'],
    ['not a function entry', { tools: [{ name: 'find' }] }, 'tool 1 is not {"type": "function", "function": {...}}'],
    ['a name with a space', { tools: [tool('find it')] }, 'tool 1 has the name "find it", not an identifier'],
    [
      'a description that is not text',
      { tools: [tool('find', undefined, 3)] },
      'tool find has a description that is not a string',
    ],
    [
      'properties missing',
      { tools: [tool('find', { type: 'object' })] },
      'tool find has parameters that are not {"type": "object", "properties": {...}}',
    ],
    [
      'a property that is not a schema',
      { tools: [tool('find', { type: 'object', properties: { q: 'string' } })] },
      'parameter q of tool find is not a schema object',
    ],
    [
      'an empty enum',
      { tools: [tool('find', { type: 'object', properties: { q: { type: 'string', enum: [] } } })] },
      'parameter q of tool find has an enum that is not a non-empty list',
    ],
    [
      'required names a missing parameter',
      { tools: [tool('find', { type: 'object', properties: { q: {} }, required: ['query'] })] },
      'tool find requires ["query"], which is not a list of its own parameter names',
    ],
  ])('%s: tool_schema_invalid', (_name, over, seen) => {
    expect(failure(() => checkToolSchemas(facts(over as Partial<ToolFacts>), 'probe'))).toEqual({
      code: 'tool_schema_invalid',
      seen,
    });
  });

  it('a tool listed twice: tool_name_duplicate, naming it', () => {
    expect(
      failure(() =>
        checkToolSchemas(
          facts({ methods: ['find', 'set'], tools: [tool('find'), tool('set'), tool('find'), tool('find')] }),
          'probe',
        ),
      ),
    ).toEqual({
      code: 'tool_name_duplicate',
      seen: 'the tool find listed 3 times',
    });
  });

  it('a declared tool without its tool_<name> method: tool_method_missing', () => {
    expect(failure(() => checkToolSchemas(facts({ tools: [tool('find'), tool('fetch')] }), 'probe'))).toEqual({
      code: 'tool_method_missing',
      seen: 'the methods tool_find',
    });
    expect(failure(() => checkToolSchemas(facts({ methods: [] }), 'probe'))).toEqual({
      code: 'tool_method_missing',
      seen: 'the methods (none)',
    });
  });
});

describe('checkInstructions', () => {
  const multi = (over: Partial<ToolFacts> = {}) =>
    facts({ messages: ['Open the door.', 'Log it.'], criteria: [false, false], ...over });

  it('passes a single-task environment and a multi-turn one that starts at its first instruction', () => {
    expect(() => checkInstructions(facts(), 'Find the shelf.', 'probe')).not.toThrow();
    expect(() => checkInstructions(multi(), 'Task 1: Open the door.', 'probe')).not.toThrow();
  });

  it.each([
    ['the observation lacks the first instruction', multi(), 'Open all doors.', 'tool_first_instruction'],
    ['_current_msg is not 0', multi({ current: 1 }), 'Open the door.', 'tool_first_instruction'],
    ['a blank first instruction', multi({ messages: ['  ', 'Log it.'] }), 'Open the door.', 'tool_first_instruction'],
    ['fewer criteria than instructions', multi({ criteria: [false] }), 'Open the door.', 'criteria_count_mismatch'],
    ['no list of criteria', multi({ criteria: null }), 'Open the door.', 'criteria_count_mismatch'],
  ])('%s: %s', (_name, given, observation, code) => {
    expect(failure(() => checkInstructions(given, observation, 'probe')).code).toBe(code);
  });
});
