// Scoring edge cases (issue 30 item 6, issue 32 item 7), each value worked out by hand from the
// hand-built plays below. K = 2, R = 3: 6 planned unhinted plays, quarantine at 3 dropped.
import { describe, expect, it } from 'vitest';
import { scoreEpoch } from '../../../src/core/scoring/score-epoch.ts';
import type { Config } from '../../../src/core/config.ts';
import type { EnvironmentRecord, Episode } from '../../../src/core/records.ts';
import { designedEnv, EDGE_CONFIG, playsOf, SKILL } from '../../fixtures/scored-epoch.ts';

// A: rollout 0 lost both plays (2 dropped, not quarantined); rollout 1 [1, 0], rollout 2 [1, 1]; hinted [1, 1].
// B: rollout 0 [1, 0], rollout 1 [0, 0], rollout 2 [1, 1]; hinted [1, 1].
// Q: 3 of 6 dropped (quarantined); its kept plays [1], [1, 1] and hinted [1, 1] would score it well.
const ENVS = [designedEnv('A', 0), designedEnv('B', 1), designedEnv('Q', 2)];
const PLAYS: Episode[] = [
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
    [1, 1],
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
];

const score = (config: Config, envs: EnvironmentRecord[] = ENVS, plays: Episode[] = PLAYS) =>
  scoreEpoch(0, envs, plays, config, {});
const envOf = (scores: ReturnType<typeof score>, id: string) => scores.environments.find((e) => e.id === id)!;

describe('a quarantined environment counts nowhere', () => {
  const scores = score(EDGE_CONFIG);

  it('gets no stats, reward or rows, and says why', () => {
    const q = envOf(scores, 'Q');
    expect(q.status).toBe('quarantined');
    expect(q.stats).toBeNull();
    expect(q.note).toMatch(/^Quarantined: 3 of its 6 unhinted plays failed/);
    expect(scores.rollouts.filter((row) => row.envId === 'Q')).toEqual([]);
    expect(scores.episodes.filter((e) => e.envId === 'Q').map((e) => e.advantage)).toEqual(Array(8).fill(0));
  });

  it('is left out of the epoch means, the valid count, the skill averages, the designer groups and scale, and the memory', () => {
    // A: w = 3/4; B: w = 3/6. Skill mean over A and B's 10 kept plays = 6/10 (with Q's three 1s it would be 9/13).
    expect(scores.skillAverages).toEqual({ [SKILL]: { fast: 0.6, slow: 0.6 } });
    expect(scores.metrics).toMatchObject({ validEnvironments: 2, quarantined: 1 });
    // A: regret = 1 - 0.5 = 0.5, blend = 0.4 * 1 + 0.6 * plateau(0.75) = 0.4 + 0.6 * 0.4 = 0.64.
    // B: regret = 1 - 0.5 = 0.5, blend = 0.4 + 0.6 * plateau(0.5) = 1.
    expect(scores.metrics.meanRegret).toBeCloseTo(0.5, 12);
    expect(scores.metrics.meanWinRate).toBeCloseTo(0.625, 12);
    expect(scores.metrics.meanDesignerReward).toBeCloseTo(0.82, 12);
    // Scale = N_agent / N_designer * R = (0 + 2) / 2 * 3 = 3; advantages (0.64 - 0.82) * 3 and (1 - 0.82) * 3.
    expect(scores.metrics.designerScale).toBe(3);
    expect(envOf(scores, 'A').stats!.designerAdvantage).toBeCloseTo(-0.54, 12);
    expect(envOf(scores, 'B').stats!.designerAdvantage).toBeCloseTo(0.54, 12);
    expect(envOf(scores, 'A').stats!.designerGroupSize).toBe(2);
    expect(scores.rollouts.filter((row) => row.role === 'designer').map((row) => row.envId)).toEqual(['A', 'B']);
    expect(scores.rollouts.filter((row) => row.role === 'agent')).toHaveLength(10);
    expect(scores.memoryRecords.map((r) => r.envId)).toEqual(['B']);
  });
});

describe('an environment whose rollout 0 kept no unhinted play', () => {
  it('measures r_nohint, the matched regret and the memory win rate on the first rollout that kept plays', () => {
    const a = envOf(score(EDGE_CONFIG), 'A').stats!;
    // Rollout 1 kept [1, 0]: r_nohint = 0.5 (not 0), regret = 1 - 0.5 = 0.5 (not 1).
    expect(a).toMatchObject({ rNoHint: 0.5, rHint: 1, regret: 0.5, winRate: 0.75, fractionWon: 0.5, droppedPlays: 2 });
    expect(a.designerReward).toBeCloseTo(0.64, 12);
  });

  it('is not remembered: the memory keeps rollout 0 only, and rollout 0 has nothing to say', () => {
    expect(score(EDGE_CONFIG).memoryRecords.find((r) => r.envId === 'A')).toBeUndefined();
  });
});

describe('learning potential', () => {
  it('gives 0 to an environment without a kept unhinted play, not |0 - mu_slow|', () => {
    // E was never played (0 dropped, not quarantined). mu_slow = 0.6 from A and B.
    const scores = score({ ...EDGE_CONFIG, reward: 'learning_potential' }, [...ENVS, designedEnv('E', 3)]);
    expect(envOf(scores, 'E').stats!.designerReward).toBe(0);
    // A: |0.75 - 0.6| = 0.15; B: |0.5 - 0.6| = 0.1; mean (0.15 + 0.1 + 0) / 3; scale = 2 / 3 * 3 = 2.
    expect(envOf(scores, 'A').stats!.designerReward).toBeCloseTo(0.15, 12);
    expect(envOf(scores, 'B').stats!.designerReward).toBeCloseTo(0.1, 12);
    expect(envOf(scores, 'E').stats!.designerAdvantage).toBeCloseTo(-0.5 / 3, 12);
  });

  it('stores regret 0 in the memory, as the reference does for this variant; blend stores the matched regret', () => {
    expect(score({ ...EDGE_CONFIG, reward: 'learning_potential' }).memoryRecords).toEqual([
      expect.objectContaining({ envId: 'B', winRate: 0.5, regret: 0 }),
    ]);
    expect(score(EDGE_CONFIG).memoryRecords).toEqual([
      expect.objectContaining({ envId: 'B', winRate: 0.5, regret: 0.5 }),
    ]);
  });
});

describe('a hang late in the epoch', () => {
  it('leaves the environment scored (2 of 6 dropped) with the regret reward -0.5', () => {
    const plays = playsOf(
      'H',
      [
        [1, 0],
        [1, 1],
        ['hang', 'hang'],
      ],
      [1, 1],
    );
    const h = envOf(score({ ...EDGE_CONFIG, reward: 'regret' }, [designedEnv('H', 0)], plays), 'H');
    expect(h.status).toBe('valid');
    expect(h.stats).toMatchObject({ hung: true, droppedPlays: 2, designerReward: -0.5 });
  });
});
