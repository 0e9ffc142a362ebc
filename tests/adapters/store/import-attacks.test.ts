// Attack imports end to end with the real Node sandbox and in-memory stores: files that are valid
// code but look like model replies, a run archive asking for hour-long timeouts or a million plays,
// and a zip mixing a good game with unsafe, tampered and invalid entries. One sandbox for the file.
import { readFileSync } from 'node:fs';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { exportRun } from '../../../src/adapters/store/export-run.ts';
import { importIntoStore } from '../../../src/adapters/store/import-run.ts';
import { MemoryRunStore } from '../../../src/adapters/store/memory-run-store.ts';
import { decodeUtf8, unzipFiles, zipTextFiles } from '../../../src/adapters/store/zip.ts';
import { MAX_VALIDATE_TIMEOUT_MS } from '../../../src/core/config.ts';
import { DEFAULT_VALIDATION } from '../../../src/core/env/validate-env.ts';

const GOOD = readFileSync(new URL('../../../public/pools/starter/games/number_ladder.py', import.meta.url), 'utf8');
/** Valid code that model-reply extraction would cut: a fenced block in a docstring. */
const FENCED_DOCSTRING = GOOD.replace(
  '    """Mathematical reasoning:',
  '    """Reply in a block such as\n```python\n\\boxed{1}\n```\n    Mathematical reasoning:',
);
/** Valid code that `<think>` stripping would cut: the tag inside a string literal. */
const THINK_STRING = GOOD.replace(
  '    def __init__(self, max_turns=12):',
  '    TAG = "<think>"\n\n    def __init__(self, max_turns=12):',
);
const VALIDATION = { ...DEFAULT_VALIDATION, totalTimeoutMs: 4000, callTimeoutMs: 1500 };
let sandbox: PyodideSandboxRuntime;
const ports = () => ({ sandbox, validation: VALIDATION });
const bytes = (text: string) => new TextEncoder().encode(text);

beforeAll(() => {
  sandbox = createNodeSandboxRuntime();
});
afterAll(() => sandbox.close());

describe('files are code', () => {
  it('a fenced block in a docstring and "<think>" in a string import verbatim and validate', async () => {
    expect(FENCED_DOCSTRING).toContain('```python');
    expect(THINK_STRING).toContain('"<think>"');
    const report = await importIntoStore(
      new MemoryRunStore(),
      [
        { path: 'fenced.py', bytes: bytes(FENCED_DOCSTRING) },
        { path: 'think.py', bytes: bytes(THINK_STRING) },
      ],
      ports(),
      { runId: 'c', now: 1 },
    );
    expect(report.problems).toEqual([]);
    expect(report.snapshot!.environments.map((e) => e.code)).toEqual([FENCED_DOCSTRING, THINK_STRING]);
  });
});

describe('hostile run archives', () => {
  async function archiveWith(
    config: Record<string, unknown>,
    metaFields: Record<string, unknown> = {},
  ): Promise<Uint8Array> {
    const store = new MemoryRunStore();
    await importIntoStore(store, [{ path: 'g.py', bytes: bytes(GOOD) }], ports(), { runId: 'a', now: 1 });
    const files = unzipFiles((await exportRun(store, 'a', 'archive')).bytes).files.map((f) => ({
      path: f.path,
      text: decodeUtf8(f.bytes),
    }));
    const run = files.find((f) => f.path === 'run.json')!;
    const meta = JSON.parse(run.text) as { config: Record<string, unknown> };
    run.text = JSON.stringify({ ...meta, ...metaFields, config: { ...meta.config, ...config } });
    return zipTextFiles(files);
  }

  it("an hour-long validateTimeoutMs is lowered to this app's limit, and the import validates within its own", async () => {
    const report = await importIntoStore(
      new MemoryRunStore(),
      [{ path: 'a.zip', bytes: await archiveWith({ validateTimeoutMs: 3_600_000 }) }],
      ports(),
      { now: 2 },
    );
    expect(report.snapshot!.meta.config.validateTimeoutMs).toBe(MAX_VALIDATE_TIMEOUT_MS);
    expect(report.problems.map((p) => [p.source, p.kept, p.reason.split(';')[0]])).toEqual([
      ['run.json', true, expect.stringMatching(/^checksum mismatch/)],
      ['run.json', true, `config validateTimeoutMs 3600000 is above this app's limit`],
    ]);
  });

  it('a status the app does not know, or "running", is stored as paused; a known one is kept', async () => {
    for (const [status, stored] of [
      ['pwned', 'paused'],
      [{ not: 'a status' }, 'paused'],
      ['running', 'paused'],
      ['aborted', 'aborted'],
    ] as const) {
      const store = new MemoryRunStore();
      const report = await importIntoStore(
        store,
        [{ path: 'a.zip', bytes: await archiveWith({}, { status }) }],
        ports(),
        { now: 2 },
      );
      expect((await store.listRuns()).find((run) => run.id === report.runId)?.status, JSON.stringify(status)).toBe(
        stored,
      );
    }
  });

  it('playsPerArm 1e6 is rejected by configProblems: nothing is stored', async () => {
    const store = new MemoryRunStore();
    const report = await importIntoStore(
      store,
      [{ path: 'a.zip', bytes: await archiveWith({ playsPerArm: 1e6 }) }],
      ports(),
      { now: 2 },
    );
    expect(report.runId).toBeNull();
    expect(report.problems.at(-1)).toEqual({
      source: 'run.json',
      reason:
        'config rejected: playsPerArm must be an integer from 1 to 64, got 1000000. Fix: correct config in run.json, or export the run again from an app that accepts it',
      kept: false,
    });
    expect(await store.listRuns()).toEqual([]);
  });
});

describe('a hostile pool zip', () => {
  it('keeps the good game and lists every other entry with its reason', async () => {
    const zip = zipSync({
      'games/game_000000.py': strToU8(GOOD),
      '..\\evil.py': strToU8(GOOD),
      '../evil.py': strToU8(GOOD),
      'games/bad_utf8.py': new Uint8Array([0x78, 0x3d, 0xff, 0x0a]),
      'games/huge.py': strToU8(`x = 1\n${'#'.repeat(300 * 1024)}\n`),
    });
    const report = await importIntoStore(new MemoryRunStore(), [{ path: 'p.zip', bytes: zip }], ports(), {
      runId: 'p',
      now: 1,
    });
    expect(report.imported).toBe(1);
    expect(report.problems.map((p) => [p.source, p.kept, p.reason.split(/[;(]/)[0]!.trim()])).toEqual([
      ['p.zip:..\\evil.py', false, 'expected a relative path with "/" separators, saw a backslash in the path'],
      ['p.zip:../evil.py', false, 'expected a relative path with "/" separators, saw a ".." segment'],
      ['games/bad_utf8.py', false, 'expected UTF-8 text, saw invalid UTF-8 bytes'],
      ['games/huge.py', false, 'expected at most 256 KB of code, saw 307207 bytes'],
    ]);
  });
});
