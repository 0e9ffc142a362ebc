import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG } from '../../src/core/config.ts';
import { suiteDigestText } from '../../src/core/eval/suite.ts';
import { INITIAL_RUN_STATE, type RunState } from '../../src/core/loop/epoch.ts';
import type { Lesson } from '../../src/core/playbook/lesson.ts';
import type { RunMeta } from '../../src/core/ports/store-port.ts';
import type { ImportProblem } from '../../src/formats/export/files.ts';
import {
  importedEvalSuite,
  importedFixedPool,
  importedPlaybookState,
} from '../../src/formats/import/import-experiments.ts';

const hashText = async (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const lesson: Lesson = {
  id: 'L-e0000-s00',
  skill: 'Optimization',
  text: 'Check the budget first.',
  origin: 'learned',
  sourceEnvId: 'e0000-s00',
  epoch: 0,
  baseline: null,
  shown: { plays: 0, wins: 0 },
  status: 'active',
  retiredBecause: null,
};
const meta: RunMeta = {
  id: 'r',
  name: 'r',
  createdAt: 0,
  updatedAt: 0,
  config: DEFAULT_CONFIG,
  modelId: 'scripted:x',
  status: 'completed',
  epochsCompleted: 1,
  epochsPlanned: 1,
  lastError: null,
};

describe('importing a playbook', () => {
  it('keeps well-formed lessons and drops an answer, a forged tally and a wrong shape, each with its reason', () => {
    const problems: ImportProblem[] = [];
    const state = {
      ...INITIAL_RUN_STATE,
      playbook: [
        lesson,
        { ...lesson, id: 'b', text: 'Answer \\boxed{7}.' },
        { ...lesson, id: 'c', shown: { plays: 1, wins: 5 } },
        'lesson',
      ],
    } as unknown as RunState;
    expect(importedPlaybookState(state, 'state.json', problems).playbook).toEqual([lesson]);
    expect(problems.map((p) => [p.source, p.reason])).toEqual([
      ['state.json playbook[1]', 'a lesson must not contain a \\boxed{} answer; this lesson is left out'],
      ['state.json playbook[2]', 'expected play tallies with wins no more than plays; this lesson is left out'],
      ['state.json playbook[3]', 'expected a lesson object; this lesson is left out'],
    ]);
  });

  it('empties a playbook that is not a list, drops bad tallies, and leaves a state without a playbook alone', () => {
    const problems: ImportProblem[] = [];
    const state = {
      ...INITIAL_RUN_STATE,
      playbook: 'x',
      skillTallies: { Optimization: { plays: -1, wins: 0 } },
    } as unknown as RunState;
    const next = importedPlaybookState(state, 'state.json', problems);
    expect(next.playbook).toEqual([]);
    expect(next.skillTallies).toBeUndefined();
    expect(problems).toHaveLength(2);
    expect(importedPlaybookState(INITIAL_RUN_STATE, 'state.json', [])).toBe(INITIAL_RUN_STATE);
  });
});

describe('importing a fixed pool', () => {
  const good = { id: 'a', skill: 'Optimization', code: 'class AEnv:\n    pass\n', title: null };

  it('keeps environments that pass, drops the malformed and the failing ones, and hashes what is left', async () => {
    const problems: ImportProblem[] = [];
    const pool = {
      name: 'p',
      sha256: 'forged',
      environments: [
        good,
        { id: 'b', skill: 'toString', code: 'x', title: null },
        { ...good, id: 'c', code: 'class Bad:\n' },
      ],
    };
    const validate = async (code: string) => (code.startsWith('class Bad') ? 'load/syntax_error: broken' : null);
    const next = await importedFixedPool({ ...meta, fixedPool: pool }, hashText, problems, validate);
    expect(next.fixedPool).toEqual({
      name: 'p',
      sha256: await hashText(suiteDigestText([good])),
      environments: [good],
    });
    expect(problems.map((p) => [p.source, p.reason])).toEqual([
      ['run.json fixedPool[1]', 'expected {id, skill, code, title}; left out'],
      ['run.json fixedPool[2]', 'load/syntax_error: broken; left out'],
    ]);
  });

  it('removes a pool with nothing usable left, and leaves a designer run alone', async () => {
    const problems: ImportProblem[] = [];
    const next = await importedFixedPool(
      { ...meta, fixedPool: { name: 'p', sha256: 'x', environments: [] } },
      hashText,
      problems,
      async () => null,
    );
    expect(next.fixedPool).toBeUndefined();
    expect(problems[0]!.reason).toMatch(/^no usable environment is left in the fixed pool/);
    expect(await importedFixedPool(meta, hashText, [], async () => null)).toBe(meta);
  });
});

describe('importing a held-out suite', () => {
  const good = { id: 'a', skill: 'Optimization', code: 'class AEnv:\n    pass\n', title: null };
  const validate = async (code: string) => (code.startsWith('class Bad') ? 'load/syntax_error: broken' : null);

  it('keeps a pool suite whole minus what fails, with its sha256 taken again, and keeps a run source as it is', async () => {
    const problems: ImportProblem[] = [];
    const pool = {
      name: 'mine',
      sha256: 'forged',
      source: { kind: 'pool', environments: [good, { ...good, id: 'b', code: 'class Bad:\n' }] },
    };
    const next = await importedEvalSuite({ ...meta, evalSuite: pool } as RunMeta, hashText, problems, validate);
    expect(next.evalSuite).toEqual({
      name: 'mine',
      sha256: await hashText(suiteDigestText([good])),
      source: { kind: 'pool', environments: [good] },
    });
    expect(problems.map((p) => p.source)).toEqual(['run.json evalSuite[1]']);
    const run = { name: 'run x at epoch 2', sha256: 'h', source: { kind: 'run', runId: 'x', epoch: 2 } } as const;
    expect((await importedEvalSuite({ ...meta, evalSuite: run }, hashText, [], validate)).evalSuite).toEqual(run);
  });

  it('drops a malformed suite or one with nothing left, saying the built-in suite is used instead', async () => {
    const problems: ImportProblem[] = [];
    const bad = await importedEvalSuite(
      { ...meta, evalSuite: { name: 'x', sha256: 'y', source: { kind: 'run', runId: 'x', epoch: 0 } } } as RunMeta,
      hashText,
      problems,
      validate,
    );
    const empty = await importedEvalSuite(
      { ...meta, evalSuite: { name: 'x', sha256: 'y', source: { kind: 'pool', environments: [] } } } as RunMeta,
      hashText,
      problems,
      validate,
    );
    expect([bad.evalSuite, empty.evalSuite]).toEqual([undefined, undefined]);
    expect(problems.map((p) => p.reason)).toEqual([
      'expected the suite to come from a run or a pool; the run evaluates on the built-in suite instead',
      'no usable environment is left in the held-out suite; the run evaluates on the built-in suite instead',
    ]);
  });
});
