import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { buildLearnFigures } from '../../src/app/learn/learn.ts';
import { loopStages } from '../../src/app/learn/loop-diagram.ts';
import { scriptedEpochs, testMeta } from '../adapters/store/store-fixtures.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';

describe('the loop diagram', () => {
  it('names the stages in order with one sentence each, and no figures without a run', () => {
    const stages = loopStages(null);
    expect(stages.map((s) => s.label)).toEqual([
      'Designer',
      'Validate',
      'Hint',
      'Plays without the hint',
      'Plays with the hint',
      'Regret',
      'Memory',
    ]);
    for (const s of stages) {
      expect(s.sentence).toMatch(/^[^.]+\.$/);
      expect(s.figure).toBeNull();
    }
  });

  it("shows a run's own numbers: its slots, its example's returns and regret, its memory", async () => {
    const store = new MemoryRunStore(() => 0);
    await store.createRun(testMeta('r'));
    for (const e of await scriptedEpochs(fakeSandbox(HINT_HELPS_DOUBLES), 1)) await store.commitEpoch('r', e);
    const lesson = (await buildLearnFigures(store, 'r'))!;
    const stats = lesson.example!.stats!;
    const figure = (id: string) => loopStages(lesson).find((s) => s.id === id)!.figure;
    // The fixture's epoch: two slots, both valid, one attempt rejected by the checks and tried again.
    expect([lesson.validCount, lesson.rejectedCount, lesson.failedAttempts]).toEqual([2, 0, 1]);
    expect(figure('designer')).toBe('2 slots designed in 1 epoch');
    expect(figure('validate')).toBe('2 valid; 1 rejected attempt tried again');
    expect(figure('nohint')).toBe(`${lesson.example!.id}: r_nohint = ${stats.rNoHint.toFixed(2)}`);
    expect(figure('hinted')).toBe(`${lesson.example!.id}: r_hint = ${stats.rHint!.toFixed(2)}`);
    expect(figure('regret')).toBe(
      `${lesson.example!.id}: regret = ${stats.regret.toFixed(2)}; last epoch's mean ${lesson.epochs[0]!.meanRegret.toFixed(2)}`,
    );
    expect(figure('memory')).toBe(`${lesson.memorySize} environments remembered`);
  });

  it('counts rejected attempts, not only rejected slots, so a retried design never reads as "0 rejected"', async () => {
    const store = new MemoryRunStore(() => 0);
    await store.createRun(testMeta('r'));
    for (const e of await scriptedEpochs(fakeSandbox(HINT_HELPS_DOUBLES), 2)) await store.commitEpoch('r', e);
    const lesson = (await buildLearnFigures(store, 'r'))!;
    const validate = (l: typeof lesson) => loopStages(l).find((s) => s.id === 'validate')!.figure;
    const designer = (l: typeof lesson) => loopStages(l).find((s) => s.id === 'designer')!.figure;
    expect(designer(lesson)).toBe(`${lesson.validCount} slots designed in 2 epochs`);
    expect(validate({ ...lesson, validCount: 8, rejectedCount: 0, failedAttempts: 0 })).toBe(
      '8 valid, no attempt rejected',
    );
    expect(validate({ ...lesson, validCount: 8, rejectedCount: 0, failedAttempts: 3 })).toBe(
      '8 valid; 3 rejected attempts tried again',
    );
    // Slots that never validated: their attempts are counted in all.
    expect(validate({ ...lesson, validCount: 6, rejectedCount: 2, failedAttempts: 11 })).toBe(
      '6 valid, 2 slots rejected; 11 attempts rejected in all',
    );
    expect(validate({ ...lesson, validCount: 3, rejectedCount: 1, failedAttempts: 5 })).toBe(
      '3 valid, 1 slot rejected; 5 attempts rejected in all',
    );
  });
});
