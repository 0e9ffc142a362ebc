import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { EpochAbortedError, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { rescoreEnvironment } from '../../../src/core/env/rescore-env.ts';
import { scriptedEpochs, TEST_CONFIG } from '../../adapters/store/store-fixtures.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);

let sandbox: PyodideSandboxRuntime;
let epoch: EpochResult;
beforeAll(async () => {
  sandbox = createNodeSandboxRuntime();
  [epoch] = (await scriptedEpochs(sandbox, 1)) as [EpochResult];
});
afterAll(() => sandbox.close());

describe('rescoreEnvironment', () => {
  it("with the same model and code, replays the epoch's K + K plays on the same seeds and gives the same scores", async () => {
    const env = epoch.environments.find((e) => e.id === 'e0000-s00')!;
    expect(env.stats!.regret).toBe(1);
    const result = await rescoreEnvironment(
      { model: new ScriptedChatModel(SCRIPT), sandbox },
      { env, code: env.code, config: TEST_CONFIG },
    );
    expect(result.hint).toBe(env.hint);
    expect(result.hintGenerated).toBe(false);
    const stored = epoch.episodes.filter((e) => e.envId === env.id);
    expect(result.episodes.map((e) => [e.id, e.arm, e.seed, e.return, e.turns.map((t) => t.action)])).toEqual(
      stored.map((e) => [e.id, e.arm, e.seed, e.return, e.turns.map((t) => t.action)]),
    );
    const { designerAdvantage: _ignored, designerGroupSize: _alone, ...scores } = env.stats!;
    expect(result.stats).toMatchObject(scores);
    expect(result.stats.designerAdvantage).toBe(0);
    expect(result.stats.designerGroupSize).toBe(1);
  });

  it('plays edited code, and asks the model for a hint when the environment has none', async () => {
    const env = epoch.environments.find((e) => e.id === 'e0000-s00')!;
    const broken = { ...env, status: 'rejected' as const, hint: null, stats: null };
    const edited = env.code.replace(
      'return "The door swings open.", 1.0, True, False, {}',
      'return "The door swings open.", 0.5, True, False, {}',
    );
    expect(edited).not.toBe(env.code);
    const result = await rescoreEnvironment(
      { model: new ScriptedChatModel(SCRIPT), sandbox },
      { env: broken, code: edited, config: TEST_CONFIG },
    );
    expect(result.hintGenerated).toBe(true);
    expect(result.hint).toBe(env.hint);
    expect(result.episodes.filter((e) => e.arm === 'hint').map((e) => e.return)).toEqual([0.5, 0.5]);
    expect(result.stats.rHint).toBe(0.5);
  });

  it('stops before playing when aborted', async () => {
    const env = epoch.environments[0]!;
    const controller = new AbortController();
    controller.abort();
    await expect(
      rescoreEnvironment(
        { model: new ScriptedChatModel(SCRIPT), sandbox, signal: controller.signal },
        { env, code: env.code, config: TEST_CONFIG },
      ),
    ).rejects.toBeInstanceOf(EpochAbortedError);
  });
});
