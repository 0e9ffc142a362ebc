// A run that asks for constrained agent replies from a model that cannot give them says so once,
// in the run's notice, and plays on unconstrained. In-process doubles; no Python runs.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { RunController } from '../../src/app/run/run-controller.svelte.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { ChatModel, ChatRequest } from '../../src/core/ports/chat-port.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { HELD_OUT_SUITE, LESSON_SCRIPT } from './experiment-fixtures.ts';

const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  skills: ['Logical Deduction'],
  slotsPerEpoch: 1,
  playsPerArm: 1,
  hintPlays: 1,
  maxTurns: 2,
  useCorpus: false,
};

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** Runs one epoch with the scripted model (which honours no grammar) and returns the notice and the agent's requests. */
async function run(constrainAgent: boolean): Promise<{ notice: string | null; agent: ChatRequest[] }> {
  const requests: ChatRequest[] = [];
  const scripted = new ScriptedChatModel(LESSON_SCRIPT);
  const model: ChatModel = {
    id: scripted.id,
    complete: (request) => (requests.push(request), scripted.complete(request)),
  };
  const controller = new RunController({
    store: new MemoryRunStore(),
    sandbox: () => fakeSandbox(HINT_HELPS_DOUBLES),
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => model,
    suite: async () => HELD_OUT_SUITE,
    schedule: (flush) => setTimeout(flush, 0),
  });
  await controller.create({
    name: 'grammar',
    config: { ...CONFIG, constrainAgent },
    modelId: 'scripted:lessons',
    epochsPlanned: 1,
  });
  await controller.start();
  await until(() => controller.status === 'completed', 'the run to complete');
  return { notice: controller.notice, agent: requests.filter((r) => r.purpose === 'agent') };
}

describe('constrained agent replies with a model that cannot honour them', () => {
  it('say so in the run notice, and the agent plays unconstrained', async () => {
    const { notice, agent } = await run(true);
    expect(notice).toMatch(
      /^Constrained agent replies are on, but scripted:\S+ does not support grammars: the agent plays unconstrained\./,
    );
    expect(agent.length).toBeGreaterThan(0);
    expect(agent.every((r) => r.grammar === undefined)).toBe(true);
  });

  it('say nothing when the setting is off', async () => {
    expect((await run(false)).notice).toBeNull();
  });
});
