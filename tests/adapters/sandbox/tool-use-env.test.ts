// ToolUseBaseEnv as designed code sees it: injected without an import, stepping tool calls and
// answers, and revealing a multi-turn task's instructions one by one. Real Pyodide, Node sandbox.
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import type { EnvHandle } from '../../../src/core/ports/sandbox-port.ts';
import { GOOD_ENVS, loadGoodEnv } from '../../fixtures/env-fixtures.ts';
import { GOOD_TOOL_USE_ENVS, answer, readToolUseEnv, toolCall } from '../../fixtures/tool-use-fixtures.ts';

// One real Node sandbox for the file.
const runtime = fileSandbox();

const FORMAT_ERROR =
  'Format error: call a tool with <tool_call>{"name": "...", "arguments": {...}}</tool_call> or give the final answer as <answer>...</answer>.';
const PANTRY = GOOD_TOOL_USE_ENVS[0]!;
const LEDGER = GOOD_TOOL_USE_ENVS[1]!;
const LAMPS = GOOD_TOOL_USE_ENVS[2]!;

async function started(
  file: string,
  seed: number,
  maxTurns = 12,
  code = readToolUseEnv('good', file),
): Promise<EnvHandle> {
  const handle = await runtime().load(code, { maxTurns, timeoutMs: 10_000 });
  await handle.reset(seed);
  return handle;
}

async function play(handle: EnvHandle, actions: readonly string[]) {
  const steps = [];
  for (const action of actions) steps.push(await handle.step(action));
  return steps;
}

describe('ToolUseBaseEnv in the sandbox', () => {
  it.each(GOOD_TOOL_USE_ENVS)(
    '$file: the scripted line of tool calls and answer wins with reward 1',
    async (fixture) => {
      const handle = await started(fixture.file, fixture.seed);
      expect(handle.className).toBe(fixture.className);
      const steps = await play(handle, fixture.winning);
      await handle.dispose();
      for (const step of steps.slice(0, -1))
        expect(step).toMatchObject({ reward: 0, terminated: false, truncated: false });
      expect(steps.at(-1)).toEqual({
        observation: 'Correct!',
        reward: 1,
        terminated: true,
        truncated: false,
        info: {},
      });
    },
  );

  it('reveals the instructions one at a time, each when its criterion holds, and refuses an early answer', async () => {
    const handle = await started(PANTRY.file, PANTRY.seed);
    const [early, listed, restocked, , shipped, reported, done] = await play(handle, [
      answer('done'),
      ...PANTRY.winning.slice(0, -1),
      answer('DONE'),
    ]);
    await handle.dispose();
    expect(early).toMatchObject({
      observation:
        'Not accepted: instruction 1 of 3 is still open: "One item is almost out of stock (fewer than 3 units). Bring it to at least 10 units." Finish it with the tools first.',
      reward: 0,
      terminated: false,
    });
    expect(listed!.observation).not.toContain('INSTRUCTION');
    expect(restocked!.observation).toBe(
      'Tool result:\noats now has 12 units.\n\n[INSTRUCTION 1 DONE. NEXT INSTRUCTION] An order is still waiting. Mark it as shipped.',
    );
    expect(shipped!.observation).toBe(
      'Tool result:\nOrder ORD-642 is now shipped.\n\n[INSTRUCTION 2 DONE. NEXT INSTRUCTION] Record a stock report for the item you restocked.',
    );
    expect(reported!.observation).toBe(
      'Tool result:\nReport saved: oats has 12 units.\n\n[ALL INSTRUCTIONS DONE] Reply with <answer>done</answer>.',
    );
    // The answer matches ignoring case.
    expect(done).toMatchObject({ observation: 'Correct!', reward: 1, terminated: true });
  });

  it('gives the -0.1 format error for a reply with no tool call or answer, and for a tool call that is not a JSON object naming a tool', async () => {
    const handle = await started(PANTRY.file, PANTRY.seed);
    const steps = await play(handle, [
      'Let me list the stock first.',
      '<tool_call>{"name": list_stock}</tool_call>',
      '<tool_call>{"name": 7, "arguments": {}}</tool_call>',
      '<tool_call>{"name": "restock", "arguments": [1]}</tool_call>',
    ]);
    await handle.dispose();
    for (const step of steps)
      expect(step).toEqual({ observation: FORMAT_ERROR, reward: -0.1, terminated: false, truncated: false, info: {} });
  });

  it('answers an unknown tool, a raising tool and a call with wrong arguments with error texts, not crashes', async () => {
    const handle = await started(LEDGER.file, LEDGER.seed);
    const [unknown, raising, wrong, works] = await play(handle, [
      toolCall('fly_home'),
      toolCall('exchange', { amount: 10, currency: 'JPY' }),
      toolCall('tips_of', { name: 'Ana' }),
      // Arguments given as a JSON string, under the "parameters" key, are accepted too.
      `<tool_call>{"name": "exchange", "parameters": "{\\"amount\\": 10, \\"currency\\": \\"EUR\\"}"}</tool_call>`,
    ]);
    await handle.dispose();
    expect(unknown).toEqual({
      observation: "Tool result:\nError: there is no tool named 'fly_home'. The tools are: tips_of, exchange.",
      reward: 0,
      terminated: false,
      truncated: false,
      info: {},
    });
    expect(raising!.observation).toBe("Tool result:\nError: exchange failed with KeyError: 'JPY'");
    expect(wrong!.observation).toBe(
      "Tool result:\nError: tips_of failed with TypeError: TipLedgerEnv.tool_tips_of() got an unexpected keyword argument 'name'",
    );
    expect(works!.observation).toBe('Tool result:\n9.00 EUR');
  });

  it('accepts a numeric answer within 0.01 once $ and , are removed, and nothing further off', async () => {
    const handle = await started(LEDGER.file, LEDGER.seed);
    const verdicts: Record<string, boolean> = {};
    for (const given of ['2645.304', '2,645.296', '$ 2645.3', '2645.32', '2645', 'two thousand six hundred']) {
      await handle.renew();
      await handle.reset(LEDGER.seed);
      const step = await handle.step(answer(given));
      verdicts[given] = step.terminated && step.reward === 1;
      if (!verdicts[given])
        expect(step).toMatchObject({
          observation: 'Not accepted. Keep using the tools.',
          reward: 0,
          terminated: false,
        });
    }
    await handle.dispose();
    expect(verdicts).toEqual({
      '2645.304': true,
      '2,645.296': true,
      '$ 2645.3': true,
      '2645.32': false,
      '2645': false,
      'two thousand six hundred': false,
    });
  });

  it("an environment that writes its own _advance_if_done and _check_answer keeps them: theirs override the base class's", async () => {
    const handle = await started(LAMPS.file, LAMPS.seed);
    const [on, checked, plainDone, won] = await play(handle, [
      ...LAMPS.winning.slice(0, 2),
      answer('done'),
      answer('lights done'),
    ]);
    await handle.dispose();
    expect(on!.observation).toBe('Tool result:\nThe hall lamp is on.\n\n~ lamp room step 1 ok ~ Check that lamp.');
    expect(checked!.observation).toBe('Tool result:\nhall: on\n\n~ lamp room: all done, answer done ~');
    // The base class would accept "done" here; the environment's own _check_answer wants "lights done".
    expect(plainDone).toMatchObject({ reward: 0, terminated: false });
    expect(won).toMatchObject({ observation: 'Correct!', reward: 1, terminated: true });
  });

  it('at the turn cap the episode is truncated and the solution shown', async () => {
    const handle = await started(PANTRY.file, PANTRY.seed, 2);
    const [first, last] = await play(handle, ['hello', toolCall('weather')]);
    await handle.dispose();
    expect(first).toMatchObject({ truncated: false, reward: -0.1 });
    expect(last).toMatchObject({ terminated: false, truncated: true, reward: 0 });
    expect(last!.observation).toBe(
      'Tool result:\nDry and mild.\n\nOut of turns. A solution:\nlist_stock; restock(item=oats, units=10); list_orders; set_status(order_id=ORD-642, status=shipped); report(item=oats); <answer>done</answer>',
    );
  });

  it('keeps working when the module rebinds json and re, which the base class does not share', async () => {
    const code = `json = None\nre = None\n${readToolUseEnv('good', PANTRY.file)}`;
    const handle = await started(PANTRY.file, PANTRY.seed, 12, code);
    const steps = await play(handle, ['no tags here', ...PANTRY.winning]);
    await handle.dispose();
    expect(steps[0]).toMatchObject({ observation: FORMAT_ERROR, reward: -0.1 });
    expect(steps.at(-1)).toMatchObject({ reward: 1, terminated: true });
  });

  it('reports tools in the function-calling form and the criteria on the reset state; a game environment has no tool facts', async () => {
    const handle = await started(PANTRY.file, PANTRY.seed);
    const facts = await handle.toolFacts();
    await handle.dispose();
    expect(facts).toMatchObject({
      methods: ['discount', 'list_orders', 'list_stock', 'report', 'restock', 'set_status', 'weather'],
      toolsError: null,
      criteria: [false, false, false],
      current: 0,
    });
    expect((facts!.tools as unknown[])[3]).toEqual({
      type: 'function',
      function: {
        name: 'set_status',
        description: 'Change the status of an order.',
        parameters: {
          type: 'object',
          properties: {
            order_id: { type: 'string' },
            status: { type: 'string', enum: ['waiting', 'packed', 'shipped', 'cancelled'] },
          },
          required: ['order_id', 'status'],
        },
      },
    });
    const game = await loadGoodEnv(runtime(), GOOD_ENVS[0]!);
    await game.reset(1);
    expect(await game.toolFacts()).toBeNull();
    await game.dispose();
  });

  it('a criterion that raises is reported with its exception, not as a failure of the call', async () => {
    const handle = await runtime().load(readToolUseEnv('broken', 'criteria_raise.py'), {
      maxTurns: 12,
      timeoutMs: 10_000,
    });
    await handle.reset(0);
    const facts = await handle.toolFacts();
    await handle.dispose();
    expect(facts).toMatchObject({
      criteria: [false, "KeyError: 'delivery'"],
      messages: ['Move parcel P1.', 'Confirm the delivery.'],
      current: 0,
    });
  });
});
