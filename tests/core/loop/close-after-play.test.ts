// Every play loads the environment into an interpreter of its own, retired after it; after a clean
// play the environment's own close() runs first, as the reference calls it, and a close() that
// fails leaves the play's result as it is.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../../src/core/config.ts';
import { FreshInstances } from '../../../src/core/loop/fresh-instances.ts';
import type { EnvHandle, SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import { fakeFailure, fakeSandbox, oneStepGame } from '../../fixtures/fake-sandbox.ts';

const CODE = 'class WinEnv:\n    pass\n';

/** A runtime whose handles count their close() and dispose() calls; `failClose` makes close() raise. */
function counting(failClose: boolean): SandboxRuntime & { closes: number; disposes: number; loads: () => number } {
  const runtime = fakeSandbox({ 'class WinEnv:': oneStepGame });
  const counts = {
    closes: 0,
    disposes: 0,
  };
  return Object.assign(counts, {
    ...runtime,
    parallelism: 1,
    loads: () => runtime.counts.loads,
    async load(code: string, options: Parameters<SandboxRuntime['load']>[1]): Promise<EnvHandle> {
      const handle = await runtime.load(code, options);
      return {
        ...handle,
        close: async () => {
          counts.closes += 1;
          if (failClose) throw fakeFailure('close_exception');
        },
        dispose: async () => void (counts.disposes += 1),
      };
    },
  });
}

describe('close() after a play', () => {
  it('closes the instance after each clean play; every play has an interpreter of its own, retired after it', async () => {
    const sandbox = counting(false);
    const instances = new FreshInstances(sandbox, CODE, DEFAULT_CONFIG);
    const first = await instances.play(async () => ({ error: null, value: 1 }));
    const second = await instances.play(async () => ({ error: null, value: 2 }));
    expect([first.value, second.value]).toEqual([1, 2]);
    expect({ closes: sandbox.closes, disposes: sandbox.disposes, loads: sandbox.loads() }).toEqual({
      closes: 2,
      disposes: 2,
      loads: 2,
    });
  });

  it('a close() that raises leaves the play its result', async () => {
    const sandbox = counting(true);
    const instances = new FreshInstances(sandbox, CODE, DEFAULT_CONFIG);
    const first = await instances.play(async () => ({ error: null, value: 1 }));
    const second = await instances.play(async () => ({ error: null, value: 2 }));
    expect([first, second]).toEqual([
      { error: null, value: 1 },
      { error: null, value: 2 },
    ]);
    expect({ closes: sandbox.closes, disposes: sandbox.disposes, loads: sandbox.loads() }).toEqual({
      closes: 2,
      disposes: 2,
      loads: 2,
    });
  });

  it('a play that failed is not closed, and its interpreter is retired all the same', async () => {
    const sandbox = counting(false);
    const instances = new FreshInstances(sandbox, CODE, DEFAULT_CONFIG);
    await expect(instances.play(async () => ({ error: 'step_exception', value: 0 }))).resolves.toEqual({
      error: 'step_exception',
      value: 0,
    });
    await expect(instances.play(async () => Promise.reject(new Error('model gone')))).rejects.toThrow('model gone');
    expect({ closes: sandbox.closes, disposes: sandbox.disposes, loads: sandbox.loads() }).toEqual({
      closes: 0,
      disposes: 2,
      loads: 2,
    });
  });
});
