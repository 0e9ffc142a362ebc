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
    expect(stages.map((s) => s.label)).toEqual(['Designer', 'Validate', 'Hint', 'Plays without the hint', 'Plays with the hint', 'Regret', 'Memory']);
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
    expect(figure('designer')).toBe(`${lesson.validCount + lesson.rejectedCount} slots designed in 1 epoch(s)`);
    expect(figure('validate')).toBe(`${lesson.validCount} valid, ${lesson.rejectedCount} rejected`);
    expect(figure('nohint')).toBe(`${lesson.example!.id}: r_nohint = ${stats.rNoHint.toFixed(2)}`);
    expect(figure('hinted')).toBe(`${lesson.example!.id}: r_hint = ${stats.rHint!.toFixed(2)}`);
    expect(figure('regret')).toBe(`${lesson.example!.id}: regret = ${stats.regret.toFixed(2)}; last epoch's mean ${lesson.epochs[0]!.meanRegret.toFixed(2)}`);
    expect(figure('memory')).toBe(`${lesson.memorySize} environments remembered`);
  });
});
