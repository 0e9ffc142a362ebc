import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseChatScript, ScriptedChatModel } from '../../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { MemoryRunStore } from '../../../src/adapters/store/memory-run-store.ts';
import { DEFAULT_CONFIG, type Config } from '../../../src/core/config.ts';
import { EpochAbortedError, INITIAL_RUN_STATE, type EpochResult } from '../../../src/core/loop/epoch.ts';
import { runEpochs, type RunEpochsPorts } from '../../../src/core/loop/run-epochs.ts';
import { fakeSandbox } from '../../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../../fixtures/hint-helps-doubles.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  skills: ['Logical Deduction'],
  skillsPerEpoch: 1,
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  useCorpus: false,
};

/** A memory store holding one new run, and the ports of runEpochs over it; `log` records the order of epoch starts, commits and hook calls. */
async function setup(runId = 'r') {
  const store = new MemoryRunStore();
  await store.createRun({
    id: runId,
    name: runId,
    createdAt: 0,
    updatedAt: 0,
    config: CONFIG,
    modelId: 'scripted:hint-helps',
    status: 'running',
    epochsCompleted: 0,
    epochsPlanned: 3,
    lastError: null,
  });
  const log: string[] = [];
  const ports: RunEpochsPorts = {
    model: new ScriptedChatModel(SCRIPT),
    sandbox: fakeSandbox(HINT_HELPS_DOUBLES),
    corpus: [],
    emit: (event) => {
      if (event.type === 'epoch_started') log.push(`start ${event.epoch}`);
    },
    commit: async (result) => {
      log.push(`commit ${result.epoch}`);
      await store.commitEpoch(runId, result);
    },
    committed: (result) => {
      log.push(`committed ${result.epoch}`);
    },
  };
  return { store, ports, log };
}

const environmentsOf = async (store: MemoryRunStore, runId = 'r') =>
  JSON.stringify(await store.queryEnvironments(runId));

describe('runEpochs', () => {
  it('runs the epochs in turn, committing each before the next starts, and returns the state after the last', async () => {
    const { store, ports, log } = await setup();
    const state = await runEpochs(ports, INITIAL_RUN_STATE, CONFIG, 2);
    expect(log).toEqual(['start 0', 'commit 0', 'committed 0', 'start 1', 'commit 1', 'committed 1']);
    expect(state.epoch).toBe(2);
    expect((await store.loadRun('r'))!.state).toEqual(state);
    expect((await store.metricsOf('r')).map((m) => m.epoch)).toEqual([0, 1]);
  });

  it("waits for what the committed hook returns before the next epoch starts (the app's hold on the scores)", async () => {
    const { ports, log } = await setup();
    let release: () => void = () => undefined;
    const committed = (result: EpochResult) => {
      log.push(`committed ${result.epoch}`);
      if (result.epoch > 0) return;
      return new Promise<void>((resolve) => (release = resolve)).then(() => void log.push('released'));
    };
    const running = runEpochs({ ...ports, committed }, INITIAL_RUN_STATE, CONFIG, 2);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log).toEqual(['start 0', 'commit 0', 'committed 0']);
    release();
    await running;
    expect(log).toEqual(['start 0', 'commit 0', 'committed 0', 'released', 'start 1', 'commit 1', 'committed 1']);
  });

  it('runs nothing for zero epochs', async () => {
    const { ports, log } = await setup();
    expect(await runEpochs(ports, INITIAL_RUN_STATE, CONFIG, 0)).toBe(INITIAL_RUN_STATE);
    expect(log).toEqual([]);
  });

  it('continues from a stored state with a fresh model exactly as a run that never stopped', async () => {
    const straight = await setup();
    await runEpochs(straight.ports, INITIAL_RUN_STATE, CONFIG, 2);

    const halves = await setup();
    await runEpochs(halves.ports, INITIAL_RUN_STATE, CONFIG, 1);
    const loaded = (await halves.store.loadRun('r'))!;
    expect(loaded.state.modelSnapshot).toBeDefined();
    const state = await runEpochs({ ...halves.ports, model: new ScriptedChatModel(SCRIPT) }, loaded.state, CONFIG, 1);
    expect(state.epoch).toBe(2);
    expect(halves.log).toEqual(['start 0', 'commit 0', 'committed 0', 'start 1', 'commit 1', 'committed 1']);
    expect(await environmentsOf(halves.store)).toBe(await environmentsOf(straight.store));
  });

  it('an abort discards the epoch in progress and keeps the committed ones', async () => {
    const { store, ports, log } = await setup();
    const abort = new AbortController();
    const gate = async () => {
      if (log.includes('start 1')) abort.abort();
    };
    await expect(
      runEpochs({ ...ports, gate, signal: abort.signal }, INITIAL_RUN_STATE, CONFIG, 3),
    ).rejects.toBeInstanceOf(EpochAbortedError);
    expect(log).toEqual(['start 0', 'commit 0', 'committed 0', 'start 1']);
    expect((await store.loadRun('r'))!.state.epoch).toBe(1);
  });

  it("a failed commit stops the run with the store's error; the epochs before it stay", async () => {
    const { store, ports, log } = await setup();
    const full = new Error('disk full');
    const commit = async (result: EpochResult) => {
      if (result.epoch === 1) throw full;
      await ports.commit(result);
    };
    await expect(runEpochs({ ...ports, commit }, INITIAL_RUN_STATE, CONFIG, 3)).rejects.toBe(full);
    expect(log).toEqual(['start 0', 'commit 0', 'committed 0', 'start 1']);
    expect(await store.metricsOf('r')).toHaveLength(1);
  });
});
