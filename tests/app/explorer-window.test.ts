import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import {
  DEFAULT_EXPLORER_SETTINGS,
  toQuery,
  type ExplorerRow,
  type ExplorerSettings,
} from '../../src/app/explorer/explorer-query.ts';
import {
  ExplorerWindow,
  nextRowIndex,
  openExplorerSource,
  pagesOf,
  scrollToShow,
  visibleRange,
} from '../../src/app/explorer/explorer-window.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import { selectEnvironments } from '../../src/analysis/env-query.ts';
import type { EpochResult } from '../../src/core/loop/epoch.ts';
import type { EnvironmentRecord } from '../../src/core/records.ts';
import { explorerEnv } from './explorer-fixtures.ts';

describe('windowing arithmetic', () => {
  it('renders the rows in view plus the overscan, clipped to the total', () => {
    expect(visibleRange(0, 360, 36, 10_000, 5)).toEqual({ start: 0, end: 16 });
    expect(visibleRange(36 * 5000, 360, 36, 10_000, 5)).toEqual({ start: 4995, end: 5016 });
    expect(visibleRange(36 * 9995, 360, 36, 10_000, 5)).toEqual({ start: 9990, end: 10_000 });
    expect(visibleRange(-80, 360, 36, 3, 5)).toEqual({ start: 0, end: 3 });
    expect(visibleRange(0, 360, 36, 0)).toEqual({ start: 0, end: 0 });
  });

  it('maps a range to the pages that cover it', () => {
    expect(pagesOf({ start: 0, end: 16 }, 50)).toEqual([0]);
    expect(pagesOf({ start: 45, end: 105 }, 50)).toEqual([0, 1, 2]);
    expect(pagesOf({ start: 50, end: 100 }, 50)).toEqual([1]);
    expect(pagesOf({ start: 7, end: 7 }, 50)).toEqual([]);
  });

  it('moves between rows with arrow, page, home and end keys, clamped', () => {
    expect(nextRowIndex('ArrowDown', 4, 10, 3)).toBe(5);
    expect(nextRowIndex('ArrowUp', 0, 10, 3)).toBe(0);
    expect(nextRowIndex('PageDown', 8, 10, 3)).toBe(9);
    expect(nextRowIndex('PageUp', 4, 10, 3)).toBe(1);
    expect(nextRowIndex('End', 4, 10, 3)).toBe(9);
    expect(nextRowIndex('Home', 4, 10, 3)).toBe(0);
    expect(nextRowIndex('Enter', 4, 10, 3)).toBeNull();
  });

  it('scrolls just enough to show a row', () => {
    expect(scrollToShow(10, 36, 0, 360)).toBe(36);
    expect(scrollToShow(2, 36, 360, 360)).toBe(72);
    expect(scrollToShow(5, 36, 0, 360)).toBe(0);
  });
});

describe('ExplorerWindow', () => {
  const rowsOf = (offset: number, limit: number): ExplorerRow[] =>
    Array.from({ length: limit }, (_, i) => ({
      id: `r${offset + i}`,
      epoch: 0,
      slot: offset + i,
      skill: 's',
      className: null,
      setting: 'games',
      domain: null,
      status: 'valid',
      scored: false,
      winRate: null,
      regret: null,
      designerReward: null,
      inMemory: false,
      reason: null,
    }));

  it('fetches each page once, even when asked twice at the same time', async () => {
    const calls: Array<[number, number]> = [];
    let changes = 0;
    const win = new ExplorerWindow(
      async (offset, limit) => (calls.push([offset, limit]), rowsOf(offset, limit)),
      () => changes++,
      10,
    );
    await Promise.all([win.ensure({ start: 0, end: 15 }), win.ensure({ start: 5, end: 25 })]);
    expect(calls).toEqual([
      [0, 10],
      [10, 10],
      [20, 10],
    ]);
    expect(changes).toBe(3);
    expect(win.rowAt(17)?.id).toBe('r17');
    expect(win.rowAt(35)).toBeUndefined();
    await win.ensure({ start: 0, end: 30 });
    expect(calls).toHaveLength(3);
  });

  it('keeps at most maxPages, dropping the farthest from the requested range', async () => {
    const win = new ExplorerWindow(async (offset, limit) => rowsOf(offset, limit), undefined, 10, 3);
    for (const start of [0, 10, 20, 30, 40]) await win.ensure({ start, end: start + 10 });
    expect(win.cachedPages).toBe(3);
    expect(win.rowAt(0)).toBeUndefined();
    expect(win.rowAt(45)?.id).toBe('r45');
  });

  it('drops pages that arrive after close, and reports fetch errors', async () => {
    let release: () => void = () => undefined;
    const win = new ExplorerWindow(
      () => new Promise((resolve) => (release = () => resolve(rowsOf(0, 10)))),
      undefined,
      10,
    );
    const pending = win.ensure({ start: 0, end: 5 });
    win.close();
    release();
    await pending;
    expect(win.rowAt(0)).toBeUndefined();
    const failing = new ExplorerWindow(async () => Promise.reject(new Error('store closed')), undefined, 10);
    await failing.ensure({ start: 0, end: 5 });
    expect(failing.error).toBe('store closed');
  });
});

describe('openExplorerSource over a store', () => {
  const envs: EnvironmentRecord[] = [];
  for (let epoch = 0; epoch < 30; epoch++) {
    for (let slot = 0; slot < 4; slot++) {
      const n = epoch * 4 + slot;
      envs.push(
        explorerEnv(
          epoch,
          slot,
          n % 5 === 4
            ? null
            : { regret: ((n * 37) % 11) / 10 - 0.5, winRate: ((n * 13) % 7) / 7, designerReward: ((n * 7) % 9) / 9 },
        ),
      );
    }
  }

  async function seeded(): Promise<MemoryRunStore> {
    const store = new MemoryRunStore(() => 0);
    await store.createRun({
      id: 'r',
      name: 'r',
      createdAt: 0,
      updatedAt: 0,
      config: DEFAULT_CONFIG,
      modelId: 'scripted:x',
      status: 'completed',
      epochsCompleted: 0,
      epochsPlanned: 30,
      lastError: null,
    });
    for (let epoch = 0; epoch < 30; epoch++) {
      const own = envs.filter((e) => e.epoch === epoch);
      const memory =
        epoch === 29 ? [{ envId: 'e0029-s00', skill: own[0]!.skill, code: '', winRate: 0.5, regret: 0.1, epoch }] : [];
      const result: EpochResult = {
        epoch,
        environments: own,
        episodes: [],
        rollouts: [],
        evaluations: [],
        metrics: {
          epoch,
          slots: 4,
          validEnvironments: 0,
          attempts: 4,
          validityRate: 0,
          meanRegret: 0,
          meanWinRate: 0,
          meanDesignerReward: 0,
          episodes: 0,
          droppedEpisodes: 0,
          quarantined: 0,
          designerScale: 0,
          promptTokens: 0,
          completionTokens: 0,
          perSkill: {},
        },
        timings: { epoch, totalMs: 0, modelMs: 0, sandboxMs: 0 },
        nextState: { epoch: epoch + 1, memory, skillAverages: {} },
      };
      await store.commitEpoch('r', result);
    }
    return store;
  }

  it('windows read the same rows, in the same order, as the query over everything', async () => {
    const source = (await openExplorerSource(await seeded(), 'r'))!;
    const cases: ExplorerSettings[] = [
      DEFAULT_EXPLORER_SETTINGS,
      { ...DEFAULT_EXPLORER_SETTINGS, sortBy: 'regret', descending: true },
      { ...DEFAULT_EXPLORER_SETTINGS, skill: 'Optimization', status: 'valid', sortBy: 'winRate', descending: false },
      { ...DEFAULT_EXPLORER_SETTINGS, status: 'rejected', sortBy: 'designerReward', descending: true },
    ];
    for (const settings of cases) {
      const expected = selectEnvironments(envs, toQuery(settings)).map((e) => e.id);
      expect(await source.count(settings)).toBe(expected.length);
      const win = source.window(settings, () => undefined);
      await win.ensure({ start: 0, end: expected.length });
      expect(Array.from({ length: expected.length }, (_, i) => win.rowAt(i)?.id)).toEqual(expected);
    }
  });

  it("marks the environments the run's memory holds now, and filters by epoch", async () => {
    const source = (await openExplorerSource(await seeded(), 'r'))!;
    expect([...source.memory]).toEqual(['e0029-s00']);
    const settings = { ...DEFAULT_EXPLORER_SETTINGS, epoch: 29 };
    const win = source.window(settings, () => undefined);
    await win.ensure({ start: 0, end: 4 });
    expect([0, 1, 2, 3].map((i) => [win.rowAt(i)?.id, win.rowAt(i)?.inMemory])).toEqual([
      ['e0029-s00', true],
      ['e0029-s01', false],
      ['e0029-s02', false],
      ['e0029-s03', false],
    ]);
    expect(await source.count(settings)).toBe(4);
    expect(await openExplorerSource(new MemoryRunStore(), 'missing')).toBeNull();
  });
});
