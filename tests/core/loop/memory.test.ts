import { describe, expect, it } from 'vitest';
import {
  MEMORY_CAPACITY,
  rememberEnvironments,
  selectMemory,
  type MemoryRecord,
} from '../../../src/core/loop/memory.ts';
import { createRng } from '../../../src/core/loop/random.ts';

const record = (envId: string, skill: string, winRate: number, regret: number): MemoryRecord => ({
  envId,
  skill,
  code: `# ${envId}`,
  winRate,
  regret,
  epoch: 0,
});

describe('environment memory', () => {
  it('keeps the newest 200 records and the first 2000 characters of code', () => {
    const many = Array.from({ length: 205 }, (_, i) => record(`e${i}`, 'A', 0.5, 0));
    const memory = rememberEnvironments([], many);
    expect(memory).toHaveLength(MEMORY_CAPACITY);
    expect(memory[0]!.envId).toBe('e5');
    expect(rememberEnvironments([], [{ ...record('x', 'A', 0.5, 0), code: 'y'.repeat(2500) }])[0]!.code).toHaveLength(
      2000,
    );
  });

  it('positives: same skill, win rate in [0.15, 0.85], from the 10 highest regrets', () => {
    const memory = [
      ...Array.from({ length: 12 }, (_, i) => record(`p${i}`, 'A', 0.5, i / 100)),
      record('edge-low', 'A', 0.15, 0.99),
      record('edge-high', 'A', 0.85, 0.98),
      record('easy', 'A', 0.95, 5),
      record('other-skill', 'B', 0.5, 9),
    ];
    const allowed = new Set(['edge-low', 'edge-high', 'p11', 'p10', 'p9', 'p8', 'p7', 'p6', 'p5', 'p4']);
    for (let seed = 0; seed < 50; seed++) {
      const { positives } = selectMemory(memory, 'A', createRng(seed));
      expect(positives).toHaveLength(2);
      expect(new Set(positives.map((p) => p.envId)).size).toBe(2);
      for (const p of positives) expect(allowed.has(p.envId)).toBe(true);
    }
  });

  it('negative: win rate > 0.9 is too easy, < 0.1 too hard; none when no record qualifies', () => {
    expect(selectMemory([record('e', 'A', 0.95, 0)], 'A', createRng(1)).negative).toMatchObject({
      reason: 'too easy',
      record: { envId: 'e' },
    });
    expect(selectMemory([record('h', 'A', 0.05, 0)], 'A', createRng(1)).negative).toMatchObject({ reason: 'too hard' });
    expect(selectMemory([record('m', 'A', 0.9, 0), record('n', 'A', 0.1, 0)], 'A', createRng(1))).toEqual({
      positives: [],
      negative: null,
    });
  });

  it('selection is reproducible for a seed', () => {
    const memory = Array.from({ length: 8 }, (_, i) => record(`p${i}`, 'A', 0.5, i));
    expect(selectMemory(memory, 'A', createRng(42))).toEqual(selectMemory(memory, 'A', createRng(42)));
  });
});
