// `spade verify` follows the same rules as the scoring for quarantine, r_nohint's rollout, learning
// potential without plays and the memory (docs/method.md section 2), computed independently.
import { describe, expect, it } from 'vitest';
import { scoreEpoch } from '../../src/core/scoring/score-epoch.ts';
import { rememberEnvironments } from '../../src/core/loop/memory.ts';
import type { Config } from '../../src/core/config.ts';
import type { EnvironmentRecord } from '../../src/core/records.ts';
import { recomputeRun, type StoredRun } from '../../src/verify/recompute-run.ts';
import { designedEnv, EDGE_CONFIG, playsOf } from '../fixtures/scored-epoch.ts';

const ENVS = [designedEnv('A', 0), designedEnv('B', 1), designedEnv('Q', 2), designedEnv('E', 3), designedEnv('H', 4)];
const PLAYS = [
  ...playsOf(
    'A',
    [
      ['crash', 'crash'],
      [1, 0],
      [1, 1],
    ],
    [1, 1],
  ),
  ...playsOf(
    'B',
    [
      [1, 0],
      [0, 0],
      [1, 1],
    ],
    [1, 0],
  ),
  ...playsOf(
    'Q',
    [
      ['crash', 'crash'],
      ['crash', 1],
      [1, 1],
    ],
    [1, 1],
  ),
  // H hangs in the last rollout: 2 of 6 dropped, so it stays scored, hung.
  ...playsOf(
    'H',
    [
      [1, 0],
      [1, 1],
      ['hang', 'hang'],
    ],
    [1, 1],
  ),
];

function storedRun(config: Config): StoredRun {
  const scores = scoreEpoch(0, ENVS, PLAYS, config, {});
  return {
    config: { reward: config.reward, rolloutsPerEpoch: config.rolloutsPerEpoch, playsPerArm: config.playsPerArm },
    environments: scores.environments,
    episodes: scores.episodes,
    rollouts: scores.rollouts,
    epochs: [scores.metrics],
    state: { memory: rememberEnvironments([], scores.memoryRecords), skillAverages: scores.skillAverages },
    evaluations: [],
  };
}

describe('spade verify on the scoring edge cases', () => {
  it.each(['blend', 'regret', 'solve_rate', 'learning_potential'] as const)(
    'agrees with every number the %s scoring wrote',
    (reward) => {
      const report = recomputeRun(storedRun({ ...EDGE_CONFIG, reward }));
      expect(report.mismatches).toEqual([]);
      expect(report.checked).toBeGreaterThan(100);
    },
  );

  it('agrees on a hang that leaves its environment scored: -0.5 under the regret reward', () => {
    const run = storedRun({ ...EDGE_CONFIG, reward: 'regret' });
    expect(run.environments.find((e) => e.id === 'H')!.stats).toMatchObject({ hung: true, designerReward: -0.5 });
    const forged = run.environments.map((e) =>
      e.id === 'H' ? { ...e, stats: { ...e.stats!, designerReward: 0 } } : e,
    );
    expect(recomputeRun({ ...run, environments: forged }).mismatches.map((m) => [m.id, m.field, m.recomputed])).toEqual(
      [['H', 'stats.designerReward', -0.5]],
    );
  });

  it('reports a quarantined environment scored the old way: stats, a designer row and a memory record', () => {
    const run = storedRun(EDGE_CONFIG);
    const b = run.environments.find((e) => e.id === 'B')!;
    const forged: EnvironmentRecord[] = run.environments.map((e) =>
      e.id === 'Q' ? { ...e, stats: { ...b.stats!, rNoHint: 0, regret: 1, designerReward: 1 } } : e,
    );
    const row = { ...run.rollouts.find((r) => r.envId === 'B' && r.role === 'designer')!, envId: 'Q' };
    const memory = [...run.state!.memory, { envId: 'Q', skill: b.skill, code: 'x', winRate: 0, regret: 1, epoch: 0 }];
    const report = recomputeRun({
      ...run,
      environments: forged,
      rollouts: [...run.rollouts, row],
      state: { ...run.state!, memory },
    });
    const found = report.mismatches.map((m) => `${m.file} ${m.id} ${m.field}`);
    expect(found).toEqual(
      expect.arrayContaining([
        'environments.jsonl Q stats present',
        'rollouts.jsonl designer/Q count',
        'state.json memory length',
      ]),
    );
  });

  it('reports an r_nohint of 0 for an environment whose rollout 0 lost every play, and |0 - mu_slow| under learning potential', () => {
    const blend = storedRun(EDGE_CONFIG);
    const zeroed = blend.environments.map((e) =>
      e.id === 'A' ? { ...e, stats: { ...e.stats!, rNoHint: 0, regret: 1 } } : e,
    );
    expect(
      recomputeRun({ ...blend, environments: zeroed }).mismatches.map((m) => [m.id, m.field, m.recomputed]),
    ).toEqual([
      ['A', 'stats.rNoHint', 0.5],
      ['A', 'stats.regret', 0.5],
    ]);
    const lp = storedRun({ ...EDGE_CONFIG, reward: 'learning_potential' });
    const slow = lp.state!.skillAverages[ENVS[0]!.skill]!.slow;
    const forged = lp.environments.map((e) =>
      e.id === 'E' ? { ...e, stats: { ...e.stats!, designerReward: slow } } : e,
    );
    expect(recomputeRun({ ...lp, environments: forged }).mismatches.map((m) => [m.id, m.field, m.recomputed])).toEqual([
      ['E', 'stats.designerReward', 0],
    ]);
  });
});
