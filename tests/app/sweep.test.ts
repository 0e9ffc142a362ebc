import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import type { ControllerStatus } from '../../src/app/run/run-controller.svelte.ts';
import type { NewRun } from '../../src/app/new-run/new-run.ts';
import { SweepController, type SweepDeps } from '../../src/app/compare/sweep.svelte.ts';
import { localSweepStorage, parsePlan } from '../../src/app/compare/sweep-plan.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';
import { DEMO, FORM, mapStorage } from '../fixtures/sweep-form.ts';

/** What a started run does in the fake: complete after a tick, fail at once, or run until `finish` is called. */
type Behaviour = 'complete' | 'fail' | 'hold';

/** The run controller's create/open/start/abort over a memory store, with runs that end as told. */
class FakeRuns {
  status: ControllerStatus = 'idle';
  meta: RunMeta | null = null;
  error: string | null = null;
  evaluating = false;
  readonly started: string[] = [];
  private count = 0;

  constructor(
    readonly store: MemoryRunStore,
    public behaviour: (name: string) => Behaviour = () => 'complete',
  ) {}

  async create(input: NewRun): Promise<RunMeta> {
    const meta: RunMeta = {
      id: `r${++this.count}`,
      name: input.name,
      createdAt: this.count,
      updatedAt: 0,
      config: input.config,
      modelId: input.modelId,
      status: 'new',
      epochsCompleted: 0,
      epochsPlanned: input.epochsPlanned,
      lastError: null,
    };
    await this.store.createRun(meta);
    await this.open(meta.id);
    return meta;
  }

  async open(id: string): Promise<void> {
    if (this.status === 'running' || this.status === 'paused')
      throw new Error('Stop the current run before opening another.');
    const loaded = await this.store.loadRun(id);
    if (!loaded) throw new Error(`No run with id ${id}.`);
    this.meta = loaded.meta;
    this.error = null;
    this.status = loaded.meta.epochsCompleted >= loaded.meta.epochsPlanned ? 'completed' : 'idle';
  }

  async start(): Promise<void> {
    const meta = this.meta!;
    this.started.push(meta.name);
    const behaviour = this.behaviour(meta.name);
    if (behaviour === 'fail') {
      this.status = 'failed';
      this.error = 'the model is not loaded';
      return;
    }
    this.status = 'running';
    if (behaviour === 'complete') setTimeout(() => void this.finish(), 2);
  }

  /** Ends the running run as completed. */
  async finish(): Promise<void> {
    await this.store.updateRun(this.meta!.id, { epochsCompleted: this.meta!.epochsPlanned, status: 'completed' });
    this.meta = { ...this.meta!, epochsCompleted: this.meta!.epochsPlanned };
    this.status = 'completed';
  }

  abort(): void {
    if (this.status !== 'running' && this.status !== 'paused') return;
    this.status = 'stopping';
    setTimeout(() => (this.status = 'aborted'), 2);
  }
}

function setup(behaviour?: (name: string) => Behaviour, ready = true) {
  const store = new MemoryRunStore();
  const runs = new FakeRuns(store, behaviour);
  const storage = mapStorage();
  const held = new Set<string>();
  let refreshed = 0;
  const deps: SweepDeps = {
    run: runs,
    refreshRuns: async () => refreshed++,
    storage: localSweepStorage(() => storage),
    store,
    demoModelId: DEMO,
    modelReady: () => ready,
    lock: async (id) => {
      if (held.has(id)) return null;
      held.add(id);
      return () => void held.delete(id);
    },
    pollMs: 1,
    now: () => 42,
  };
  return { store, runs, storage, held, deps, refreshed: () => refreshed, sweep: new SweepController(deps) };
}

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const statuses = (sweep: SweepController) => sweep.plan!.cells.map((c) => c.status);

describe('SweepController', () => {
  it('creates a run per cell, runs them one after another, and keeps each status', async () => {
    const { sweep, runs, storage, refreshed } = setup();
    expect(await sweep.start(FORM)).toBe(true);
    expect(refreshed()).toBe(1);
    expect(
      (await runs.store.listRuns()).map((r) => [
        r.name,
        r.config.reward,
        r.config.seed,
        r.config.slotsPerEpoch,
        r.epochsPlanned,
      ]),
    ).toEqual([
      ['reward-blend_seed-1', 'blend', 1, 1, 1],
      ['reward-blend_seed-2', 'blend', 2, 1, 1],
      ['reward-regret_seed-1', 'regret', 1, 1, 1],
      ['reward-regret_seed-2', 'regret', 2, 1, 1],
    ]);
    await until(() => sweep.plan!.status === 'finished', 'the sweep to finish');
    expect(runs.started).toEqual([
      'reward-blend_seed-1',
      'reward-blend_seed-2',
      'reward-regret_seed-1',
      'reward-regret_seed-2',
    ]);
    expect(statuses(sweep)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(sweep.driving).toBe(false);
    expect(parsePlan(storage.getItem('spade-lab-sweep'))!.status).toBe('finished');
    expect(sweep.runIds).toEqual(['r1', 'r2', 'r3', 'r4']);
  });

  it('reads its figures per grid cell from the store, and forgets them with the sweep', async () => {
    const { sweep } = setup();
    expect(await sweep.start(FORM)).toBe(true);
    await until(() => sweep.plan!.status === 'finished', 'the sweep to finish');
    await sweep.loadFigures();
    expect(sweep.figures!.map((row) => [row.cell, row.seeds, row.completed])).toEqual([
      ['reward=blend', '1, 2', '2 of 2 runs completed'],
      ['reward=regret', '1, 2', '2 of 2 runs completed'],
    ]);
    sweep.dismiss();
    await sweep.loadFigures();
    expect(sweep.figures).toBeNull();
  });

  it('refuses a form with a mistake, or while a run, an evaluation or another sweep is under way', async () => {
    const { sweep, runs } = setup(() => 'hold');
    expect(await sweep.start({ ...FORM, grid: 'reward=' })).toBe(false);
    expect(sweep.error).toMatch(/^reward: expected a comma-separated list of values/);
    runs.evaluating = true;
    expect(await sweep.start(FORM)).toBe(false);
    expect(sweep.error).toMatch(/^A run or an evaluation is under way in this tab/);
    runs.evaluating = false;
    expect(await sweep.start(FORM)).toBe(true);
    await until(() => runs.status === 'running', 'the first cell to run');
    expect(await sweep.start(FORM)).toBe(false);
    expect(sweep.error).toMatch(/^A sweep is under way/);
    const other = new SweepController({ ...setup().deps, run: runs });
    expect(await other.start(FORM)).toBe(false);
    expect(other.error).toMatch(/^A run or an evaluation is under way in this tab/);
  });

  it('resumes after a reload: a new controller over the same storage goes on from the interrupted cell', async () => {
    const first = setup((name) => (name === 'reward-blend_seed-2' ? 'hold' : 'complete'));
    await first.sweep.start(FORM);
    await until(
      () => first.runs.status === 'running' && first.runs.meta!.name === 'reward-blend_seed-2',
      'the second cell to run',
    );
    expect(statuses(first.sweep)).toEqual(['completed', 'running', 'pending', 'pending']);
    expect(first.sweep.runningEpochs).toEqual({ done: 0, planned: 1 });
    // The reload: the tab's controllers are gone (the lock with them); the store and the plan stay.
    const runs = new FakeRuns(first.runs.store);
    const again = new SweepController({ ...first.deps, run: runs, lock: undefined });
    expect(again.restore()).toBe(true);
    expect(again.notice).toBe(
      "A reload interrupted this sweep at cell 2 of 4; it goes on from that cell's last committed epoch.",
    );
    await until(() => again.plan!.status === 'finished', 'the resumed sweep to finish');
    expect(runs.started).toEqual(['reward-blend_seed-2', 'reward-regret_seed-1', 'reward-regret_seed-2']);
    expect(statuses(again)).toEqual(['completed', 'completed', 'completed', 'completed']);
  });

  it('after a reload, waits for a model that is not loaded yet, then continues when asked', async () => {
    const first = setup(() => 'hold');
    await first.sweep.start(FORM);
    await until(() => first.runs.status === 'running', 'the first cell to run');
    const runs = new FakeRuns(first.runs.store);
    const again = new SweepController({ ...first.deps, run: runs, lock: undefined, modelReady: () => false });
    expect(again.restore()).toBe(false);
    expect(again.notice).toBe(
      'A reload interrupted this sweep at cell 1 of 4. Load the demo under Model, then continue the sweep.',
    );
    expect(runs.started).toEqual([]);
    again.continue();
    await until(() => again.plan!.status === 'finished', 'the continued sweep to finish');
    expect(runs.started).toHaveLength(4);
  });

  it('a second tab does not drive a sweep another tab holds', async () => {
    const { sweep, deps, held } = setup(() => 'hold');
    await sweep.start(FORM);
    await until(() => sweep.driving, 'the sweep to run');
    expect(held.has('sweep')).toBe(true);
    const otherTab = new SweepController({ ...deps, run: new FakeRuns(new MemoryRunStore()) });
    otherTab.restore();
    await until(() => otherTab.error !== null, 'the refusal');
    expect(otherTab.error).toMatch(/^Another tab is running this sweep/);
  });

  it('cancel aborts the run under way and marks the cells not run as cancelled', async () => {
    const { sweep, runs } = setup(() => 'hold');
    await sweep.start(FORM);
    await until(() => runs.status === 'running', 'the first cell to run');
    sweep.cancel();
    await until(() => sweep.plan!.status === 'cancelled', 'the cancel');
    expect(runs.status).toBe('aborted');
    expect(statuses(sweep)).toEqual(['cancelled', 'cancelled', 'cancelled', 'cancelled']);
    expect(runs.started).toEqual(['reward-blend_seed-1']);
    sweep.dismiss();
    expect(sweep.plan).toBeNull();
  });

  it('marks a cell that fails with its reason, runs the others, and runs the failed one again on continue', async () => {
    let failing = true;
    const { sweep, runs } = setup((name) => (failing && name === 'reward-blend_seed-2' ? 'fail' : 'complete'));
    await sweep.start(FORM);
    await until(() => sweep.plan!.status === 'finished', 'the sweep to finish');
    expect(statuses(sweep)).toEqual(['completed', 'failed', 'completed', 'completed']);
    expect(sweep.plan!.cells[1]!.error).toBe('the model is not loaded');
    failing = false;
    sweep.continue();
    await until(() => sweep.plan!.status === 'finished' && !sweep.driving, 'the failed cell to run again');
    expect(statuses(sweep)).toEqual(['completed', 'completed', 'completed', 'completed']);
    expect(runs.started.filter((n) => n === 'reward-blend_seed-2')).toHaveLength(2);
  });

  it('a run aborted from the Live run view fails its cell with a way on', async () => {
    const { sweep, runs } = setup((name) => (name === 'reward-blend_seed-1' ? 'hold' : 'complete'));
    await sweep.start({ ...FORM, seeds: '1' });
    await until(() => runs.status === 'running', 'the first cell to run');
    runs.abort();
    await until(() => sweep.plan!.status === 'finished', 'the sweep to finish');
    expect(sweep.plan!.cells.map((c) => [c.status, c.error])).toEqual([
      ['failed', 'The run stopped (aborted) before its last epoch; continue the sweep to run it on.'],
      ['completed', null],
    ]);
  });
});
