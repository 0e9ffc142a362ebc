// A pool's setting and domain columns are untrusted input: each bad value is dropped with a problem
// that says why, and a declared setting that the code contradicts loses to the code. The sandbox
// is not the point here: in-process fakes (a tool-use one and a game) stand for the validated code.
import { describe, expect, it } from 'vitest';
import { fakeSandbox, oneStepGame, type FakeInstance } from '../fixtures/fake-sandbox.ts';
import { DEFAULT_VALIDATION } from '../../src/core/env/validate-env.ts';
import { poolRunSnapshot, poolSetting, validateCandidates } from '../../src/formats/import/import-envs.ts';
import { parsePoolFiles } from '../../src/formats/import/pool-import.ts';
import type { ImportFile } from '../../src/formats/export/files.ts';

function toolDesk(): FakeInstance {
  return {
    reset: () => ({ observation: 'Which shelf? Reply <answer>shelf</answer>.', info: {} }),
    step: () => ({ observation: 'Tool result:\nB4', reward: 0, terminated: false, truncated: false, info: {} }),
    toolFacts: () => ({
      methods: ['lookup'],
      tools: [
        {
          type: 'function',
          function: { name: 'lookup', description: 'Shelf of a book.', parameters: { type: 'object', properties: {} } },
        },
      ],
      toolsError: null,
      messages: null,
      criteria: null,
      current: 0,
    }),
  };
}
const sandbox = () => fakeSandbox({ ToolDeskEnv: toolDesk, OneStepEnv: oneStepGame });
const VALIDATION = { ...DEFAULT_VALIDATION, source: 'code' as const };

/** A pool folder of `games/<name>.py` files (the code's first line names the fake) and a manifest with one row per file. */
function pool(rows: Array<Record<string, unknown> & { file: string; code: string }>): ImportFile[] {
  const files: ImportFile[] = rows.map((r) => ({ path: `games/${r.file}`, text: `${r.code}\n`, sha256: '' }));
  const manifest = rows.map(({ code: _code, file, ...row }) => JSON.stringify({ file_name: file, ...row })).join('\n');
  return [...files, { path: 'manifest.jsonl', text: manifest, sha256: '' }];
}

describe("a pool's setting and domain columns", () => {
  it('keeps a good setting and domain, and drops bad ones with a problem each', () => {
    const { candidates, problems } = parsePoolFiles(
      pool([
        {
          file: 'a.py',
          code: 'ToolDeskEnv',
          skill: 'api_orchestration',
          setting: 'tool_use',
          domain: '  a smart home: lights  ',
        },
        { file: 'b.py', code: 'ToolDeskEnv', setting: 'chess', domain: 42 },
        { file: 'c.py', code: 'ToolDeskEnv', domain: 'x'.repeat(201) },
        { file: 'd.py', code: 'ToolDeskEnv', domain: 'line one\nline two' },
        { file: 'e.py', code: 'OneStepEnv', setting: 'games', domain: 'retail orders' },
      ]),
    );
    expect(candidates.map((c) => [c.skill, c.setting, c.domain])).toEqual([
      ['API Orchestration', 'tool_use', 'a smart home: lights'],
      ['Unlabelled', undefined, undefined],
      ['Unlabelled', undefined, undefined],
      ['Unlabelled', undefined, undefined],
      ['Unlabelled', 'games', undefined],
    ]);
    expect(problems).toEqual([
      {
        source: 'games/b.py',
        reason: 'expected setting "games" or "tool_use", saw "chess"; ignored, the code decides',
        kept: true,
      },
      {
        source: 'games/b.py',
        reason: 'expected a domain: one line of 1 to 200 characters, saw 42; dropped',
        kept: true,
      },
      {
        source: 'games/c.py',
        reason: `expected a domain: one line of 1 to 200 characters, saw "${'x'.repeat(79)}; dropped`,
        kept: true,
      },
      {
        source: 'games/d.py',
        reason: 'expected a domain: one line of 1 to 200 characters, saw "line one\\nline two"; dropped',
        kept: true,
      },
      {
        source: 'games/e.py',
        reason: 'a game has no domain, saw "retail orders" on a row whose setting is "games"; dropped',
        kept: true,
      },
    ]);
  });

  it('the code decides the setting: a declaration it contradicts is reported, and a game keeps no domain', async () => {
    const { candidates } = parsePoolFiles(
      pool([
        { file: 'a.py', code: 'ToolDeskEnv', skill_name: 'Data Retrieval', setting: 'games' },
        {
          file: 'b.py',
          code: 'OneStepEnv',
          skill_name: 'Optimization',
          setting: 'tool_use',
          domain: 'banking and payments',
        },
      ]),
    );
    const { records, problems } = await validateCandidates(candidates, { sandbox: sandbox(), validation: VALIDATION });
    expect(records.map((r) => [r.skill, r.domain, r.attempts[0]!.validation.toolUse])).toEqual([
      ['Data Retrieval', undefined, true],
      ['Optimization', undefined, undefined],
    ]);
    expect(problems).toEqual([
      {
        source: 'games/a.py',
        reason:
          'the row says setting "games", but the code is a tool-use environment (its get_tools() lists tools); imported as "tool_use"',
        kept: true,
      },
      {
        source: 'games/b.py',
        reason:
          'the row says setting "tool_use", but the code is a game (no tools from get_tools()); imported as "games"',
        kept: true,
      },
      {
        source: 'games/b.py',
        reason: 'the code is a game, which has no domain; the domain "banking and payments" was dropped',
        kept: true,
      },
    ]);
    // A pool of both kinds becomes a games run; one of tool-use environments only, a tool-use run with its skills.
    expect(poolSetting(records)).toBe('games');
    const toolRun = poolRunSnapshot([records[0]!], { runId: 'p', name: 'p', now: 0, candidates: 1 });
    expect([toolRun.meta.config.setting, toolRun.meta.config.skills]).toEqual(['tool_use', ['Data Retrieval']]);
    const gameRun = poolRunSnapshot(records, { runId: 'p', name: 'p', now: 0, candidates: 2 });
    expect([gameRun.meta.config.setting, gameRun.meta.config.skills]).toEqual(['games', ['Optimization']]);
  });
});
