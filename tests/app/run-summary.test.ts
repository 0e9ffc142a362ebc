import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import {
  heldOutLine,
  lastEpochLine,
  settingsLine,
  summarizeRun,
  summarizeRuns,
} from '../../src/app/library/run-summary.ts';
import { evaluation, meta, metrics } from '../analysis/compared-runs.ts';
import { commitSyntheticEpochs, syntheticMeta } from './compare-fixtures.ts';

describe('run summaries', () => {
  it("shows a designed run's key settings, last held-out evaluation and last epoch", () => {
    const summary = summarizeRun(
      meta({ reward: 'regret', useMemory: false, seed: 3, playsPerArm: 6 }),
      [metrics(1, 0.75), metrics(0, 0.5)],
      [evaluation(0, 0.2), evaluation(2, 0.4)],
    );
    expect(settingsLine(summary)).toBe(
      'reward regret · memory off · corpus on · playbook off · seed 3 · K 6 · designer',
    );
    expect(heldOutLine(summary)).toBe('held-out 0.40 (95% 0.10 to 0.90) after 2 epochs');
    expect(lastEpochLine(summary)).toBe('last epoch 2: win rate 0.75, regret 1.25');
  });

  it('names a fixed pool, and says when nothing is evaluated or committed yet', () => {
    const summary = summarizeRun(
      meta({ usePlaybook: true }, { fixedPool: { name: 'starter', sha256: 'ab', environments: [] } }),
      [],
      [],
    );
    expect(settingsLine(summary)).toBe(
      'reward blend · memory on · corpus on · playbook on · seed 1 · K 4 · fixed pool starter',
    );
    expect(heldOutLine(summary)).toBe('not evaluated');
    expect(lastEpochLine(summary)).toBe('no epoch yet');
    expect(heldOutLine(summarizeRun(meta(), [], [evaluation(0, 0.25)]))).toBe(
      'held-out 0.25 (95% 0.10 to 0.90) before training',
    );
    expect(heldOutLine(summarizeRun(meta(), [], [evaluation(1, 0.25)]))).toBe(
      'held-out 0.25 (95% 0.10 to 0.90) after 1 epoch',
    );
  });

  it('says "no data" for a last epoch that scored no environment, not 0.00', () => {
    const empty = { ...metrics(2, 0), validEnvironments: 0, episodes: 0, meanRegret: 0, meanWinRate: 0 };
    const summary = summarizeRun(meta(), [metrics(1, 0.75), empty], []);
    expect(summary.lastEpoch).toEqual({ epoch: 3, winRate: null, regret: null });
    expect(lastEpochLine(summary)).toBe('last epoch 3: no data (no environment scored)');
  });

  it('reads every listed run from the store, leaving out one that cannot be read', async () => {
    const store = new MemoryRunStore();
    await store.createRun(syntheticMeta('a', { seed: 9 }, 5));
    await commitSyntheticEpochs(store, 'a', 0, 5, 5);
    const runs = await store.listRuns();
    const broken = {
      ...store,
      metricsOf: async (id: string) => (id === 'b' ? Promise.reject(new Error('closed')) : store.metricsOf(id)),
      evaluationsOf: (id: string) => store.evaluationsOf(id),
    };
    const summaries = await summarizeRuns(broken, [...runs, syntheticMeta('b')]);
    expect(Object.keys(summaries)).toEqual(['a']);
    expect(summaries.a!.seed).toBe(9);
    expect(summaries.a!.heldOut!.afterEpochs).toBe(5);
    expect(summaries.a!.lastEpoch!.epoch).toBe(5);
  });
});
