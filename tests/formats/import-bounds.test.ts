// The pure import code against attack inputs, with a fake sandbox that records every code it is
// asked to load: over-long lines, oversized code, lone surrogates, corpus floods, skills named like
// object properties, and run archives whose config asks for hour-long timeouts or a million plays.
import { describe, expect, it } from 'vitest';
import { DEFAULT_CONFIG, MAX_STEP_TIMEOUT_MS, MAX_VALIDATE_TIMEOUT_MS } from '../../src/core/config.ts';
import { parseJsonLines, type ImportFile } from '../../src/formats/export/files.ts';
import { readCorpusFiles } from '../../src/formats/import/corpus-import.ts';
import { importedConfig } from '../../src/formats/import/import-config.ts';
import { importFiles } from '../../src/formats/import/import-files.ts';
import { MAX_CODE_BYTES, MAX_LINE_CHARS } from '../../src/formats/import/import-limits.ts';
import type { SandboxRuntime } from '../../src/core/ports/sandbox-port.ts';

/** A sandbox where every code loads and plays one step; `loaded` records what it was given. */
function recordingSandbox(): SandboxRuntime & { loaded: string[] } {
  const loaded: string[] = [];
  return {
    loaded,
    warm: async () => undefined,
    checkSyntax: async () => ({ ok: true }),
    load: async (code) => {
      loaded.push(code);
      return {
        className: 'FakeEnv',
        hasSolution: false,
        reset: async () => ({ observation: 'start', info: {} }),
        step: async () => ({ observation: 'done', reward: 1, terminated: true, truncated: false, info: {} }),
        solution: async () => null,
        toolFacts: async () => null,
        executeTool: async () => {
          throw new Error('this fake has no tools outside step');
        },
        renew: async () => undefined,
        dispose: async () => undefined,
      };
    },
    close: async () => undefined,
  };
}

const file = (path: string, text: string): ImportFile => ({ path, text, sha256: 'not-checked' });
const run = (files: ImportFile[], sandbox = recordingSandbox()) =>
  importFiles(files, { sandbox, hashText: async () => 'x' }, { runId: 'r', now: 1 });

describe('lines and code sizes', () => {
  it('a line over the cap is one problem line and is never parsed', () => {
    const text = `{"a":1}\n{"code":"${'#'.repeat(MAX_LINE_CHARS)}"}\r\n{"b":2}\n`;
    const parsed = parseJsonLines(text, 'f.jsonl');
    expect(parsed.rows.map((r) => [r.line, r.value])).toEqual([
      [1, { a: 1 }],
      [3, { b: 2 }],
    ]);
    expect(parsed.problems).toEqual([
      {
        source: 'f.jsonl:2',
        reason: `expected a line of at most ${MAX_LINE_CHARS} characters, saw ${MAX_LINE_CHARS + 11}; the line was not read. Fix: shorten or split that record`,
        kept: false,
      },
    ]);
  });

  it('a rows file whose only row is a giant line is reported and nothing reaches the sandbox', async () => {
    const sandbox = recordingSandbox();
    const report = await run(
      [file('rows.jsonl', JSON.stringify({ code: '#'.repeat(MAX_LINE_CHARS + 1) }) + '\n')],
      sandbox,
    );
    expect(sandbox.loaded).toEqual([]);
    expect(report.imported).toBe(0);
    expect(report.problems.map((p) => p.source)).toEqual(['rows.jsonl:1', 'rows.jsonl']);
  });

  it('code over MAX_CODE_BYTES (counted in UTF-8) or with a lone surrogate is not sent to the sandbox', async () => {
    const sandbox = recordingSandbox();
    const big = `x = "${'\u00e9'.repeat(MAX_CODE_BYTES / 2)}"\n`;
    const rows = [
      { game_id: 'big', code: big },
      { game_id: 'lone', code: 'x = "\ud800"\n' },
      { game_id: 'ok', code: 'class OkEnv: pass\n' },
    ];
    const report = await run([file('rows.json', JSON.stringify(rows))], sandbox);
    expect(sandbox.loaded).toEqual(['class OkEnv: pass\n']);
    expect(report.problems.map((p) => [p.source, p.reason.split(';')[0]])).toEqual([
      ['rows.json[0] (big)', `expected at most 256 KB of code, saw ${MAX_CODE_BYTES + 7} bytes (256 KB)`],
      [
        'rows.json[1] (lone)',
        'expected text, saw a lone UTF-16 surrogate (a "\\ud800"-style escape) that has no UTF-8 bytes. Fix: re-export the row as UTF-8 text',
      ],
    ]);
  });

  it('files are code: the sandbox gets a .py file verbatim, fenced blocks and <think> included', async () => {
    const sandbox = recordingSandbox();
    const code = 'class DocEnv:\n    """Reply like this:\n```python\nprint(1)\n```\n"""\n    TAG = "<think>"\n';
    await run([file('game_00000_000_optimization.py', code)], sandbox);
    expect(sandbox.loaded).toEqual([code]);
  });

  it('hidden .py files and files the import does not read are problem lines', async () => {
    const report = await run([
      file('games/._a.py', 'x'),
      file('README.md', '# hi'),
      file('games/a.py', 'class AEnv: pass\n'),
    ]);
    expect(report.imported).toBe(1);
    expect(report.problems.map((p) => [p.source, p.kept])).toEqual([
      ['README.md', false],
      ['games/._a.py', false],
    ]);
  });
});

describe('skill names', () => {
  it('skills named like object properties become Unlabelled, and per-skill metrics stay plain data', async () => {
    const manifest = ['__proto__', 'toString', 'constructor']
      .map((skill, i) => JSON.stringify({ file_name: `g${i}.py`, skill_name: skill }))
      .join('\n');
    const report = await run([
      file('manifest.jsonl', manifest),
      ...[0, 1, 2].map((i) => file(`g${i}.py`, `class G${i}Env: pass\n`)),
    ]);
    expect(report.snapshot!.environments.map((e) => e.skill)).toEqual(['Unlabelled', 'Unlabelled', 'Unlabelled']);
    expect(report.problems.filter((p) => p.kept).map((p) => p.reason.split(';')[0])).toEqual([
      'expected a skill name, saw "__proto__" (a built-in object property)',
      'expected a skill name, saw "toString" (a built-in object property)',
      'expected a skill name, saw "constructor" (a built-in object property)',
    ]);
    const perSkill = report.snapshot!.epochs[0]!.metrics.perSkill;
    expect(Object.getPrototypeOf(perSkill)).toBe(Object.prototype);
    expect(Object.keys(perSkill)).toEqual(['Unlabelled']);
    expect(report.snapshot!.meta.config.skills).toEqual(DEFAULT_CONFIG.skills);
  });
});

describe('corpus caps', () => {
  const lines = (n: number) =>
    Array.from({ length: n }, (_, i) => JSON.stringify({ id: `d${i}`, text: `doc ${i}` })).join('\n');

  it('stops at the document cap with one problem line naming where, and skips later files', () => {
    const { docs, problems } = readCorpusFiles([file('a.jsonl', lines(5)), file('b.jsonl', lines(2))], {
      maxDocs: 3,
      maxChars: 1000,
      maxLineChars: 100,
    });
    expect(docs.map((d) => d.id)).toEqual(['d0', 'd1', 'd2']);
    expect(problems.map((p) => p.source)).toEqual(['a.jsonl:4', 'b.jsonl']);
    expect(problems[0]!.reason).toMatch(
      /^expected at most 3 documents and 1000 characters of text, saw more; this line and the rest of the file were not read/,
    );
  });

  it('stops at the character cap, and reports over-long and duplicate lines', () => {
    const text = [
      JSON.stringify({ id: 'a', text: 'x'.repeat(40) }),
      JSON.stringify({ id: 'a', text: 'again' }),
      JSON.stringify({ text: 'y'.repeat(200) }),
      JSON.stringify({ id: 'b', text: 'z'.repeat(70) }),
    ].join('\n');
    const { docs, problems } = readCorpusFiles([file('c.jsonl', text)], {
      maxDocs: 10,
      maxChars: 100,
      maxLineChars: 150,
    });
    expect(docs.map((d) => d.id)).toEqual(['a']);
    expect(problems.map((p) => [p.source, p.reason.split(/[;,]/)[0]])).toEqual([
      ['c.jsonl:2', 'duplicate document id "a"'],
      ['c.jsonl:3', 'expected a line of at most 150 characters'],
      ['c.jsonl:4', 'expected at most 10 documents and 100 characters of text'],
    ]);
  });
});

describe('imported run configs', () => {
  it("timeouts above this app's limits are lowered, with a warning each", () => {
    const { config, problems } = importedConfig(
      { ...DEFAULT_CONFIG, validateTimeoutMs: 3_600_000, stepTimeoutMs: 3_600_000 },
      'run.json',
    );
    expect(config).toMatchObject({ validateTimeoutMs: MAX_VALIDATE_TIMEOUT_MS, stepTimeoutMs: MAX_STEP_TIMEOUT_MS });
    expect(problems.map((p) => [p.reason, p.kept])).toEqual([
      [`config validateTimeoutMs 3600000 is above this app's limit; lowered to ${MAX_VALIDATE_TIMEOUT_MS} ms`, true],
      [`config stepTimeoutMs 3600000 is above this app's limit; lowered to ${MAX_STEP_TIMEOUT_MS} ms`, true],
    ]);
  });

  it('what configProblems rejects (a million plays, an inherited skill name) makes the config unusable', () => {
    const { config, problems } = importedConfig(
      { ...DEFAULT_CONFIG, playsPerArm: 1e6, skills: ['toString'] },
      'run.json',
    );
    expect(config).toBeNull();
    expect(problems.every((p) => !p.kept && p.reason.startsWith('config rejected: '))).toBe(true);
    expect(problems.map((p) => p.reason).join('\n')).toMatch(
      /playsPerArm must be an integer from 1 to 64, got 1000000[\s\S]*unknown skills \["toString"\]/,
    );
  });

  it("missing fields take this app's defaults, unknown ones are dropped, wrong types are rejected", () => {
    const { seed: _seed, ...rest } = DEFAULT_CONFIG;
    const filled = importedConfig({ ...rest, extra: 1 }, 'run.json');
    expect(filled.config).toEqual(DEFAULT_CONFIG);
    expect(filled.problems.map((p) => p.reason)).toEqual([
      `config has no seed; this app's default ${DEFAULT_CONFIG.seed} is used`,
      'config field "extra" is unknown to this app; dropped',
    ]);
    expect(importedConfig({ ...DEFAULT_CONFIG, skills: 'Optimization', designer: null }, 'run.json').config).toBeNull();
    expect(importedConfig(null, 'run.json').problems[0]!.reason).toMatch(/^expected a config object, saw none/);
  });
});
