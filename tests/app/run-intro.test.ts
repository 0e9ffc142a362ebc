import { describe, expect, it } from 'vitest';
import { startedEvaluation, countPlay } from '../../src/app/suites/eval-progress.ts';
import { applyEvent, attemptStatus, createLiveEpoch } from '../../src/app/run/live-epoch.ts';
import { startingWork } from '../../src/app/run/run-intro.ts';
import { scaleText } from '../../src/app/learn/formulas.ts';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';

const META = {
  id: 'r',
  name: 'r',
  modelId: 'scripted:demo',
  config: { ...DEFAULT_CONFIG, useCorpus: false },
  epochsPlanned: 3,
  epochsCompleted: 0,
} as unknown as RunMeta;

describe('what the live view says before the first event of an epoch', () => {
  it('shows the held-out evaluation before training with its progress, never "Press Start" for a started run', () => {
    let evaluation = startedEvaluation('schedule', 0, 0);
    expect(startingWork(META, 'running', evaluation)).toEqual({
      text: 'Before epoch 1: the held-out evaluation measures the untrained agent, the starting point its later evaluations are compared with. Reading the suite and the model…',
      progress: null,
    });
    evaluation = countPlay({ ...evaluation, total: 48 }, { won: true } as never, 12, 48);
    const work = startingWork(META, 'running', evaluation)!;
    expect(work.text).toContain('Held-out play 13 of 48 (1 won so far); epoch 1 starts when it is done.');
    expect(work.progress).toEqual({ done: 12, total: 48 });
    expect(startingWork(META, 'paused', evaluation)!.text).toMatch(/^Before epoch 1 \(paused\): /);
  });

  it('says what is being readied when nothing is evaluating, and nothing for a run that is not started', () => {
    expect(startingWork(META, 'running', null)).toEqual({
      text: 'Starting epoch 1: getting the model and Python ready…',
      progress: null,
    });
    const grounded = { ...META, epochsCompleted: 2, config: { ...META.config, useCorpus: true } } as RunMeta;
    expect(startingWork(grounded, 'running', null)!.text).toBe(
      'Starting epoch 3: getting the model, the grounding corpus and Python ready…',
    );
    expect(startingWork(META, 'idle', null)).toBeNull();
    expect(startingWork(META, 'completed', null)).toBeNull();
    // An on-demand evaluation is not the epoch's own.
    expect(startingWork(META, 'running', startedEvaluation('demand', 0, 10))!.text).toMatch(/^Starting epoch 1/);
  });
});

describe('a design attempt between its reply and its verdict', () => {
  it('says streaming while the reply comes, then validating (starting Python first when it is still starting)', () => {
    const live = createLiveEpoch(0, [{ slot: 0, skill: 'Logic' }]);
    applyEvent(live, {
      type: 'design_started',
      epoch: 0,
      slot: 0,
      attempt: 0,
      skill: 'Logic',
      docId: null,
      repair: false,
    });
    const attempt = live.slots[0]!.attempts[0]!;
    expect(attemptStatus(attempt, false, true)).toBe('streaming…');
    applyEvent(live, { type: 'design_replied', epoch: 0, slot: 0, attempt: 0 });
    expect(attempt.replied).toBe(true);
    expect(attemptStatus(attempt, false, true)).toBe('reply complete; starting Python, then validating…');
    expect(attemptStatus(attempt, false, false)).toBe('reply complete; validating…');
    expect(attemptStatus(attempt, true, false)).toBe('not finished');
  });
});

describe('the designer scale on the score card', () => {
  it('shows the scale with the numbers it is made of', () => {
    expect(scaleText({ agentPlays: 16, designs: 4, rollouts: 1, scale: 4 })).toBe(
      'Designer scale this epoch = min(N_agent / N_designer x R, 50) = min(16 / 4 x 1, 50) = 4',
    );
    expect(scaleText({ agentPlays: 7, designs: 3, rollouts: 1, scale: 7 / 3 })).toMatch(/= 2\.333$/);
  });
});
