// A run's own pool frozen at an epoch as a held-out suite (pure: records in, suite out).
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashText } from '../../src/adapters/store/sha256.ts';
import { DEFAULT_VALIDATION } from '../../src/core/env/validate-env.ts';
import type { EnvironmentRecord } from '../../src/core/records.ts';
import {
  runPoolEnvironments,
  runPoolSuite,
  runSuiteEpochProblem,
  runSuiteName,
} from '../../src/formats/import/run-suite.ts';
import { fakeSandbox, oneStepGame } from '../fixtures/fake-sandbox.ts';

function env(
  id: string,
  epoch: number,
  slot: number,
  status: EnvironmentRecord['status'],
  code: string,
  skill = 'Logical Deduction',
): EnvironmentRecord {
  return {
    id,
    epoch,
    slot,
    skill,
    difficulty: 'medium',
    docId: null,
    status,
    code,
    attempts: [],
    memoryShown: { positives: [], negative: null },
    hint: null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
  };
}

const code = (name: string) => `class ${name}Env:\n    pass\n`;
// Stored out of order on purpose: the suite is in epoch then slot order.
const RECORDS = [
  env('e0001-s01', 1, 1, 'valid', code('D'), 'Optimization'),
  env('e0000-s01', 0, 1, 'rejected', code('Bad')),
  env('e0000-s00', 0, 0, 'valid', code('A')),
  env('e0001-s00', 1, 0, 'quarantined', code('Q')),
  env('e0000-s02', 0, 2, 'valid', code('B')),
  env('e0002-s00', 2, 0, 'valid', code('C')),
  env('e0002-s01', 2, 1, 'valid', `${code('A')}\n`),
];
const RUN = { name: 'curriculum', epochsCompleted: 3 };

describe('a run pool frozen at an epoch', () => {
  it('takes the valid environments of epochs 1..N (app count) in epoch and slot order, each code once', () => {
    expect(runPoolEnvironments(RECORDS, 1).map((e) => e.id)).toEqual(['e0000-s00', 'e0000-s02']);
    expect(runPoolEnvironments(RECORDS, 2)).toEqual([
      { id: 'e0000-s00', skill: 'Logical Deduction', code: code('A'), title: null },
      { id: 'e0000-s02', skill: 'Logical Deduction', code: code('B'), title: null },
      { id: 'e0001-s01', skill: 'Optimization', code: code('D'), title: null },
    ]);
    // e0002-s01 repeats e0000-s00's code (up to whitespace): left out.
    expect(runPoolEnvironments(RECORDS, 3).map((e) => e.id)).toEqual([
      'e0000-s00',
      'e0000-s02',
      'e0001-s01',
      'e0002-s00',
    ]);
  });

  it('is a suite named after the run and the epoch, hashed over ids, skills and code', async () => {
    const { suite, problems } = await runPoolSuite(RUN, RECORDS, 2, hashText);
    expect(suite.name).toBe('run curriculum at epoch 2');
    expect(runSuiteName('x', 7)).toBe('run x at epoch 7');
    expect(problems).toEqual([]);
    const digest = JSON.stringify(suite.environments.map((e) => [e.id, e.skill, e.code]));
    expect(suite.sha256).toBe(createHash('sha256').update(digest).digest('hex'));
    expect((await runPoolSuite(RUN, [...RECORDS].reverse(), 2, hashText)).suite.sha256).toBe(suite.sha256);
  });

  it('refuses an epoch out of range, saying the range, and a run with nothing valid', async () => {
    expect(runSuiteEpochProblem(RUN, 3)).toBeNull();
    expect(runSuiteEpochProblem(RUN, 0)).toBe(
      'the run curriculum has 3 committed epochs: expected an epoch from 1 to 3, got 0',
    );
    expect(runSuiteEpochProblem(RUN, 4)).toContain('expected an epoch from 1 to 3, got 4');
    expect(runSuiteEpochProblem({ name: 'one', epochsCompleted: 1 }, 2)).toBe(
      'the run one has 1 committed epoch: expected epoch 1, got 2',
    );
    expect(runSuiteEpochProblem({ name: 'new', epochsCompleted: 0 }, 1)).toBe(
      'the run new has no committed epoch, so it has no pool to evaluate on yet',
    );
    await expect(runPoolSuite(RUN, RECORDS, 4, hashText)).rejects.toThrow('expected an epoch from 1 to 3, got 4');
    await expect(runPoolSuite(RUN, [RECORDS[1]!], 1, hashText)).rejects.toThrow(
      'the suite run curriculum at epoch 1 has no usable environment; the run has no valid environment in epochs 1 to 1',
    );
  });

  it('validates every environment when asked, leaving out each rejected one with the reason', async () => {
    const sandbox = fakeSandbox({ 'class AEnv:': oneStepGame });
    const { suite, problems } = await runPoolSuite(RUN, RECORDS, 1, hashText, { sandbox, options: DEFAULT_VALIDATION });
    expect(suite.environments.map((e) => e.id)).toEqual(['e0000-s00']);
    expect(problems).toEqual([
      { source: 'e0000-s02', reason: expect.stringMatching(/^invalid at load \(no_env_class\)/), kept: false },
    ]);
    await expect(
      runPoolSuite(RUN, RECORDS.slice(0, 2), 2, hashText, { sandbox, options: DEFAULT_VALIDATION }),
    ).rejects.toThrow(/has no usable environment \(e0001-s01: invalid at load/);
  });
});
