// The sweep table's figures per grid cell (issue 33, item 3): the mean held-out win rate over the
// cell's seeds and its interval, read from the stored runs as the comparison groups them.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { loadComparison } from '../../src/app/compare/compare-data.ts';
import { loadSweepFigures, sweepFigureRows } from '../../src/app/compare/sweep-figures.ts';
import { previewSweep, type CellStatus, type SweepPlan } from '../../src/app/compare/sweep-plan.ts';
import { jeffreysInterval } from '../../src/core/eval/beta.ts';
import { summarizeEvaluation, type EvalPlay, type EvalRecord } from '../../src/core/eval/eval-record.ts';

const DEMO = 'scripted:spade-lab-demo';
const FORM = { grid: 'playbook=off,on', seeds: '1,2', epochs: 1, shared: '', modelId: DEMO, modelLabel: 'the demo' };
const ENVS = 6;

/** An evaluation of ENVS environments, one play each, all won or all lost. */
function evaluation(won: boolean): EvalRecord {
  const plays: EvalPlay[] = Array.from({ length: ENVS }, (_, i) => ({
    envId: `env${i}`,
    skill: 'Optimization',
    seed: 0,
    return: won ? 1 : 0,
    won,
    turns: 1,
    error: null,
  }));
  return {
    ...summarizeEvaluation(plays),
    epoch: 1,
    suite: 's',
    suiteSha256: 'suite',
    afterEpochs: 1,
    trigger: 'schedule',
    playbook: false,
    lessonsShown: 0,
    seedsPerEnvironment: 1,
    plays,
  };
}

/** The form's four runs stored, the given ones evaluated (playbook off loses everything, on wins everything), and the plan with the given statuses. */
async function storedSweep(
  evaluated: readonly number[],
  statuses: readonly CellStatus[],
  shared = 'eval-every=1',
): Promise<{ store: MemoryRunStore; plan: SweepPlan }> {
  const form = { ...FORM, shared };
  const preview = previewSweep(form, DEMO);
  if ('error' in preview) throw new Error(preview.error);
  const store = new MemoryRunStore();
  for (const [i, cell] of preview.cells.entries()) {
    await store.createRun({
      id: `r${i}`,
      name: cell.name,
      createdAt: i,
      updatedAt: 0,
      config: cell.config,
      modelId: DEMO,
      status: 'new',
      epochsCompleted: 0,
      epochsPlanned: 1,
      lastError: null,
    });
    if (evaluated.includes(i)) await store.addEvaluation(`r${i}`, evaluation(cell.config.usePlaybook));
  }
  const cells = preview.cells.map((cell, i) => ({
    name: cell.name,
    runId: `r${i}`,
    status: statuses[i]!,
    error: null,
  }));
  return { store, plan: { form, status: 'running', cells, createdAt: 0 } };
}

/** The table's rows for the plan as stored. */
async function figureRows(store: MemoryRunStore, plan: SweepPlan) {
  return sweepFigureRows(await loadSweepFigures(store, plan), plan);
}

describe('the sweep figures per cell', () => {
  it('averages each cell over its seeds with the interval over its plays summed over the seeds', async () => {
    const { store, plan } = await storedSweep([0, 1, 2, 3], ['completed', 'completed', 'completed', 'completed']);
    // Two seeds of six environments, every play lost (won): the bootstrap collapses, the Jeffreys floor over the six environments stays.
    const high = jeffreysInterval(0, ENVS)[1].toFixed(2);
    const low = jeffreysInterval(ENVS, ENVS)[0].toFixed(2);
    expect(await figureRows(store, plan)).toEqual([
      { cell: 'usePlaybook=off', seeds: '1, 2', completed: '2 of 2 runs completed', heldOut: `0.00 (0.00 to ${high})` },
      { cell: 'usePlaybook=on', seeds: '1, 2', completed: '2 of 2 runs completed', heldOut: `1.00 (${low} to 1.00)` },
    ]);
  });

  it('shows a partly finished sweep as it stands, with the same groups as the comparison of its runs', async () => {
    const { store, plan } = await storedSweep([0, 2], ['completed', 'running', 'completed', 'pending']);
    const rows = await figureRows(store, plan);
    expect(rows.map((r) => [r.cell, r.completed, r.heldOut])).toEqual([
      [
        'usePlaybook=off',
        '1 of 2 runs completed',
        '0.00 (no interval: the runs played different suites or were not all evaluated), 1 of 2 runs evaluated',
      ],
      [
        'usePlaybook=on',
        '1 of 2 runs completed',
        '1.00 (no interval: the runs played different suites or were not all evaluated), 1 of 2 runs evaluated',
      ],
    ]);
    const compared = await loadComparison(
      store,
      plan.cells.map((c) => c.runId),
    );
    expect(compared.comparison.seedGroups.map((g) => g.label)).toEqual(rows.map((r) => r.cell));
  });

  it('counts completed runs by the plan as it stands when shown, not as it stood when the figures were read', async () => {
    const { store, plan } = await storedSweep([0, 1, 2, 3], ['completed', 'completed', 'completed', 'running']);
    const read = await loadSweepFigures(store, plan);
    const finished: SweepPlan = {
      ...plan,
      status: 'finished',
      cells: plan.cells.map((c) => ({ ...c, status: 'completed' })),
    };
    expect(sweepFigureRows(read, plan).map((r) => r.completed)).toEqual([
      '2 of 2 runs completed',
      '1 of 2 runs completed',
    ]);
    expect(sweepFigureRows(read, finished).map((r) => r.completed)).toEqual([
      '2 of 2 runs completed',
      '2 of 2 runs completed',
    ]);
  });

  it('leaves out runs deleted since and says which cells are not evaluated yet', async () => {
    const { store, plan } = await storedSweep([], ['completed', 'completed', 'pending', 'pending']);
    await store.deleteRun('r3');
    expect(await figureRows(store, plan)).toEqual([
      { cell: 'usePlaybook=off', seeds: '1, 2', completed: '2 of 2 runs completed', heldOut: 'not evaluated' },
      { cell: 'usePlaybook=on', seeds: '1', completed: '0 of 1 run completed', heldOut: 'not evaluated' },
    ]);
  });

  it('says how to get figures when the runs schedule no held-out evaluation', async () => {
    const { store, plan } = await storedSweep([], ['completed', 'completed', 'completed', 'completed'], 'slots=1');
    expect((await figureRows(store, plan)).map((r) => r.heldOut)).toEqual(
      Array(2).fill('not evaluated (eval-every is 0: add eval-every=1 to the shared settings)'),
    );
  });
});
