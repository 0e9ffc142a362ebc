import { describe, expect, it } from 'vitest';
import {
  commandModel,
  FIRST_SWEEP_FORM,
  localSweepStorage,
  parsePlan,
  parseSeeds,
  previewSweep,
  sweepProgress,
  type SweepForm,
} from '../../src/app/compare/sweep-plan.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import { DEMO, FORM, mapStorage } from '../fixtures/sweep-form.ts';

describe('previewSweep', () => {
  it('makes one run per cell over the tab defaults with the shared settings, and the CLI lines', () => {
    const preview = previewSweep(FORM, DEMO);
    if ('error' in preview) throw new Error(preview.error);
    expect(preview.cells.map((c) => c.name)).toEqual([
      'reward-blend_seed-1',
      'reward-blend_seed-2',
      'reward-regret_seed-1',
      'reward-regret_seed-2',
    ]);
    expect(preview.cells[3]!.config).toEqual({
      ...DEFAULT_CONFIG,
      reward: 'regret',
      seed: 2,
      slotsPerEpoch: 1,
      playsPerArm: 2,
      hintPlays: 2,
    });
    expect(preview.commands[0]).toBe(
      'npm run --silent spade -- run --model scripted:public/demo/demo-script.json --epochs 1 --out runs/sweep/reward-blend_seed-1 --seed 1 --slots 1 --plays 2 --reward blend',
    );
    expect(preview.commandNote).toBeNull();
  });

  it('keeps a shared hint-plays over a swept plays, as spade run keeps an explicit --hint-plays', () => {
    const preview = previewSweep({ ...FORM, grid: 'plays=2,6', seeds: '1', shared: 'hint-plays=3' }, DEMO);
    if ('error' in preview) throw new Error(preview.error);
    expect(preview.cells.map((c) => [c.config.playsPerArm, c.config.hintPlays])).toEqual([
      [2, 3],
      [6, 3],
    ]);
  });

  it('shows what is wrong with the grid, the seeds, the shared settings or the epochs', () => {
    const error = (form: Partial<SweepForm>) => (previewSweep({ ...FORM, ...form }, DEMO) as { error: string }).error;
    expect(error({ grid: 'colour=red' })).toMatch(/^unknown grid key "colour"/);
    expect(error({ grid: 'reward=blend,best' })).toMatch(/^reward=best: expected one of blend, regret, solve_rate/);
    expect(error({ seeds: '1,x' })).toBe('expected seeds that are non-negative integers separated by commas, saw "x"');
    expect(error({ seeds: ' ' })).toBe('expected at least one seed, e.g. 1,2,3');
    expect(error({ seeds: '1,1' })).toBe('a seed is repeated in 1,1');
    expect(error({ shared: 'slots=1,2' })).toBe(
      'shared settings take one value each; slots has 2 (sweep it in the grid instead)',
    );
    expect(error({ shared: 'reward=solve_rate' })).toBe(
      'reward is both in the grid and in the shared settings; keep it in one',
    );
    expect(error({ epochs: 0 })).toBe('expected a whole number of epochs of at least 1, saw 0');
  });

  it('says before the scripted demo runs that it ignores the swept reward and memory; says nothing for its playbook or a real model', () => {
    const note = (form: Partial<SweepForm>) => {
      const preview = previewSweep({ ...FORM, ...form }, DEMO);
      if ('error' in preview) throw new Error(preview.error);
      return preview.demoNote;
    };
    expect(note({ grid: 'reward=blend,regret;memory=on,off' })).toBe(
      "The scripted demo's replies ignore reward (the reward variant) and memory (environment memory): every cell of this grid gives the same environments and scores for a seed: only the seeds tell the runs apart. It responds to its playbook (try playbook=off,on with eval-every=1); a real model responds to them all.",
    );
    expect(note({ grid: 'reward=blend,regret;playbook=on,off' })).toMatch(
      /^The scripted demo's replies ignore reward \(the reward variant\): cells that differ only in them give the same environments and scores\./,
    );
    expect(note({ grid: 'playbook=on,off' })).toBeNull();
    expect(note({ grid: 'memory=on,off', modelId: 'webllm:Qwen3', modelLabel: 'Qwen3' })).toBeNull();
  });

  it('starts from a grid the demo responds to: its playbook off and on over two seeds, evaluated every epoch', () => {
    const preview = previewSweep({ ...FIRST_SWEEP_FORM, modelId: DEMO, modelLabel: 'the demo' }, DEMO);
    if ('error' in preview) throw new Error(preview.error);
    expect(preview.demoNote).toBeNull();
    expect(preview.cells.map((c) => [c.name, c.config.usePlaybook, c.config.evalEvery])).toEqual([
      ['playbook-off_seed-1', false, 1],
      ['playbook-off_seed-2', false, 1],
      ['playbook-on_seed-1', true, 1],
      ['playbook-on_seed-2', true, 1],
    ]);
  });

  it('names the demo script or a server for the command line, and says when a tab model cannot run there', () => {
    expect(commandModel('openai:http://h/v1#m', DEMO)).toBe('openai:http://h/v1#m');
    expect(commandModel('webllm:Qwen3', DEMO)).toBeNull();
    const preview = previewSweep({ ...FORM, modelId: 'webllm:Qwen3', modelLabel: 'Qwen3' }, DEMO);
    expect('error' in preview ? null : [preview.commandNote, preview.commands[0]]).toEqual([
      'The command line cannot run Qwen3 (a model loaded in this tab); the commands name an OpenAI-compatible server instead: edit --model.',
      expect.stringContaining('--model openai:http://127.0.0.1:8080/v1#MODEL '),
    ]);
    expect(parseSeeds('3, 1 ,2')).toEqual([3, 1, 2]);
  });
});

describe('the stored plan', () => {
  it('round-trips through the storage and drops anything that is not a plan', () => {
    const storage = mapStorage();
    const plans = localSweepStorage(() => storage);
    const plan = {
      form: FORM,
      status: 'running' as const,
      cells: [{ name: 'a', runId: 'r1', status: 'pending' as const, error: null }],
      createdAt: 1,
    };
    plans.save(plan);
    expect(plans.load()).toEqual(plan);
    expect(sweepProgress(plan)).toEqual({ done: 0, failed: 0, total: 1, current: null });
    storage.setItem('spade-lab-sweep', '{"form":{},"cells":[]}');
    expect(plans.load()).toBeNull();
    expect(parsePlan('not json')).toBeNull();
    plans.clear();
    expect(storage.map.size).toBe(0);
    const denied = localSweepStorage(() => {
      throw new Error('denied');
    });
    expect(denied.load()).toBeNull();
    expect(() => denied.save(plan)).not.toThrow();
  });
});
