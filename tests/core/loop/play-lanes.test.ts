// No play can keep one of its environment's lanes: a play that throws (a model that fails, a reply
// no check expected) still gives its interpreter back, so the environment's other plays, waiting
// for a lane, run and the epoch settles instead of waiting forever.
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { evaluateAgent } from '../../../src/core/eval/evaluate.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import type { ChatRequest } from '../../../src/core/ports/chat-port.ts';
import type { SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import { fakeSandbox, oneStepGame } from '../../fixtures/fake-sandbox.ts';
import { ONE_SLOT_CONFIG, WIN_POOL } from '../../fixtures/win-environment.ts';

/** One lane per environment, and a count of the handles still held (taken and neither released nor disposed). */
function oneLane(): SandboxRuntime & { held: () => number } {
  const runtime = fakeSandbox({ 'class WinEnv:': oneStepGame });
  let held = 0;
  return {
    ...runtime,
    parallelism: 1,
    held: () => held,
    async load(code, options) {
      const handle = await runtime.load(code, options);
      held += 1;
      return { ...handle, dispose: async () => void (held -= 1) };
    },
  };
}

/** A model whose first agent request fails with a plain Error (not an environment's failure). */
function failingOnce(): ScriptedChatModel {
  let failed = false;
  return new ScriptedChatModel((request: ChatRequest) => {
    if (request.purpose === 'hint') return 'Say win.';
    if (!failed) {
      failed = true;
      throw new Error('the server went away');
    }
    return 'I say \\boxed{win}.';
  });
}

const withinSeconds = <T>(promise: Promise<T>, seconds: number): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still waiting after ${seconds} s: a lane is held`)), seconds * 1000),
    ),
  ]);

describe('a play that throws gives its lane back', () => {
  it('in an epoch: the failure surfaces once the other plays, queued for the one lane, have run', async () => {
    const sandbox = oneLane();
    const epoch = runEpoch(
      { model: failingOnce(), sandbox, corpus: [], fixedPool: WIN_POOL },
      INITIAL_RUN_STATE,
      ONE_SLOT_CONFIG,
    );
    await expect(withinSeconds(epoch, 10)).rejects.toThrow('the server went away');
    expect(sandbox.held()).toBe(0);
  });

  it('in a held-out evaluation: the same', async () => {
    const sandbox = oneLane();
    const evaluation = evaluateAgent(
      { model: failingOnce(), sandbox },
      {
        suite: { name: 'one', sha256: 'x', environments: WIN_POOL },
        config: ONE_SLOT_CONFIG,
        playbook: [],
        afterEpochs: 0,
        trigger: 'demand',
      },
    );
    await expect(withinSeconds(evaluation, 10)).rejects.toThrow('the server went away');
    expect(sandbox.held()).toBe(0);
  });
});
