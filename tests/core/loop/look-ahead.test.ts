// Plays are loaded ahead of their turn only as far as they could start: at concurrency c no more
// than c units start when places free up, so at most c plays wait loaded, whatever the sandbox's
// parallelism (each one holds an interpreter: in a tab about 90 MB).
import { describe, expect, it } from 'vitest';
import { ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { evaluateAgent } from '../../../src/core/eval/evaluate.ts';
import { INITIAL_RUN_STATE, runEpoch } from '../../../src/core/loop/epoch.ts';
import { Scheduler } from '../../../src/core/loop/scheduler.ts';
import type { InterpreterTicket, SandboxRuntime } from '../../../src/core/ports/sandbox-port.ts';
import { fakeSandbox, oneStepGame, withDelays } from '../../fixtures/fake-sandbox.ts';
import { ONE_SLOT_CONFIG, WIN_POOL } from '../../fixtures/win-environment.ts';

/** A sandbox that runs four interpreters well at once, and the most interpreters it ever had reserved or loaded at once. */
function widePool(): SandboxRuntime & { peak: () => number } {
  const runtime = withDelays(fakeSandbox({ 'class WinEnv:': oneStepGame }), () => 2);
  const tickets = new Set<InterpreterTicket>();
  let held = 0;
  let peak = 0;
  const take = () => (peak = Math.max(peak, ++held));
  return {
    ...runtime,
    parallelism: 4,
    peak: () => peak,
    async reserve() {
      take();
      const ticket: InterpreterTicket = { release: () => void (tickets.delete(ticket) && (held -= 1)) };
      tickets.add(ticket);
      return ticket;
    },
    async load(code, options) {
      // A reserved interpreter is now the load's; without a ticket the load takes one of its own.
      if (!(options.ticket && tickets.delete(options.ticket))) take();
      const handle = await runtime.load(code, options);
      return { ...handle, dispose: async () => void (held -= 1) };
    },
  };
}

// Replies streamed a word every 5 ms: a play lasts longer than a load (2 ms), so a play loaded
// ahead waits while the one before it runs.
const model = () =>
  new ScriptedChatModel((request) => (request.purpose === 'hint' ? 'Say win.' : 'I say \\boxed{win}.'), 'slow', 5);

describe('plays loaded ahead of their turn', () => {
  it('are never more than the units that may run at once, whatever look-ahead the scheduler is given', async () => {
    // [limit, look-ahead, most units holding an interpreter at once: running, or prepared and waiting]
    for (const [limit, lookAhead, expected] of [
      [1, 4, 2],
      [2, 4, 4],
      [3, 2, 5],
    ] as const) {
      let holding = 0;
      let most = 0;
      const scheduler = new Scheduler(limit, async () => undefined, lookAhead);
      for (let i = 0; i < 12; i++)
        scheduler.add({
          stage: 'play',
          order: [i],
          prepare: async () => void (most = Math.max(most, ++holding)),
          run: async () => {
            await new Promise((resolve) => setTimeout(resolve, 5));
            holding -= 1;
          },
        });
      await scheduler.drain();
      expect([limit, lookAhead, most]).toEqual([limit, lookAhead, expected]);
    }
  });

  it('in an epoch at concurrency 1: one play runs and one more waits loaded, not four', async () => {
    const sandbox = widePool();
    await runEpoch({ model: model(), sandbox, corpus: [], fixedPool: WIN_POOL }, INITIAL_RUN_STATE, {
      ...ONE_SLOT_CONFIG,
      concurrency: 1,
    });
    expect(sandbox.peak()).toBe(2);
    const wide = widePool();
    await runEpoch({ model: model(), sandbox: wide, corpus: [], fixedPool: WIN_POOL }, INITIAL_RUN_STATE, {
      ...ONE_SLOT_CONFIG,
      concurrency: 8,
    });
    expect(wide.peak()).toBeGreaterThan(2);
  });

  it('in a held-out evaluation at concurrency 1: the same', async () => {
    const sandbox = widePool();
    await evaluateAgent(
      { model: model(), sandbox },
      {
        suite: { name: 'one', sha256: 'x', environments: WIN_POOL },
        config: { ...ONE_SLOT_CONFIG, concurrency: 1 },
        playbook: [],
        afterEpochs: 0,
        trigger: 'demand',
      },
    );
    expect(sandbox.peak()).toBe(2);
  });
});
