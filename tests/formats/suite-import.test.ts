import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashText } from '../../src/adapters/store/sha256.ts';
import { DEFAULT_VALIDATION } from '../../src/core/env/validate-env.ts';
import type { ImportFile } from '../../src/formats/export/files.ts';
import { readSuite, suiteEnvironmentId, suiteEnvironments } from '../../src/formats/import/suite-import.ts';
import { fakeSandbox, oneStepGame } from '../fixtures/fake-sandbox.ts';

const file = (path: string, text: string): ImportFile => ({
  path,
  text,
  sha256: createHash('sha256').update(text).digest('hex'),
});
const WIN = 'class WinEnv:\n    pass\n';
const ALSO = 'class AlsoEnv:\n    pass\n';
const manifest = file(
  'manifest.jsonl',
  '{"file_name":"games/win.py","skill_name":"Logical Deduction","title":"Say Win"}\n{"file_name":"also.py","skill_name":"Optimization"}\n',
);
const sandbox = () => fakeSandbox({ 'class WinEnv:': oneStepGame, 'class AlsoEnv:': oneStepGame });

describe('suite environments from import candidates', () => {
  it('names each by its file name without .py, keeps titles by file name and leaves out a repeated id', () => {
    expect(suiteEnvironmentId('pool/games/coin_purse.py')).toBe('coin_purse');
    const found = suiteEnvironments(
      [
        { source: 'games/a.py', code: 'A', skill: 'Logical Deduction', hint: null },
        { source: 'b.py', code: 'B', skill: 'Optimization', hint: 'h' },
        { source: 'other/a.py', code: 'C', skill: 'Optimization', hint: null },
      ],
      new Map([['a.py', 'First']]),
    );
    expect(found.environments).toEqual([
      { id: 'a', skill: 'Logical Deduction', code: 'A', title: 'First' },
      { id: 'b', skill: 'Optimization', code: 'B', title: null },
    ]);
    expect(found.problems).toEqual([
      { source: 'other/a.py', reason: expect.stringContaining('a second a.py'), kept: false },
    ]);
  });
});

describe('readSuite', () => {
  it('reads a pool folder (manifest file names with or without games/) into a suite hashed over ids, skills and code', async () => {
    const { suite, problems } = await readSuite(
      'tiny',
      [manifest, file('games/win.py', WIN), file('games/also.py', ALSO)],
      hashText,
    );
    expect(problems).toEqual([]);
    expect(suite.name).toBe('tiny');
    expect(suite.environments).toEqual([
      { id: 'also', skill: 'Optimization', code: ALSO, title: null },
      { id: 'win', skill: 'Logical Deduction', code: WIN, title: 'Say Win' },
    ]);
    const digest = JSON.stringify([
      ['also', 'Optimization', ALSO],
      ['win', 'Logical Deduction', WIN],
    ]);
    expect(suite.sha256).toBe(createHash('sha256').update(digest).digest('hex'));
  });

  it('validates every environment when asked, leaving out each rejected one with the reason', async () => {
    const files = [manifest, file('games/win.py', WIN), file('games/broken.py', 'class BrokenEnv:\n')];
    const { suite, problems } = await readSuite('tiny', files, hashText, {
      sandbox: sandbox(),
      options: DEFAULT_VALIDATION,
    });
    expect(suite.environments.map((e) => e.id)).toEqual(['win']);
    expect(problems).toEqual([
      { source: 'broken', reason: expect.stringMatching(/^invalid at load \(no_env_class\)/), kept: false },
    ]);
  });

  it('refuses a suite with nothing usable, saying why', async () => {
    await expect(readSuite('empty', [manifest], hashText)).rejects.toThrow(
      'the suite empty has no usable environment; expected .py games in a folder or zip',
    );
    await expect(
      readSuite('bad', [file('games/broken.py', 'class BrokenEnv:\n')], hashText, {
        sandbox: sandbox(),
        options: DEFAULT_VALIDATION,
      }),
    ).rejects.toThrow(/the suite bad has no usable environment \(broken: invalid at load/);
  });
});
