import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { compareRuns } from '../../src/analysis/compare-runs.ts';
import { comparableModelId } from '../../src/adapters/llm/scripted/bundled-scripts.ts';
import { DEFAULT_TEMPLATES } from '../../src/core/prompts/templates.ts';
import { evaluation, meta, metrics, run } from './compared-runs.ts';

describe('compareRuns', () => {
  it('lists only the settings that differ, nested ones flattened, in run order', () => {
    const a = meta({ reward: 'blend', agent: { ...DEFAULT_CONFIG.agent, temperature: 0.2 } });
    const b = meta({ reward: 'regret' });
    expect(compareRuns([run('a', a), run('b', b)]).differences).toEqual([
      { key: 'reward', values: ['blend', 'regret'] },
      { key: 'agent.temperature', values: [0.2, 0.6] },
    ]);
  });

  it('names each model as told, so two ids of one model are no difference', () => {
    const [tab, cli] = [
      meta({}, { modelId: 'scripted:spade-lab-demo' }),
      meta({}, { modelId: 'scripted:demo-script.json' }),
    ];
    expect(compareRuns([run('a', tab), run('b', cli)]).differences).toEqual([
      { key: 'model', values: ['scripted:spade-lab-demo', 'scripted:demo-script.json'] },
    ]);
    expect(compareRuns([run('a', tab), run('b', cli)], comparableModelId).differences).toEqual([]);
  });

  it('says nothing differs for identical runs', () => {
    expect(compareRuns([run('a', meta()), run('b', meta())]).differences).toEqual([]);
  });

  it('compares the model, the fixed pool, the held-out suite and skill lists', () => {
    const a = meta(
      { skills: ['Logical Deduction', 'Planning'] },
      { evalSuite: { name: 'builtin', sha256: '0123456789abcdef' } },
    );
    const b = meta(
      {},
      { modelId: 'openai:http://x/v1#m', fixedPool: { name: 'pool', sha256: 'fedcba9876543210', environments: [] } },
    );
    const keys = Object.fromEntries(compareRuns([run('a', a), run('b', b)]).differences.map((d) => [d.key, d.values]));
    expect(keys.model).toEqual(['scripted:a.json', 'openai:http://x/v1#m']);
    expect(keys.fixedPool).toEqual([null, 'pool (fedcba987654)']);
    expect(keys.evalSuite).toEqual(['builtin (0123456789ab)', null]);
    expect(keys.skills).toEqual(['Logical Deduction, Planning', DEFAULT_CONFIG.skills.join(', ')]);
  });

  it('compares prompts by equality and never shows their text', () => {
    const custom = (agent: string) => meta({ prompts: { ...DEFAULT_TEMPLATES, agent } });
    const result = compareRuns([
      run('a', meta()),
      run('b', custom('X {observation}')),
      run('c', custom('Y {observation}')),
      run('d', custom('X {observation}')),
    ]);
    expect(result.differences).toEqual([
      { key: 'prompts.agent', values: ['default', 'custom 1', 'custom 2', 'custom 1'] },
    ]);
  });

  it("takes the last epoch's means and the last held-out evaluation, or none", () => {
    const result = compareRuns([
      run('a', meta(), [metrics(1, 0.75), metrics(0, 0.5)], [evaluation(0, 0.2), evaluation(2, 0.4)]),
      run('b', meta({}, { epochsCompleted: 0 })),
    ]);
    expect(result.runs[0]).toEqual({
      label: 'a',
      epochs: 2,
      winRate: 0.75,
      regret: 1.25,
      validity: 0.6,
      designerReward: 0.125,
      heldOut: { suite: 'tiny', winRate: 0.4, ci95: [0.1, 0.9], afterEpochs: 2, playbook: false },
    });
    expect(result.runs[1]).toEqual({
      label: 'b',
      epochs: 0,
      winRate: null,
      regret: null,
      validity: null,
      designerReward: null,
      heldOut: null,
    });
  });

  it('gives no figure for an epoch with no valid environment, nor validity to a fixed pool that makes no design attempt', () => {
    const empty = {
      ...metrics(1, 0),
      validEnvironments: 0,
      episodes: 0,
      validityRate: 0,
      meanRegret: 0,
      meanWinRate: 0,
      meanDesignerReward: 0,
    };
    const pooled = { ...metrics(1, 0.5), attempts: 0, validityRate: 0 };
    const [designed, fixed] = compareRuns([
      run('a', meta(), [metrics(0, 0.5), empty]),
      run('b', meta(), [pooled]),
    ]).runs;
    expect(designed).toMatchObject({ winRate: null, regret: null, validity: 0, designerReward: null });
    expect(fixed).toMatchObject({ winRate: 0.5, regret: 1.25, validity: null, designerReward: 0.125 });
  });

  it('fills settings a stored config lacks as completeConfig does, so they do not differ', () => {
    const { usePlaybook: _p, evalEvery: _e, ...old } = DEFAULT_CONFIG;
    expect(compareRuns([run('a', meta()), run('b', { ...meta(), config: old as Config })]).differences).toEqual([]);
  });
});
