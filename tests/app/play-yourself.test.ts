import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import {
  agentReturnsForSeed,
  describePlayFailure,
  PlaySession,
  wrapBoxed,
  type PlayOptions,
} from '../../src/app/explorer/play-yourself.ts';
import { EnvError } from '../../src/core/env/env-error.ts';
import type { Episode } from '../../src/core/records.ts';
import { answerText, toolCallText, toolFormSpecs } from '../../src/app/explorer/tool-form.ts';
import { toolSteps } from '../../src/app/explorer/tool-steps.ts';
import { GOOD_ENVS, readEnv } from '../fixtures/env-fixtures.ts';

let sandbox: PyodideSandboxRuntime;
beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  await sandbox.warm();
});
afterAll(() => sandbox.close());

const ladder = GOOD_ENVS.find((f) => f.file === 'number_ladder.py')!;
const options = (over: Partial<PlayOptions> = {}): PlayOptions => ({
  code: readEnv('good', ladder.file),
  seed: ladder.seed,
  hint: null,
  maxTurns: 12,
  stepTimeoutMs: 3000,
  ...over,
});

describe('PlaySession in the real Node sandbox', () => {
  it('plays a known environment to a win with its winning actions: return 1', async () => {
    const session = await PlaySession.start(sandbox, options());
    const first = session.view();
    expect(first).toMatchObject({ status: 'playing', result: null, error: null, turns: [] });
    expect(first.firstObservation).toMatch(/^Reach the target exactly\. Current value: 3\. Target: 22\./);
    for (const action of ladder.winning.slice(0, -1)) expect((await session.act(action)).status).toBe('playing');
    const done = await session.act(ladder.winning[ladder.winning.length - 1]!);
    expect(done.status).toBe('finished');
    expect(done.result).toBe(1);
    expect(done.turns.map((t) => [t.action, t.reward, t.terminated])).toEqual([
      ['\\boxed{A}', 0, false],
      ['\\boxed{A}', 0, false],
      ['\\boxed{B}', 1, true],
    ]);
    expect((await session.act('\\boxed{A}')).turns).toHaveLength(3);
  });

  it('appends the hint to the first observation exactly as the agent gets it', async () => {
    const plain = (await PlaySession.start(sandbox, options())).view().firstObservation;
    const hinted = await PlaySession.start(sandbox, options({ hint: 'Double late, not early.' }));
    expect(hinted.view().firstObservation).toBe(`${plain}\n\nHINT: Double late, not early.`);
    await hinted.dispose();
  });

  it('parses typed text as an agent reply: the first \\boxed{} is sent, else the trimmed text', async () => {
    const session = await PlaySession.start(sandbox, options());
    const view = await session.act('<think>B first?</think>I pick \\boxed{ A } then maybe \\boxed{B}');
    expect(view.turns[0]).toMatchObject({
      input: '<think>B first?</think>I pick \\boxed{ A } then maybe \\boxed{B}',
      action: '\\boxed{A}',
    });
    expect((await session.act('  C  ')).turns[1]!.action).toBe('C');
    await session.dispose();
  });

  it("ends at the turn cap with return 0, as an agent's play does", async () => {
    const session = await PlaySession.start(sandbox, options({ maxTurns: 2 }));
    await session.act('\\boxed{C}');
    const done = await session.act('\\boxed{C}');
    expect(done).toMatchObject({ status: 'finished', result: 0 });
    expect(done.turns[1]!.truncated).toBe(true);
  });

  it('a step that hangs is stopped at the limit and ends the play without a return, with a clear message', async () => {
    const session = await PlaySession.start(
      sandbox,
      options({ code: readEnv('broken', 'hang_step.py'), stepTimeoutMs: 500 }),
    );
    expect(session.view().status).toBe('playing');
    const done = await session.act('\\boxed{3}');
    expect(done.status).toBe('failed');
    expect(done.result).toBeNull();
    expect(done.error).toBe(
      "The environment did not answer within 500 ms (step_timeout), so the sandbox stopped it. An agent's play ends here the same way and, as in SPADE, scores nothing: an unhinted play is retried once and then dropped, a hinted one counts 0.",
    );
    const after = await PlaySession.start(sandbox, options());
    expect(after.view().status).toBe('playing');
    await after.dispose();
  });

  it('code that does not load gives a failed play with the stage, code and message', async () => {
    const session = await PlaySession.start(sandbox, options({ code: readEnv('broken', 'syntax_error.py') }));
    const view = session.view();
    expect(view).toMatchObject({ status: 'failed', result: null, firstObservation: '' });
    expect(view.error).toMatch(
      /^The environment failed \(play\/syntax_error\): Expected valid Python 3 source\. Saw SyntaxError/,
    );
    expect((await session.act('\\boxed{1}')).turns).toEqual([]);
  });
});

describe('PlaySession on a multi-turn tool-use task in the real Node sandbox', () => {
  const homeRoutine = () =>
    readFileSync(new URL('../fixtures/envs/tool-use/good/home_routine.py', import.meta.url), 'utf8');

  it('offers the tools and instructions, sends the form text an agent would, and records each step met criteria', async () => {
    const session = await PlaySession.start(sandbox, options({ code: homeRoutine(), seed: 3 }));
    const start = session.view();
    const room = /heading to the (\w+);/.exec(start.firstObservation)![1]!;
    expect(start.tool!.instructions).toEqual([
      `I'm heading to the ${room}; please turn its light on.`,
      'Make it warm in there: comfort mode.',
      'Show me how that room is set up now.',
    ]);
    const forms = toolFormSpecs(start.tool!.tools);
    expect(forms.map((t) => t.name)).toEqual(['set_light', 'set_heating', 'status', 'list_scenes']);
    const call = (name: string, values: Record<string, string>) => {
      const built = toolCallText(
        forms.find((t) => t.name === name)!,
        values,
      );
      if ('error' in built) throw new Error(built.error);
      return session.act(built.text);
    };
    await call('list_scenes', {});
    await call('set_light', { room, power: 'on' });
    // A typed reply is read as an agent's: thinking removed, only the first call runs.
    await session.act(
      `<think>now heat</think><tool_call>{"name": "set_heating", "arguments": {"room": "${room}", "mode": "comfort"}}</tool_call><tool_call>{"name": "status", "arguments": {"room": "${room}"}}</tool_call>`,
    );
    await call('status', { room });
    const done = await session.act(answerText(' done '));
    expect(done).toMatchObject({ status: 'finished', result: 1 });
    expect(done.turns.map((t) => [t.action, t.progress?.done])).toEqual([
      ['<tool_call>{"name":"list_scenes","arguments":{}}</tool_call>', 0],
      [`<tool_call>{"name":"set_light","arguments":{"room":"${room}","power":"on"}}</tool_call>`, 1],
      [`<tool_call>{"name":"set_heating","arguments":{"room":"${room}","mode":"comfort"}}</tool_call>`, 2],
      [`<tool_call>{"name":"status","arguments":{"room":"${room}"}}</tool_call>`, 3],
      ['<answer>done</answer>', 3],
    ]);
    const steps = toolSteps({ instructions: done.tool!.instructions, turns: done.turns });
    expect(steps.map((s) => [s.tool, s.met.map((m) => m.number), s.revealed?.number ?? null, s.allDone])).toEqual([
      ['list_scenes', [], null, false],
      ['set_light', [1], 2, false],
      ['set_heating', [2], 3, false],
      ['status', [3], null, true],
      [null, [], null, false],
    ]);
    expect(steps[1]!.criteria.map((c) => c.state)).toEqual(['met', 'open', 'open']);
  });
});

describe('play helpers', () => {
  it('wraps text in \\boxed{} once', () => {
    expect(wrapBoxed(' load 2 ')).toBe('\\boxed{load 2}');
    expect(wrapBoxed('\\boxed{A}')).toBe('\\boxed{A}');
  });

  it('describes failures that are not environment errors', () => {
    expect(describePlayFailure(new Error('worker gone'), 100)).toBe(
      'The sandbox failed: worker gone. Start a new play.',
    );
    expect(describePlayFailure(new EnvError('reset_timeout', 'play', 'x'), 250)).toMatch(
      /within 250 ms \(reset_timeout\)/,
    );
  });

  it("names both failure rules for an error inside step, and only the tab's for one outside it", () => {
    expect(describePlayFailure(new EnvError('step_exception', 'play', 'boom.'), 100)).toMatch(
      /^The environment failed \(play\/step_exception\): boom\. .*crashes count as losses.*return of -1\.$/,
    );
    expect(describePlayFailure(new EnvError('bad_harness_reply', 'play', 'bad.'), 100)).toMatch(
      /as in SPADE, scores nothing/,
    );
  });

  it("finds the agent's returns for one seed, per arm, in rollout 0", () => {
    const ep = (arm: 'hint' | 'nohint', seed: number, ret: number, rollout = 0) =>
      ({ arm, seed, return: ret, rollout }) as Episode;
    const episodes = [
      ep('nohint', 5, 0),
      ep('nohint', 6, 1),
      ep('hint', 5, 1),
      ep('hint', 6, 1),
      ep('nohint', 5, 0.5, 1),
    ];
    expect(agentReturnsForSeed(episodes, 5)).toEqual({ nohint: [0], hint: [1] });
    expect(agentReturnsForSeed(episodes, 9)).toEqual({ nohint: [], hint: [] });
  });
});
