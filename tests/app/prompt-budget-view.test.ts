import { describe, expect, it } from 'vitest';
import { budgetRows, latestBudget } from '../../src/app/run/prompt-budget-view.ts';
import { applyEvent, createLiveEpoch } from '../../src/app/run/live-epoch.ts';
import type { EpochMetrics } from '../../src/core/records.ts';

const budget = (promptTokens: number, maxTokens: number, trimLevel = 0) => ({
  promptTokens,
  window: 4096,
  maxTokens,
  trimLevel,
});

describe('the prompt-size rows of the live and Learn views', () => {
  it('gathers the live epoch\u2019s fitted requests per role: the largest prompt, the smallest reply room, how many were trimmed', () => {
    const live = createLiveEpoch(0, [{ slot: 0, skill: 'Optimization' }]);
    expect(budgetRows(live.budget)).toEqual([]);
    applyEvent(live, { type: 'prompt_fitted', epoch: 0, purpose: 'agent', budget: budget(150, 1024) });
    applyEvent(live, { type: 'prompt_fitted', epoch: 0, purpose: 'designer', budget: budget(2461, 1635) });
    applyEvent(live, { type: 'prompt_fitted', epoch: 0, purpose: 'agent', budget: budget(1163, 1024, 2) });
    applyEvent(live, { type: 'prompt_fitted', epoch: 0, purpose: 'designer', budget: budget(1380, 2716) });
    expect(budgetRows(live.budget)).toEqual([
      {
        role: 'designer',
        name: 'Designer',
        tokens: '2,461 / 4,096',
        share: 2461 / 4096,
        detail: '2 requests, at least 1,635 tokens left for each reply, none trimmed',
      },
      {
        role: 'agent',
        name: 'Agent turn',
        tokens: '1,163 / 4,096',
        share: 1163 / 4096,
        detail: '2 requests, at least 1,024 tokens left for each reply, 1 of 2 trimmed',
      },
    ]);
  });

  it('explains the latest committed epoch that measured its prompts, and nothing for a model without a window', () => {
    const metrics = (epoch: number, promptBudget?: EpochMetrics['promptBudget']) =>
      ({ epoch, ...(promptBudget ? { promptBudget } : {}) }) as EpochMetrics;
    const hint = { requests: 1, trimmed: 0, maxPromptTokens: 901, minMaxTokens: 256, window: 8192 };
    expect(latestBudget([metrics(0), metrics(1)])).toBeNull();
    expect(
      latestBudget([metrics(0, { hint }), metrics(1, { hint: { ...hint, maxPromptTokens: 950 } }), metrics(2)]),
    ).toEqual({ epoch: 1, summary: { hint: { ...hint, maxPromptTokens: 950 } } });
    expect(budgetRows(latestBudget([metrics(0, { hint })])!.summary)[0]!.tokens).toBe('901 / 8,192');
  });
});
