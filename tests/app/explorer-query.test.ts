import { describe, expect, it } from 'vitest';
import { environmentClassName, summarizeEnvironment } from '../../src/analysis/env-summary.ts';
import {
  ariaSort,
  DEFAULT_EXPLORER_SETTINGS,
  formatScore,
  rejectionReason,
  toExplorerRow,
  toggleSort,
  toQuery,
  type ExplorerSettings,
} from '../../src/app/explorer/explorer-query.ts';
import type { EnvironmentRecord } from '../../src/core/records.ts';
import { explorerEnv } from './explorer-fixtures.ts';

describe('explorer settings', () => {
  it('turn into store queries: filters only when set, the window when given', () => {
    expect(toQuery(DEFAULT_EXPLORER_SETTINGS)).toEqual({ sortBy: 'epoch', descending: false });
    const settings: ExplorerSettings = {
      skill: 'Optimization',
      status: 'rejected',
      setting: null,
      domain: null,
      epoch: 0,
      sortBy: 'regret',
      descending: true,
    };
    expect(toQuery(settings, { offset: 100, limit: 50 })).toEqual({
      skill: 'Optimization',
      status: 'rejected',
      epoch: 0,
      sortBy: 'regret',
      descending: true,
      offset: 100,
      limit: 50,
    });
    const tools: ExplorerSettings = {
      ...DEFAULT_EXPLORER_SETTINGS,
      setting: 'tool_use',
      domain: 'a smart home: lights, thermostat, locks and scenes',
    };
    expect(toQuery(tools)).toEqual({
      setting: 'tool_use',
      domain: 'a smart home: lights, thermostat, locks and scenes',
      sortBy: 'epoch',
      descending: false,
    });
  });

  it('sort toggles: the same column flips, a new score column starts descending, epoch ascending', () => {
    const byRegret = toggleSort(DEFAULT_EXPLORER_SETTINGS, 'regret');
    expect(byRegret).toMatchObject({ sortBy: 'regret', descending: true });
    expect(toggleSort(byRegret, 'regret')).toMatchObject({ sortBy: 'regret', descending: false });
    expect(toggleSort(byRegret, 'epoch')).toMatchObject({ sortBy: 'epoch', descending: false });
    expect(toggleSort({ ...byRegret, skill: 'Optimization' }, 'winRate')).toMatchObject({
      skill: 'Optimization',
      sortBy: 'winRate',
      descending: true,
    });
  });

  it('aria-sort names the sorted column and its direction only', () => {
    const s = toggleSort(DEFAULT_EXPLORER_SETTINGS, 'designerReward');
    expect(ariaSort(s, 'designerReward')).toBe('descending');
    expect(ariaSort(s, 'regret')).toBe('none');
    expect(ariaSort(DEFAULT_EXPLORER_SETTINGS, 'epoch')).toBe('ascending');
  });
});

describe('explorer rows', () => {
  it('a valid, scored environment shows its scores and whether memory holds it', () => {
    const env = explorerEnv(3, 1, { regret: 0.25, winRate: 0.5, designerReward: 0.7 });
    expect(toExplorerRow(summarizeEnvironment(env), new Set([env.id]))).toEqual({
      id: 'e0003-s01',
      epoch: 3,
      slot: 1,
      skill: env.skill,
      className: 'XEnv',
      setting: 'games',
      domain: null,
      status: 'valid',
      scored: true,
      winRate: 0.5,
      regret: 0.25,
      designerReward: 0.7,
      inMemory: true,
      reason: null,
    });
    expect(toExplorerRow(summarizeEnvironment(env), new Set()).inMemory).toBe(false);
  });

  it("a rejected environment shows the last attempt's stage, code and message", () => {
    const env: EnvironmentRecord = explorerEnv(0, 2, null);
    expect(rejectionReason(env)).toBe(
      'probe/step_bad_return: Expected step() to return a 5-tuple. Saw a tuple of 3 items. Fix: return all five.',
    );
    expect(toExplorerRow(summarizeEnvironment(env), new Set())).toMatchObject({
      status: 'rejected',
      winRate: null,
      regret: null,
      designerReward: null,
    });
    expect(rejectionReason({ ...env, attempts: [] })).toBe('no design attempt was recorded');
  });

  it("names each environment's class: the validated one, else the first *Env class of its code", () => {
    const env = explorerEnv(0, 0, { regret: 0, winRate: 0, designerReward: 0 });
    expect(summarizeEnvironment(env).className).toBe('XEnv');
    const pooled = {
      ...env,
      attempts: [],
      code: 'class Env:\n    pass\n\n\nclass ToolUseBaseEnv(Env):\n    pass\n\n\nclass LanternRelayEnv(ToolUseBaseEnv):\n    pass\n',
    };
    expect(environmentClassName(pooled)).toBe('LanternRelayEnv');
    expect(environmentClassName({ ...pooled, code: 'print("no class here")' })).toBeNull();
  });

  it('non-finite or missing scores read as absent', () => {
    const env = explorerEnv(1, 0, { regret: Number.NaN, winRate: 0.5, designerReward: 0.1 });
    expect(toExplorerRow(summarizeEnvironment(env), new Set())).toMatchObject({
      regret: null,
      winRate: 0.5,
      scored: false,
    });
    expect(formatScore(null)).toBe('–');
    expect(formatScore(0.12345, 3)).toBe('0.123');
  });
});
