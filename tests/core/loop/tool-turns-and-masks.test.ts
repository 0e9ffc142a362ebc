// The reference's tool-use turns and training masks (docs/method.md sections 5 and 6), against the
// real Node sandbox: a mailroom task of three instructions that takes ten tool calls and a closing
// answer (eleven replies, the shape of the reference's own multi-turn example). Under the reference
// preset a call runs through execute_tool and costs no step, so the task is won; one reply, one
// step (the tab's rule) runs out of the class's 10 turns. Unfinished rows and unreadable calls get
// weight 0, and `spade verify` recomputes the weights.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import { recordingSandbox } from '../../fixtures/recorded-sandbox.ts';
import { answer, toolCall } from '../../fixtures/tool-use-fixtures.ts';
import { designedEnv } from '../../fixtures/scored-epoch.ts';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { DEFAULT_CONFIG, withPreset, withSetting, type Config } from '../../../src/core/config.ts';
import { agentSettings } from '../../../src/core/loop/agent-settings.ts';
import { playEpisode, type PlayedEpisode } from '../../../src/core/loop/play-episode.ts';
import { FORMAT_NOTE } from '../../../src/core/loop/play-tool-episode.ts';
import { scoreEpoch } from '../../../src/core/scoring/score-epoch.ts';
import type { Episode } from '../../../src/core/records.ts';
import { recomputeRun } from '../../../src/verify/recompute-run.ts';

const CODE = readFileSync(new URL('../../fixtures/envs/tool-use/long/mailroom_shift.py', import.meta.url), 'utf8');
const runtime = fileSandbox();

const TOOL_USE = withSetting(DEFAULT_CONFIG, 'tool_use');
// The reference preset with roomy limits for a shared machine.
const REFERENCE: Config = { ...withPreset(TOOL_USE, 'reference'), stepTimeoutMs: 10_000 };
// The same, but one reply is one step.
const ONE_STEP_PER_REPLY: Config = { ...REFERENCE, freeToolCalls: false };

// Ten calls that do the three instructions, one per reply, then the closing answer.
const CALLS = [
  toolCall('read_note'),
  toolCall('unlock', { code: '4417' }),
  toolCall('list_letters'),
  toolCall('file_letter', { letter_id: 'L1', tray: 'billing' }),
  toolCall('file_letter', { letter_id: 'L2', tray: 'legal' }),
  toolCall('file_letter', { letter_id: 'L3', tray: 'billing' }),
  toolCall('file_letter', { letter_id: 'L4', tray: 'design' }),
  toolCall('lock'),
  toolCall('write_log', { summary: 'filed L1 to L4' }),
  toolCall('read_log'),
];
const ELEVEN_REPLIES = [...CALLS, answer('done')];

/** An agent that sends `replies` in order, one per request (the n-th request gets the n-th reply). */
function agent(replies: readonly string[]): ScriptedChatModel {
  return new ScriptedChatModel(
    (r) => replies[r.messages.filter((m) => m.role === 'assistant').length] ?? answer('done'),
  );
}

async function play(config: Config, replies: readonly string[]) {
  const recording = recordingSandbox(runtime());
  const handle = await recording.runtime.load(CODE, { maxTurns: config.maxTurns, timeoutMs: config.stepTimeoutMs });
  const model = agent(replies);
  try {
    const played = await playEpisode(model, handle, {
      ...agentSettings(config, { grammars: false }),
      seed: 7,
      hint: null,
      modelSeedKey: 'mailroom',
    });
    const count = (method: string) => recording.calls.filter((c) => c.method === method).length;
    return { played, steps: count('step'), toolCalls: count('executeTool') };
  } finally {
    await handle.dispose();
  }
}

function asEpisode(played: PlayedEpisode, index: number): Episode {
  return {
    ...played,
    id: `T-r0-nohint-${index}`,
    envId: 'T',
    epoch: 0,
    rollout: 0,
    arm: 'nohint',
    index,
    seed: 7,
    dropped: false,
    retried: false,
    advantage: 0,
  };
}

describe('tool calls under the reference preset cost no step', () => {
  it('wins the eleven-reply task: ten calls through execute_tool, one step for the answer', async () => {
    const { played, steps, toolCalls } = await play(REFERENCE, ELEVEN_REPLIES);
    expect([played.error, played.return, played.turns.length, steps, toolCalls]).toEqual([null, 1, 11, 1, 10]);
    expect(played.turns.slice(0, 10).every((t) => t.reward === 0 && !t.terminated && !t.truncated)).toBe(true);
    expect(played.turns.at(-1)).toMatchObject({ action: answer('done'), reward: 1, terminated: true });
    // The tool results come back as tool messages; the third instruction was revealed by the seventh call.
    expect(played.messages.filter((m) => m.role === 'tool')).toHaveLength(10);
    expect(played.messages.find((m) => m.role === 'tool' && m.content.includes('[NEXT] Lock up'))?.content).toContain(
      'Filed L4 in design.',
    );
  });

  it('one reply, one step (the tab rule) runs out of the class turns on the tenth reply and scores 0', async () => {
    const { played, steps, toolCalls } = await play(ONE_STEP_PER_REPLY, ELEVEN_REPLIES);
    expect([played.error, played.return, played.turns.length, steps, toolCalls]).toEqual([null, 0, 10, 10, 0]);
    expect(played.turns.at(-1)).toMatchObject({ terminated: false, truncated: true });
  });

  it("runs every call of a reply (up to the parser's 8): seven calls, then three, then the answer win in three replies", async () => {
    const replies = [CALLS.slice(0, 7).join('\n'), CALLS.slice(7).join('\n'), answer('done')];
    const { played, toolCalls } = await play(REFERENCE, replies);
    expect([played.return, played.turns.length, toolCalls]).toEqual([1, 3, 10]);
    // One reply, one step: only each reply's first call runs, so the task is not done when the answer comes.
    const { played: first } = await play(ONE_STEP_PER_REPLY, replies);
    expect([first.return, first.turns.at(-1)!.terminated]).toEqual([0, false]);
  });
});

/** A one-tool task whose `execute_tool` override is `body` (one Python statement). */
const pingEnv = (body: string) => `class PingEnv(ToolUseBaseEnv):
    def reset(self, seed=None):
        self._tools = {"ping": {"description": "Ping the server.", "parameters": {"type": "object", "properties": {}}}}
        self._expected_answer = "pong"
        return "Ping the server and answer with what it says.", {}

    def tool_ping(self):
        return "pong"

    def execute_tool(self, name, arguments):
        ${body}
`;

describe('execute_tool outside step', () => {
  async function pingPlay(body: string) {
    const handle = await runtime().load(pingEnv(body), {
      maxTurns: REFERENCE.maxTurns,
      timeoutMs: REFERENCE.stepTimeoutMs,
    });
    const model = agent([toolCall('ping'), answer('pong')]);
    try {
      return await playEpisode(model, handle, {
        ...agentSettings(REFERENCE, { grammars: false }),
        seed: 1,
        hint: null,
        modelSeedKey: 'ping',
      });
    } finally {
      await handle.dispose();
    }
  }

  it('takes the output of a dict result, as the reference does', async () => {
    const played = await pingPlay('return {"output": self.tool_ping() + "!", "returncode": 0}');
    expect([played.return, played.messages[2]]).toEqual([1, { role: 'tool', content: 'pong!' }]);
  });

  it.each([
    ['return 42', 'tool_bad_result'],
    ['raise RuntimeError("the tool broke")', 'tool_exception'],
  ])(
    'fails the play when execute_tool does `%s` (outside the step wrapper, even with crashes counted as losses)',
    async (body, code) => {
      const played = await pingPlay(body);
      expect([played.error?.code, played.return, played.crash]).toEqual([code, 0, undefined]);
    },
  );
});

describe('tool-use training masks', () => {
  it('flags an unreadable <tool_call>, adds the format line to its feedback, and the play goes on', async () => {
    const { played } = await play(REFERENCE, ['<tool_call>{name: read_note}</tool_call>', ...ELEVEN_REPLIES]);
    expect(played.return).toBe(1);
    expect(played.turns[0]).toMatchObject({ malformedCall: true, reward: -0.1 });
    expect(played.turns.slice(1).some((t) => t.malformedCall)).toBe(false);
    expect(played.messages[2]!.content.endsWith(FORMAT_NOTE)).toBe(true);
    const { played: tab } = await play({ ...REFERENCE, toolUseMasks: false }, [
      '<tool_call>{name: read_note}</tool_call>',
      ...ELEVEN_REPLIES,
    ]);
    expect([tab.turns[0]!.malformedCall, tab.messages[2]!.content.includes('[FORMAT]')]).toEqual([undefined, false]);
  });

  it('a truncated row carries weight 0 on every reply, a malformed reply weight 0, and verify recomputes both', async () => {
    const truncated = asEpisode((await play(ONE_STEP_PER_REPLY, ELEVEN_REPLIES)).played, 0);
    const malformed = asEpisode(
      (await play(REFERENCE, ['<tool_call>{name: read_note}</tool_call>', ...ELEVEN_REPLIES])).played,
      1,
    );
    const config: Config = { ...REFERENCE, playsPerArm: 2, hintPlays: 0, rolloutsPerEpoch: 1 };
    const env = { ...designedEnv('T', 0, null), skill: config.skills[0]! };
    const scores = scoreEpoch(0, [env], [truncated, malformed], config, {});
    const weights = scores.rollouts
      .filter((r) => r.role === 'agent')
      .map((r) => r.messages.filter((m) => m.role === 'assistant').map((m) => m.weight));
    expect(weights).toEqual([Array(10).fill(0), [0, ...Array(11).fill(1)]]);
    // Both rows stay in the group: returns 0 and 1, advantages -1 and +1.
    expect(scores.rollouts.filter((r) => r.role === 'agent').map((r) => [r.reward, Math.round(r.advantage)])).toEqual([
      [0, -1],
      [1, 1],
    ]);
    const stored = {
      config: { reward: config.reward, rolloutsPerEpoch: 1, playsPerArm: 2, toolUseMasks: true, setting: 'tool_use' },
      environments: scores.environments,
      episodes: scores.episodes,
      rollouts: scores.rollouts,
      epochs: [scores.metrics],
      state: null,
      evaluations: [],
    };
    expect(recomputeRun(stored).mismatches).toEqual([]);
    // The same rows exported with weight 1 (no masks) are caught.
    const unmasked = scoreEpoch(0, [env], [truncated, malformed], { ...config, toolUseMasks: false }, {});
    expect(recomputeRun({ ...stored, rollouts: unmasked.rollouts }).mismatches.map((m) => m.field)).toEqual([
      'messages',
      'messages',
    ]);
    // A flag on a reply without a <tool_call> tag (the closing answer) is caught, and so is the row that trusted it.
    const last = malformed.turns.length - 1;
    const forged = scores.episodes.map((e) =>
      e.id === malformed.id
        ? { ...e, turns: e.turns.map((t, j) => (j === last ? { ...t, malformedCall: true as const } : t)) }
        : e,
    );
    expect(recomputeRun({ ...stored, episodes: forged }).mismatches.map((m) => [m.id, m.field])).toEqual([
      [`${malformed.id}/turn${last}`, 'malformedCall'],
      [`agent/${malformed.id}`, 'messages'],
    ]);
    // In the games setting the masks do not apply.
    expect(
      scoreEpoch(0, [env], [truncated], { ...config, setting: 'games' }, {})
        .rollouts.find((r) => r.role === 'agent')!
        .messages.every((m) => m.role !== 'assistant' || m.weight === 1),
    ).toBe(true);
  });
});
