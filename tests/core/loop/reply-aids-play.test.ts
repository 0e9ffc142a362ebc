// Tool-use episodes played in the real sandbox with the replies small models write: with reply
// aids on (the tab default) the lenient calls run, a call beside an answer runs first and "Done."
// closes the task; under the reference preset the same replies are format errors and the task is
// never won. Also the base class's closing answer, judged by the environment's own _check_answer.
import { describe, expect, it } from 'vitest';
import { roleThinking } from '../../../src/core/thinking.ts';
import { DEFAULT_CONFIG } from '../../../src/core/config.ts';
import { playEpisode } from '../../../src/core/loop/play-episode.ts';
import type { EpisodeSpec } from '../../../src/core/loop/agent-settings.ts';
import type { ChatModel } from '../../../src/core/ports/chat-port.ts';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { GOOD_TOOL_USE_ENVS, readToolUseEnv } from '../../fixtures/tool-use-fixtures.ts';

const runtime = fileSandbox();
const PANTRY = GOOD_TOOL_USE_ENVS[0]!;

// Seed 5 of the pantry task (oats is low, ORD-642 waits), won in six replies written as small models write them.
const NATURAL_REPLIES = [
  "I'll look at the stock first. <tool_call>{'name': 'list_stock', 'arguments': {}}</tool_call>",
  '<tool_call>\n```json\n{"name": "restock", "arguments": {"item": "oats", "units": 10,},}\n```\n</tool_call>',
  '<tool_call>{"type": "function", "function": {"name": "list_orders", "arguments": {}}}</tool_call>',
  '<tool_call>{"function": "set_status", "arguments": {"order_id": "ORD-642", "status": "shipped"}}</tool_call>\nOnce this is through I reply <answer>done</answer>.',
  '<think>Last one.</think>Now the report. <tool_call>{"name": "report", "arguments": {"item": "oats"}}',
  'Everything is finished. <answer>Done.</answer>',
];

function scripted(replies: readonly string[]): ChatModel {
  let next = 0;
  return {
    id: 'scripted',
    complete: async () => ({
      text: replies[next++] ?? 'no more replies',
      usage: { promptTokens: 1, completionTokens: 1 },
      finishReason: 'stop',
    }),
  };
}

async function playPantry(replyAids: boolean) {
  const handle = await runtime().load(readToolUseEnv('good', PANTRY.file), { maxTurns: 10, timeoutMs: 10_000 });
  const spec: EpisodeSpec = {
    seed: PANTRY.seed,
    hint: null,
    maxTurns: NATURAL_REPLIES.length,
    stepTimeoutMs: 10_000,
    sampling: DEFAULT_CONFIG.agent,
    thinking: roleThinking(DEFAULT_CONFIG, 'agent'),
    template: DEFAULT_CONFIG.prompts.agent,
    modelSeedKey: 'aids',
    replyAids,
  };
  const played = await playEpisode(scripted(NATURAL_REPLIES), handle, spec);
  await handle.dispose();
  return played;
}

describe('reply aids in a tool-use episode, real sandbox', () => {
  it('with the aids every natural reply is read as meant and the task is won', async () => {
    const played = await playPantry(true);
    expect(played.error).toBeNull();
    expect(played.turns.map((t) => t.action)).toEqual([
      '<tool_call>{"name":"list_stock","arguments":{}}</tool_call>',
      '<tool_call>{"name":"restock","arguments":{"item":"oats","units":10}}</tool_call>',
      '<tool_call>{"name":"list_orders","arguments":{}}</tool_call>',
      '<tool_call>{"name":"set_status","arguments":{"order_id":"ORD-642","status":"shipped"}}</tool_call>',
      '<tool_call>{"name":"report","arguments":{"item":"oats"}}</tool_call>',
      '<answer>Done</answer>',
    ]);
    expect(played.turns[3]!.observation).toContain('[INSTRUCTION 2 DONE. NEXT INSTRUCTION]');
    expect(played.turns.at(-1)).toMatchObject({ observation: 'Correct!', reward: 1, terminated: true });
    expect(played.return).toBe(1);
  });

  it("under the reference preset's rules the same replies are format errors, the mentioned answer is final, and nothing is won", async () => {
    const played = await playPantry(false);
    expect(played.turns.map((t) => t.reward)).toEqual([-0.1, -0.1, -0.1, 0, -0.1, 0]);
    expect(played.turns[3]).toMatchObject({ action: '<answer>done</answer>', terminated: false });
    expect(played.turns[3]!.observation).toMatch(/^Not accepted: instruction 1 of 3 is still open/);
    expect(played.return).toBe(0);
  });
});

describe("the base class's closing answer", () => {
  async function afterEveryInstruction(code: string, closing: string) {
    const handle = await runtime().load(code, { maxTurns: 12, timeoutMs: 10_000 });
    await handle.reset(PANTRY.seed);
    for (const action of PANTRY.winning.slice(0, -1)) await handle.step(action);
    const step = await handle.step(`<answer>${closing}</answer>`);
    await handle.dispose();
    return step;
  }

  it('accepts any non-empty answer once every instruction is done, when the expected answer is "done"', async () => {
    for (const closing of ['Done.', '$408', 'all set']) {
      await expect(afterEveryInstruction(readToolUseEnv('good', PANTRY.file), closing), closing).resolves.toMatchObject(
        { observation: 'Correct!', reward: 1, terminated: true },
      );
    }
  });

  it("leaves the verdict to an environment's own _check_answer, and says every instruction is done when it refuses", async () => {
    const strict = `${readToolUseEnv('good', PANTRY.file)}\n    def _check_answer(self, answer):\n        return answer.strip().lower() == "done" and self._current_msg >= len(self._user_messages)\n`;
    const refused = await afterEveryInstruction(strict, '$408');
    expect(refused).toMatchObject({ reward: 0, terminated: false });
    expect(refused.observation).toBe(
      'Not accepted: every instruction is done, but this is not the answer the task expects. Reply with the final answer the last tool result asked for.',
    );
    await expect(afterEveryInstruction(strict, 'done')).resolves.toMatchObject({ reward: 1, terminated: true });
  });
});
