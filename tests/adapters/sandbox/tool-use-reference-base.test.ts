// The two ToolUseBaseEnv classes designed code can get: the reference's own API (toolBaseAids off,
// the reference preset) and the tab's aided one. Real Pyodide, Node sandbox: the base class is the point.
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { DEFAULT_VALIDATION, validateEnvironment } from '../../../src/core/env/validate-env.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { readToolUseEnv } from '../../fixtures/tool-use-fixtures.ts';

const runtime = fileSandbox();

// Written as the reference's designs are: _obs_suffix() in reset, an execute_tool override returning a dict.
const SHELF = String.raw`
import random

class ShelfEnv(ToolUseBaseEnv):
    def reset(self, seed=None):
        rng = random.Random(seed)
        self._state = {"stock": {"oats": rng.randint(1, 9), "rice": 20}}
        self._tools = {"count": {"description": "Units of an item.", "parameters": {"type": "object", "properties": {"item": {"type": "string"}}, "required": ["item"]}}}
        self._expected_answer = str(self._state["stock"]["oats"])
        return "How many units of oats are in stock? Reply <answer>N</answer>." + self._obs_suffix(), {}

    def tool_count(self, item=""):
        return str(self._state["stock"][item])

    def execute_tool(self, name, arguments):
        result = super().execute_tool(name, arguments)
        return {"output": "[shelf] " + result["output"], "returncode": result["returncode"]}

    def _incorrect_answer_feedback(self):
        return "Count again."

    def solution(self):
        return "count(item=oats), then <answer>" + self._expected_answer + "</answer>"
`;

// Leans on the aided class's _advance_if_done without writing it.
const NOTES = String.raw`
class NotesEnv(ToolUseBaseEnv):
    def reset(self, seed=None):
        self._state = {"notes": []}
        self._tools = {"add": {"description": "Add a note.", "parameters": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}}}
        self._expected_answer = "done"
        return "Add a note saying hi.", {}

    def tool_add(self, text=""):
        self._state["notes"].append(text)
        return "added" + self._advance_if_done()

    def solution(self):
        return "add(text=hi)"
`;

const call = (name: string, args: Record<string, unknown>) =>
  `<tool_call>${JSON.stringify({ name, arguments: args })}</tool_call>`;

async function started(code: string, toolBaseAids: boolean, maxTurns = 12): Promise<EnvHandle> {
  const handle = await runtime().load(code, { maxTurns, timeoutMs: 10_000, toolBaseAids });
  await handle.reset(3);
  return handle;
}

describe('ToolUseBaseEnv: the reference API and the aided one', () => {
  it.each([false, true])(
    'toolBaseAids %s: a design using _obs_suffix() and a dict-returning execute_tool loads, plays and wins',
    async (aids) => {
      const handle = await started(SHELF, aids);
      const reset = await handle.reset(3);
      const counted = await handle.step(call('count', { item: 'oats' }));
      const units = /(\d+)$/.exec(counted.observation)![1]!;
      const wrong = await handle.step(`<answer>${Number(units) + 1}</answer>`);
      const right = await handle.step(`<answer>${units}</answer>`);
      await handle.dispose();
      expect(reset.observation).toBe('How many units of oats are in stock? Reply <answer>N</answer>.');
      // The reference's step runs the tool method itself; the aided step goes through execute_tool and reads its dict's output.
      expect(counted).toEqual({
        observation: `Tool result:\n${aids ? '[shelf] ' : ''}${units}`,
        reward: 0,
        terminated: false,
        truncated: false,
        info: {},
      });
      expect(wrong).toMatchObject({ observation: 'Count again.', reward: 0, terminated: false });
      expect(right).toEqual({ observation: 'Correct!', reward: 1, terminated: true, truncated: false, info: {} });
    },
  );

  it('the reference class supplies no multi-turn state or _advance_if_done: a design that leans on them gets an error text; the aided class supplies them', async () => {
    const reference = await started(NOTES, false);
    const referenceStep = await reference.step(call('add', { text: 'hi' }));
    const referenceFacts = await reference.toolFacts();
    await reference.dispose();
    const aided = await started(NOTES, true);
    const aidedStep = await aided.step(call('add', { text: 'hi' }));
    const aidedFacts = await aided.toolFacts();
    await aided.dispose();
    expect(referenceStep.observation).toBe(
      "Tool result:\nError calling add: 'NotesEnv' object has no attribute '_advance_if_done'",
    );
    expect(referenceFacts).toMatchObject({ messages: null, criteria: null, current: null });
    expect(aidedStep.observation).toBe('Tool result:\nadded');
    expect(aidedFacts).toMatchObject({ messages: [], criteria: [], current: 0 });
  });

  it("the reference's step rules: a format error costs -0.1 except on the last turn, which truncates with reward 0 and the solution; an unknown tool costs 0", async () => {
    const handle = await started(SHELF, false, 3);
    const unknown = await handle.step(call('weigh', {}));
    const prose = await handle.step('Let me think.');
    const last = await handle.step('Still thinking.');
    await handle.dispose();
    expect(unknown).toMatchObject({
      observation: "There is no tool 'weigh'. The tools: count",
      reward: 0,
      truncated: false,
    });
    expect(prose).toMatchObject({ reward: -0.1, terminated: false, truncated: false });
    expect(last.truncated).toBe(true);
    expect(last.reward).toBe(0);
    expect(last.observation).toMatch(
      /^No turns are left\. A solution:\ncount\(item=oats\), then <answer>\d+<\/answer>$/,
    );
  });

  it('the tool path follows get_tools(): a plain class with tools has tool facts, a ToolUseBaseEnv subclass without tools is a game', async () => {
    const plain = await started(
      String.raw`
class PlainToolsEnv:
    def __init__(self, max_turns=5):
        self.max_turns = max_turns
    def reset(self, seed=None):
        return "Look it up.", {}
    def step(self, action):
        return "ok", 0.0, False, False, {}
    def get_tools(self):
        return [{"type": "function", "function": {"name": "look", "description": "Look.", "parameters": {"type": "object", "properties": {}}}}]
`,
      false,
    );
    const plainFacts = await plain.toolFacts();
    await plain.dispose();
    const toolless = await started(NOTES.replace(/self\._tools = \{.*\}\n/, 'self._tools = {}\n'), false);
    const toollessFacts = await toolless.toolFacts();
    await toolless.dispose();
    expect(plainFacts?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'look', description: 'Look.', parameters: { type: 'object', properties: {} } },
      },
    ]);
    expect(toollessFacts).toBeNull();
  });

  it("validation calls the environment's own close(): one that raises fails with close_exception, and the reference class's own close passes", async () => {
    const options = {
      ...DEFAULT_VALIDATION,
      totalTimeoutMs: 30_000,
      callTimeoutMs: 10_000,
      source: 'code' as const,
      toolBaseAids: false,
    };
    const closing = SHELF.replace(
      '    def solution(self):',
      '    def close(self):\n        raise RuntimeError("the shelf is still open")\n\n    def solution(self):',
    );
    const refused = await validateEnvironment(closing, runtime(), options);
    const passed = await validateEnvironment(SHELF, runtime(), options);
    expect(refused).toMatchObject({ ok: false, code: 'close_exception', stage: 'determinism' });
    expect(refused.message).toContain('the shelf is still open');
    expect(passed.ok).toBe(true);
  });

  it("without the tab's extra checks, validation keeps what the reference keeps: a misplaced first instruction, a criteria count mismatch, a criterion true at reset; a criterion raising at every seed is still refused while the gate runs", async () => {
    const options = {
      ...DEFAULT_VALIDATION,
      totalTimeoutMs: 30_000,
      callTimeoutMs: 10_000,
      source: 'code' as const,
      extraToolChecks: false,
    };
    const verdicts = [];
    for (const file of ['first_instruction.py', 'criteria_count.py', 'criteria_true.py'])
      verdicts.push((await validateEnvironment(readToolUseEnv('broken', file), runtime(), options)).code);
    const raising = readToolUseEnv('broken', 'criteria_raise.py');
    const gated = await validateEnvironment(raising, runtime(), options);
    const ungated = await validateEnvironment(raising, runtime(), { ...options, resetGate: false });
    expect(verdicts).toEqual([null, null, null]);
    expect(gated.code).toBe('criteria_raise_at_reset');
    expect(ungated.ok).toBe(true);
  });
});
