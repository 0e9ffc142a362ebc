// Held-out suites other than the built-in one in the app: another stored run's pool frozen at an
// epoch, or an imported pool (validated), chosen for a run's scheduled evaluations (kept across a
// reload) or for "Evaluate now", with a warning when the suite shares code with the run's training
// pool. In-process doubles of the hint-helps games; no Python runs.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { sha256Hex } from '../../src/adapters/store/sha256.ts';
import { overlapText } from '../../src/app/suites/eval-progress.ts';
import { FixedPoolPicker } from '../../src/app/suites/fixed-pool.svelte.ts';
import { HeldOutChoice } from '../../src/app/suites/held-out-choice.svelte.ts';
import { RunController, type RunControllerDeps } from '../../src/app/run/run-controller.svelte.ts';
import {
  choiceOf,
  loadChosenSuite,
  recordedSuite,
  scheduledSuite,
  suiteOverlap,
  trainingCodes,
} from '../../src/app/suites/suite-choice.ts';
import type { PoolFiles } from '../../src/app/suites/suite-source.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { FIXED_POOL, GLOW_CODE, HELD_OUT_SUITE, LESSON_SCRIPT } from './experiment-fixtures.ts';

const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  skills: ['Logical Deduction'],
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  useCorpus: false,
};
const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);

function deps(store: MemoryRunStore): RunControllerDeps {
  return {
    store,
    sandbox: () => sandbox,
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => new ScriptedChatModel(LESSON_SCRIPT),
    suite: async () => HELD_OUT_SUITE,
    schedule: (flush) => setTimeout(flush, 0),
  };
}

async function until(check: () => boolean, what: string, ms = 30_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}

/** A stored run trained for `epochs` epochs: each designs GlowKey and DoorWord (the scripted designer's two games). */
async function trainedRun(
  store: MemoryRunStore,
  name: string,
  epochs: number,
  patch: Partial<Config> = {},
): Promise<{ meta: RunMeta; controller: RunController }> {
  const controller = new RunController(deps(store));
  const meta = await controller.create({
    name,
    config: { ...CONFIG, ...patch },
    modelId: 'scripted:lessons',
    epochsPlanned: epochs,
  });
  await controller.start();
  await until(() => controller.status === 'completed', `${name} completed`);
  return { meta, controller };
}

async function poolFiles(entries: Array<[string, string]>): Promise<PoolFiles> {
  const manifest = entries
    .map(([name]) => JSON.stringify({ file_name: name, skill_name: 'Logical Deduction' }))
    .join('\n');
  const texts: Array<[string, string]> = [
    ['manifest.jsonl', manifest],
    ...entries.map(([name, code]): [string, string] => [`games/${name}`, code]),
  ];
  return {
    files: await Promise.all(texts.map(async ([path, text]) => ({ path, text, sha256: await sha256Hex(text) }))),
    problems: [],
  };
}

describe('a chosen suite', () => {
  it('loads a stored run’s pool at an epoch, records where it came from, and names the same choice again', async () => {
    const store = new MemoryRunStore();
    const { meta } = await trainedRun(store, 'source', 1);
    const sources = { builtin: async () => HELD_OUT_SUITE, store };
    const suite = await loadChosenSuite({ kind: 'run', runId: meta.id, epoch: 1 }, sources);
    expect(suite.name).toBe('run source at epoch 1');
    expect(suite.environments.map((e) => e.id)).toEqual(['e0000-s00', 'e0000-s01']);
    await expect(loadChosenSuite({ kind: 'run', runId: meta.id, epoch: 2 }, sources)).rejects.toThrow(
      'expected epoch 1, got 2',
    );
    expect(await loadChosenSuite({ kind: 'builtin' }, sources)).toBe(HELD_OUT_SUITE);

    const recorded = recordedSuite(suite, { kind: 'run', runId: meta.id, epoch: 1 });
    expect(recorded).toEqual({
      name: suite.name,
      sha256: suite.sha256,
      source: { kind: 'run', runId: meta.id, epoch: 1 },
    });
    expect(choiceOf(recorded)).toEqual({ kind: 'run', runId: meta.id, epoch: 1 });
    const pool = recordedSuite(FIXED_POOL, { kind: 'pool', suite: FIXED_POOL });
    expect(choiceOf(pool)).toEqual({ kind: 'pool', suite: FIXED_POOL });
    expect(recordedSuite(HELD_OUT_SUITE, { kind: 'builtin' })).toEqual({
      name: 'builtin',
      sha256: HELD_OUT_SUITE.sha256,
    });
    expect(choiceOf(undefined)).toEqual({ kind: 'builtin' });

    // Its source run deleted: the built-in suite takes its place, with a notice.
    await store.deleteRun(meta.id);
    const fallback = await scheduledSuite({ evalSuite: recorded }, sources);
    expect(fallback.suite).toBe(HELD_OUT_SUITE);
    expect(fallback.record).toEqual({ name: 'builtin', sha256: HELD_OUT_SUITE.sha256 });
    expect(fallback.notice).toContain(
      `was taken from the run ${meta.id}, which is no longer stored; later evaluations use the built-in suite`,
    );
    expect(await scheduledSuite({ evalSuite: pool }, sources)).toEqual({
      suite: FIXED_POOL,
      record: null,
      notice: null,
    });
  });

  it('finds the suite environments whose code the run trains on (played or in its fixed pool)', () => {
    const codes = trainingCodes({ fixedPool: FIXED_POOL }, []);
    expect(suiteOverlap(HELD_OUT_SUITE, codes)).toEqual(['glow_key', 'door_word']);
    expect(suiteOverlap(HELD_OUT_SUITE, trainingCodes({}, []))).toEqual([]);
    const progress = {
      trigger: 'demand',
      afterEpochs: 1,
      done: 4,
      total: 4,
      wins: 2,
      phase: 'done',
      suite: 'x',
      error: null,
    } as const;
    const result = { environments: 2, episodes: 4, wins: 2, winRate: 0.5, ci95: [0, 1] as [number, number] };
    expect(overlapText({ ...progress, result, overlap: ['glow_key'] })).toBe(
      'Not held out: 1 of the 2 suite environments (glow_key) have the same code as environments this run trains on, so this result cannot tell held-out play from play on training data.',
    );
    expect(overlapText({ ...progress, result, overlap: [] })).toBeNull();
  });
});

describe('the run controller with a chosen suite', () => {
  it('schedules evaluations on another run’s pool, warns that the run trains on the same games, and loads it again after a reload', async () => {
    const store = new MemoryRunStore();
    const { meta: source } = await trainedRun(store, 'source', 1);
    const controller = new RunController(deps(store));
    const meta = await controller.create({
      name: 'target',
      config: { ...CONFIG, evalEvery: 1 },
      modelId: 'scripted:lessons',
      epochsPlanned: 1,
      evalSuite: { kind: 'run', runId: source.id, epoch: 1 },
    });
    expect(meta.evalSuite).toMatchObject({
      name: 'run source at epoch 1',
      source: { kind: 'run', runId: source.id, epoch: 1 },
    });
    await controller.start();
    await until(() => controller.status === 'completed', 'the first epoch');
    // The scripted designer writes the same two games in every run: the suite is not held out.
    expect(controller.evaluation).toMatchObject({
      phase: 'done',
      afterEpochs: 1,
      suite: 'run source at epoch 1',
      overlap: ['e0000-s00', 'e0000-s01'],
    });

    // One more epoch after a reload: the suite is read again from the source run.
    await store.updateRun(meta.id, { epochsPlanned: 2 });
    const reloaded = new RunController(deps(store));
    await reloaded.open(meta.id);
    await reloaded.start();
    await until(() => reloaded.status === 'completed', 'completion after the reload');
    expect(reloaded.notice).toBeNull();
    const evaluations = await store.evaluationsOf(meta.id);
    expect(evaluations.map((e) => [e.afterEpochs, e.suite, e.environments])).toEqual([
      [0, 'run source at epoch 1', 2],
      [1, 'run source at epoch 1', 2],
      [2, 'run source at epoch 1', 2],
    ]);
  });

  it('evaluates now on an imported pool kept in the meta, without a warning when no code is shared', async () => {
    const store = new MemoryRunStore();
    const { meta, controller } = await trainedRun(store, 'run', 1);
    await controller.evaluateNow({ kind: 'pool', suite: HELD_OUT_SUITE });
    expect(controller.evaluation).toMatchObject({ trigger: 'demand', phase: 'done', suite: 'builtin', overlap: [] });
    await controller.evaluateNow({ kind: 'run', runId: meta.id, epoch: 1 });
    expect(controller.evaluation).toMatchObject({
      phase: 'done',
      suite: 'run run at epoch 1',
      overlap: ['e0000-s00', 'e0000-s01'],
    });
    expect((await store.evaluationsOf(meta.id)).map((e) => e.suite)).toEqual(['builtin', 'run run at epoch 1']);

    const pooled = await new RunController(deps(store)).create({
      name: 'p',
      config: { ...CONFIG, evalEvery: 2 },
      modelId: 'm',
      epochsPlanned: 1,
      evalSuite: { kind: 'pool', suite: FIXED_POOL },
    });
    expect(pooled.evalSuite).toEqual({
      name: 'starter',
      sha256: FIXED_POOL.sha256,
      source: { kind: 'pool', environments: FIXED_POOL.environments },
    });
  });
});

describe('the held-out suite chooser', () => {
  it('lists stored runs with a committed epoch, previews a run’s pool at an epoch, and is ready only when it can be used', async () => {
    const store = new MemoryRunStore();
    await trainedRun(store, 'older', 1);
    await new Promise((resolve) => setTimeout(resolve, 2));
    const { meta: newest } = await trainedRun(store, 'newer', 2);
    await new RunController(deps(store)).create({ name: 'empty', config: CONFIG, modelId: 'm', epochsPlanned: 1 });
    const choice = new HeldOutChoice({
      store,
      builtin: async () => HELD_OUT_SUITE,
      imported: new FixedPoolPicker({ sandbox: () => sandbox, readPicked: async () => poolFiles([]) }),
    });
    expect(choice.choice).toEqual({ kind: 'builtin' });
    await choice.refresh();
    expect(choice.runs.map((r) => [r.name, r.epochs])).toEqual([
      ['newer', 2],
      ['older', 1],
    ]);
    await choice.setKind('run');
    expect([choice.runId, choice.epoch, choice.preview.suite?.name]).toEqual([newest.id, 2, 'run newer at epoch 2']);
    expect(choice.choice).toEqual({ kind: 'run', runId: newest.id, epoch: 2 });
    await choice.useRun(newest.id, 3);
    expect(choice.preview).toMatchObject({
      phase: 'failed',
      error: 'the run newer has 2 committed epochs: expected an epoch from 1 to 2, got 3',
    });
    expect(choice.choice).toBeNull();
    expect(choice.missing).toBe('Choose a stored run and an epoch for the held-out suite.');
    await choice.useRun(newest.id, 1);
    expect(choice.choice).toEqual({ kind: 'run', runId: newest.id, epoch: 1 });
  });

  it('takes an imported pool only once validated, listing each environment left out with the reason', async () => {
    const files = await poolFiles([
      ['glow.py', GLOW_CODE],
      ['broken.py', 'class BrokenEnv:\n'],
    ]);
    const choice = new HeldOutChoice({
      store: new MemoryRunStore(),
      builtin: async () => HELD_OUT_SUITE,
      imported: new FixedPoolPicker({ sandbox: () => sandbox, readPicked: async () => files }),
    });
    await choice.setKind('pool');
    expect(choice.choice).toBeNull();
    expect(choice.missing).toBe('Import a pool (zip or folder) for the held-out suite; it is validated first.');
    expect(choice.imported.hasBundled).toBe(false);
    await choice.imported.usePicked([new File(['x'], 'mine.zip')]);
    expect(choice.imported.state.problems).toEqual([
      { source: 'broken', reason: expect.stringMatching(/^invalid at load \(no_env_class\)/), kept: false },
    ]);
    expect(choice.choice).toMatchObject({
      kind: 'pool',
      suite: { name: 'mine', environments: [{ id: 'glow', code: GLOW_CODE }] },
    });
  });
});
