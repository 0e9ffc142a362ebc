// The playbook panel's view model and controller: rows with provenance, measurement and status,
// a person's edits (validated, saved only when the run is not running), over a memory store.
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { PlaybookController } from '../../src/app/run/playbook.svelte.ts';
import {
  addUserLesson,
  editLessonText,
  lessonRow,
  playbookView,
  restoreLesson,
  retireLesson,
} from '../../src/app/run/playbook-view.ts';
import type { ControllerStatus } from '../../src/app/run/run-controller.svelte.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import type { Lesson } from '../../src/core/playbook/lesson.ts';

function lesson(id: string, patch: Partial<Lesson> = {}): Lesson {
  return {
    id,
    skill: 'Logical Deduction',
    text: `Lesson ${id}.`,
    origin: 'learned',
    sourceEnvId: `e0000-s0${id.length}`,
    epoch: 0,
    baseline: null,
    shown: { plays: 0, wins: 0 },
    status: 'active',
    retiredBecause: null,
    ...patch,
  };
}

const MEASURED = lesson('L-a', { baseline: { plays: 8, wins: 2 }, shown: { plays: 10, wins: 6 } });
const NEW = lesson('L-b', { epoch: 1, baseline: { plays: 4, wins: 1 }, shown: { plays: 3, wins: 1 } });
const RETIRED = lesson('L-c', {
  status: 'retired',
  retiredBecause: 'its skill won 20% of 10 plays with it, against 50% before it',
});
const MINE = lesson('L-user-1', { origin: 'user', sourceEnvId: null, epoch: -1, skill: 'Optimization' });

describe('playbookView', () => {
  it('groups lessons by skill (the run’s skills first), active before retired, and says which are in prompts', () => {
    const view = playbookView([RETIRED, MEASURED, NEW, MINE], 1, ['Logical Deduction', 'Spatial Reasoning']);
    expect(view.map((g) => [g.skill, g.rows.map((r) => [r.lesson.id, r.inPrompts])])).toEqual([
      [
        'Logical Deduction',
        [
          ['L-a', false],
          ['L-b', true],
          ['L-c', false],
        ],
      ],
      ['Spatial Reasoning', []],
      ['Optimization', [['L-user-1', true]]],
    ]);
  });

  it('words provenance, plays, baseline and the measured effect, "not measured yet" until it is', () => {
    expect(lessonRow(MEASURED, true)).toMatchObject({
      origin: 'learned',
      when: 'epoch 1',
      shown: '6 won of 10 plays (60%)',
      baseline: '2 won of 8 plays (25%)',
      effect: 0.35,
      effectText: '+0.35 win rate',
    });
    expect(lessonRow(NEW, true)).toMatchObject({
      effect: null,
      effectText: 'not measured yet (shown in 3 of the 8 plays needed)',
    });
    expect(lessonRow(MINE, true)).toMatchObject({
      origin: 'user',
      when: 'before the first epoch',
      shown: 'not shown in a play yet',
      baseline: 'none yet',
    });
    expect(lessonRow(MINE, true).effectText).toBe('not measured yet (no plays of its skill before it was shown)');
    expect(lessonRow(RETIRED, true).inPrompts).toBe(false);
  });
});

describe('playbook edits', () => {
  it('an edit checks the text, makes the lesson a person’s (keeping its source) and starts its measurement again', () => {
    const edited = editLessonText([MEASURED, NEW], 'L-a', '  Rule out what each clue forbids.  ');
    expect(edited.problems).toEqual([]);
    expect(edited.playbook![0]).toEqual({
      ...MEASURED,
      text: 'Rule out what each clue forbids.',
      origin: 'user',
      baseline: null,
      shown: { plays: 0, wins: 0 },
    });
    expect(lessonRow(edited.playbook![0]!, true)).toMatchObject({ origin: 'edited', when: 'epoch 1' });
    expect(edited.playbook![1]).toBe(NEW);
    expect(editLessonText([MEASURED], 'L-a', '   ').problems).toEqual(['a lesson needs some text']);
    expect(editLessonText([MEASURED], 'L-a', 'Answer \\boxed{3}.').problems).toEqual([
      'a lesson must not contain a \\boxed{} answer',
    ]);
    expect(editLessonText([MEASURED], 'L-a', 'x'.repeat(401)).problems).toEqual([
      'a lesson has at most 400 characters, this one has 401',
    ]);
    expect(editLessonText([MEASURED], 'L-a', MEASURED.text).problems).toEqual(['the text is unchanged']);
    expect(editLessonText([MEASURED], 'L-z', 'Something new.').problems).toEqual([
      'no lesson L-z in the playbook (it may have changed: reopen the run)',
    ]);
  });

  it('retire says a person did it; restore makes it active with a fresh measurement; add numbers user lessons', () => {
    expect(retireLesson([MEASURED], 'L-a').playbook![0]).toMatchObject({
      status: 'retired',
      retiredBecause: 'retired by a person',
      shown: MEASURED.shown,
    });
    expect(restoreLesson([RETIRED], 'L-c').playbook![0]).toMatchObject({
      status: 'active',
      retiredBecause: null,
      baseline: null,
      shown: { plays: 0, wins: 0 },
    });
    const added = addUserLesson([MINE], 'Optimization', 'Keep budget for the last steps.', 3);
    expect(added.playbook![1]).toEqual({
      id: 'L-user-2',
      skill: 'Optimization',
      text: 'Keep budget for the last steps.',
      origin: 'user',
      sourceEnvId: null,
      epoch: 2,
      baseline: null,
      shown: { plays: 0, wins: 0 },
      status: 'active',
      retiredBecause: null,
    });
    expect(lessonRow(added.playbook![1]!, true).when).toBe('after epoch 3');
    expect(addUserLesson([], '', '', 0).problems).toEqual([
      'choose the skill the lesson is for',
      'a lesson needs some text',
    ]);
  });
});

describe('PlaybookController', () => {
  async function setup(status: ControllerStatus = 'completed') {
    const store = new MemoryRunStore();
    await store.createRun({
      id: 'r',
      name: 'r',
      createdAt: 1,
      updatedAt: 1,
      config: DEFAULT_CONFIG,
      modelId: 'scripted:x',
      status: 'completed',
      epochsCompleted: 1,
      epochsPlanned: 1,
      lastError: null,
    });
    await store.updatePlaybook('r', [MEASURED]);
    const run = { status, readOnly: false };
    const controller = new PlaybookController({ store, run });
    await controller.load('r');
    return { store, run, controller };
  }

  it('reads the stored playbook, saves edits and additions with updatePlaybook, and refuses bad text with the reason', async () => {
    const { store, controller } = await setup();
    expect(controller.lessons).toEqual([MEASURED]);
    expect(await controller.edit('L-a', 'Rule out what each clue forbids.')).toBe(true);
    expect(await controller.add('Logical Deduction', 'Answer only when one option is left.', 1)).toBe(true);
    expect(await controller.retire('L-user-1')).toBe(true);
    expect(await controller.restore('L-user-1')).toBe(true);
    const stored = (await store.loadRun('r'))!.state.playbook!;
    expect(stored.map((l) => [l.id, l.text, l.status])).toEqual([
      ['L-a', 'Rule out what each clue forbids.', 'active'],
      ['L-user-1', 'Answer only when one option is left.', 'active'],
    ]);
    expect(controller.lessons).toEqual(stored);
    expect(await controller.add('Logical Deduction', 'Answer \\boxed{B}.', 1)).toBe(false);
    expect(controller.error).toBe('Not saved: a lesson must not contain a \\boxed{} answer.');
    expect((await store.loadRun('r'))!.state.playbook).toEqual(stored);
  });

  it('is locked, with the reason, while the run runs or is paused inside an epoch', async () => {
    const { store, run, controller } = await setup('paused');
    expect(controller.lockedReason).toMatch(/^The run is running \(or paused inside an epoch\)/);
    expect(await controller.retire('L-a')).toBe(false);
    expect(controller.error).toBe(controller.lockedReason);
    expect((await store.loadRun('r'))!.state.playbook).toEqual([MEASURED]);
    run.status = 'aborted';
    expect(controller.lockedReason).toBeNull();
    expect(await controller.retire('L-a')).toBe(true);
  });
});
