// Import speed without the real sandbox: identical code is validated once, syntax errors and files
// without `Env` never take an interpreter, validations run side by side up to the sandbox's
// parallelism, and the result is the same whatever order the validations finish in.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { INITIAL_RUN_STATE } from '../../src/core/loop/epoch.ts';
import { buildArchiveFiles } from '../../src/formats/export/run-archive.ts';
import type { RunSnapshot } from '../../src/formats/export/run-snapshot.ts';
import { testMeta } from '../adapters/store/store-fixtures.ts';
import { envError } from '../../src/core/env/env-error.ts';
import type { SandboxRuntime } from '../../src/core/ports/sandbox-port.ts';
import type { ImportFile } from '../../src/formats/export/files.ts';
import { importFiles } from '../../src/formats/import/import-files.ts';
import { normalisedCode, validateEntries } from '../../src/formats/import/validate-distinct.ts';

/** What the counting sandbox saw: loads, syntax checks, and the most loads in flight at once. */
interface Seen {
  loads: string[];
  syntaxChecks: number;
  inFlight: number;
  maxInFlight: number;
}

/**
 * A sandbox where code with `BROKEN` fails at load, code with `SYNTAX` does not parse, and every
 * other code is a one-step game. Each load waits `delay(code)` ms, so tests can make later loads
 * finish first.
 */
function countingSandbox(
  parallelism: number,
  delay: (code: string) => number = () => 0,
): SandboxRuntime & { seen: Seen } {
  const seen: Seen = { loads: [], syntaxChecks: 0, inFlight: 0, maxInFlight: 0 };
  return {
    seen,
    parallelism,
    warm: async () => undefined,
    checkSyntax: async (source) => {
      seen.syntaxChecks += 1;
      return source.includes('SYNTAX') ? { ok: false, line: 2, message: 'invalid syntax' } : { ok: true };
    },
    load: async (code) => {
      seen.loads.push(code);
      seen.inFlight += 1;
      seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
      await new Promise((resolve) => setTimeout(resolve, delay(code)));
      seen.inFlight -= 1;
      if (code.includes('BROKEN'))
        throw envError('module_exception', 'load', {
          expected: 'the module to run',
          seen: 'RuntimeError: broken',
          fix: 'fix it',
        });
      return {
        className: 'GameEnv',
        hasSolution: false,
        reset: async () => ({ observation: 'start', info: {} }),
        step: async () => ({ observation: 'done', reward: 1, terminated: true, truncated: false, info: {} }),
        solution: async () => null,
        toolFacts: async () => null,
        renew: async () => undefined,
        executeTool: async () => {
          throw new Error('a game has no tools');
        },
        dispose: async () => undefined,
      };
    },
    close: async () => undefined,
  };
}

const game = (i: number) => `class Game${i}Env:\n    pass  # game ${i}\n`;
const file = (path: string, text: string): ImportFile => ({ path, text, sha256: 'not-checked' });
const importPool = (files: ImportFile[], sandbox: SandboxRuntime) =>
  importFiles(files, { sandbox, hashText: async () => 'x', nonce: 7 }, { runId: 'r', now: 1 });

describe('identical code is validated once', () => {
  it('loads each distinct code once; every copy gets the first copy’s verdict, a refused copy saying whose', async () => {
    const sandbox = countingSandbox(2);
    const broken = 'class BrokenEnv:\n    pass\nBROKEN\n';
    const files = [
      file('a.py', game(1)),
      ...Array.from({ length: 40 }, (_, i) => file(`b${String(i).padStart(2, '0')}.py`, broken)),
      file('c.py', game(1).replace(/\n/g, '\r\n')),
      file('d.py', game(2)),
    ];
    const report = await importPool(files, sandbox);
    expect(sandbox.seen.loads).toHaveLength(3);
    expect(report.found).toBe(43);
    expect(report.imported).toBe(3);
    const skipped = report.problems.filter((p) => !p.kept);
    expect(skipped).toHaveLength(40);
    expect(skipped[0]!.reason).toMatch(/module_exception/);
    expect(skipped[0]!.reason).not.toMatch(/same code as/);
    expect(skipped[39]).toMatchObject({
      source: 'b39.py',
      reason: expect.stringMatching(/module_exception.*the same code as b00\.py, validated once/),
    });
    expect(report.problems.filter((p) => p.source === 'c.py')).toEqual([]);
    expect(report.snapshot!.environments.map((e) => e.code)).toEqual([game(1), game(1), game(2)]);
  });

  it('counts CRLF and CR line ends as LF, and nothing else', () => {
    expect(normalisedCode('a\r\nb\rc\n')).toBe('a\nb\nc\n');
    expect(normalisedCode('a \nb')).toBe('a \nb');
  });
});

describe('checks without an interpreter', () => {
  it('a syntax error is found by the shared syntax check and never loaded', async () => {
    const sandbox = countingSandbox(2);
    const report = await importPool([file('bad.py', 'class BadEnv:\nSYNTAX (\n'), file('good.py', game(3))], sandbox);
    expect(sandbox.seen.loads).toEqual([game(3)]);
    expect(report.problems).toContainEqual({
      source: 'bad.py',
      reason:
        'invalid at load (syntax_error): Expected valid Python 3 source. Saw SyntaxError: invalid syntax at line 2. Fix: correct the syntax on that line; in f-strings double literal braces ({{ and }}).',
      kept: false,
    });
  });

  it('a file with no `Env` anywhere is refused as no_env_class without a syntax check or a load', async () => {
    const sandbox = countingSandbox(2);
    const report = await importPool([file('helper.py', 'def helper():\n    return 1\n')], sandbox);
    expect(sandbox.seen.loads).toEqual([]);
    expect(sandbox.seen.syntaxChecks).toBe(0);
    expect(report.problems).toContainEqual({
      source: 'helper.py',
      reason: expect.stringMatching(/^invalid at load \(no_env_class\): .*no 'Env' anywhere in the file/),
      kept: false,
    });
  });
});

describe('validations side by side, results in a stable order', () => {
  it('keeps as many loads in flight as the sandbox’s parallelism, never more', async () => {
    const sandbox = countingSandbox(3, () => 5);
    await importPool(
      Array.from({ length: 12 }, (_, i) => file(`g${i}.py`, game(i))),
      sandbox,
    );
    expect(sandbox.seen.loads).toHaveLength(12);
    expect(sandbox.seen.maxInFlight).toBe(3);
  });

  it('gives the same run and problems whatever order the validations finish in', async () => {
    const files = Array.from({ length: 16 }, (_, i) =>
      file(`g${String(i).padStart(2, '0')}.py`, i % 3 === 0 ? `class B${i}Env:\n    pass\nBROKEN\n` : game(i)),
    );
    const serial = await importPool(files, countingSandbox(1));
    const reversed = countingSandbox(4, (code) => 40 - Number(/(\d+)Env/.exec(code)?.[1] ?? 0) * 2);
    const parallel = await importPool(files, reversed);
    expect(reversed.seen.loads.length).toBe(16);
    expect(parallel.snapshot).toEqual(serial.snapshot);
    expect(parallel.problems).toEqual(serial.problems);
    expect(parallel.snapshot!.environments.map((e) => e.attempts[0]!.code)).toEqual(
      files.filter((_, i) => i % 3 !== 0).map((f) => f.text),
    );
  });

  it('reports progress over distinct codes, ending at the total', async () => {
    const progress: string[] = [];
    const codes = ['x', 'y', 'x', 'z', 'y'];
    const verdicts = await validateEntries(
      codes,
      async (code) => ({
        ok: code !== 'y',
        stage: null,
        code: null,
        message: code,
        ms: 0,
        envMs: 0,
        source: code,
        repairedLines: [],
        className: null,
        firstObservation: null,
        stages: [],
      }),
      2,
      (done, total) => progress.push(`${done}/${total}`),
    );
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
    expect(verdicts.map((v) => v.validatedAs)).toEqual([0, 1, 0, 3, 1]);
    expect(verdicts.map((v) => v.report.ok)).toEqual([true, false, true, true, false]);
  });
});

describe("an archive's fixed pool", () => {
  it('is validated in the same pass as the run’s environments, side by side and counted in the progress, never after it says done', async () => {
    const sandbox = countingSandbox(2, () => 5);
    const pool = Array.from({ length: 6 }, (_, i) => ({
      id: `p${i}`,
      skill: 'Optimization',
      code: game(i),
      title: null,
    }));
    const snapshot: RunSnapshot = {
      meta: {
        ...testMeta('r'),
        epochsCompleted: 0,
        epochsPlanned: 2,
        fixedPool: { name: 'starter', sha256: 'x', environments: pool },
      },
      state: INITIAL_RUN_STATE,
      epochs: [],
      environments: [],
      episodes: [],
      rollouts: [],
      evaluations: [],
    };
    const sha = async (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
    const files = (await buildArchiveFiles(snapshot, sha)).map((f) => ({
      path: f.path,
      text: f.text,
      sha256: createHash('sha256').update(f.text, 'utf8').digest('hex'),
    }));
    const progress: Array<[number, number, number]> = [];
    const report = await importFiles(
      files,
      {
        sandbox,
        hashText: sha,
        nonce: 7,
        onProgress: (done, total) => progress.push([done, total, sandbox.seen.loads.length]),
      },
      { now: 1 },
    );
    expect(report.snapshot!.meta.fixedPool!.environments).toHaveLength(6);
    expect(sandbox.seen.loads).toHaveLength(6);
    expect(progress.at(-1)).toEqual([6, 6, 6]);
    expect(sandbox.seen.maxInFlight).toBe(2);
  });
});
