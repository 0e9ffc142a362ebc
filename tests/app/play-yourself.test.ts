import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../src/adapters/sandbox/pyodide-runtime.ts';
import { agentReturnsForSeed, describePlayFailure, PlaySession, wrapBoxed, type PlayOptions } from '../../src/app/play-yourself.ts';
import { EnvError } from '../../src/core/env/env-error.ts';
import type { Episode } from '../../src/core/records.ts';
import { GOOD_ENVS, readEnv } from '../fixtures/env-fixtures.ts';

let sandbox: PyodideSandboxRuntime;
beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  await sandbox.warm();
});
afterAll(() => sandbox.close());

const ladder = GOOD_ENVS.find((f) => f.file === 'number_ladder.py')!;
const options = (over: Partial<PlayOptions> = {}): PlayOptions => ({ code: readEnv('good', ladder.file), seed: ladder.seed, hint: null, maxTurns: 12, stepTimeoutMs: 3000, ...over });

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
    expect(view.turns[0]).toMatchObject({ input: '<think>B first?</think>I pick \\boxed{ A } then maybe \\boxed{B}', action: '\\boxed{A}' });
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
    const session = await PlaySession.start(sandbox, options({ code: readEnv('broken', 'hang_step.py'), stepTimeoutMs: 500 }));
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
    expect(view.error).toMatch(/^The environment failed \(play\/syntax_error\): Expected valid Python 3 source\. Saw SyntaxError/);
    expect((await session.act('\\boxed{1}')).turns).toEqual([]);
  });
});

describe('play helpers', () => {
  it('wraps text in \\boxed{} once', () => {
    expect(wrapBoxed(' load 2 ')).toBe('\\boxed{load 2}');
    expect(wrapBoxed('\\boxed{A}')).toBe('\\boxed{A}');
  });

  it('describes failures that are not environment errors', () => {
    expect(describePlayFailure(new Error('worker gone'), 100)).toBe('The sandbox failed: worker gone. Start a new play.');
    expect(describePlayFailure(new EnvError('reset_timeout', 'play', 'x'), 250)).toMatch(/within 250 ms \(reset_timeout\)/);
  });

  it("finds the agent's returns for one seed, per arm, in rollout 0", () => {
    const ep = (arm: 'hint' | 'nohint', seed: number, ret: number, rollout = 0) => ({ arm, seed, return: ret, rollout }) as Episode;
    const episodes = [ep('nohint', 5, 0), ep('nohint', 6, 1), ep('hint', 5, 1), ep('hint', 6, 1), ep('nohint', 5, 0.5, 1)];
    expect(agentReturnsForSeed(episodes, 5)).toEqual({ nohint: [0], hint: [1] });
    expect(agentReturnsForSeed(episodes, 9)).toEqual({ nohint: [], hint: [] });
  });
});
