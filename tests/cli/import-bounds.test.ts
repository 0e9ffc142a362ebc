// `spade validate` and `spade import` on attack inputs written by the test: files
// that are valid code but look like replies, a zip with unsafe and lying entries, a giant JSONL
// line, and a corpus import over an existing one.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { beforeAll, describe, expect, it } from 'vitest';
import { MAX_LINE_CHARS } from '../../src/formats/import/import-limits.ts';
import { inProcessSpade, ROOT } from './spade-cli.ts';
import { tempDir } from '../fixtures/temp-dirs.ts';

const GOOD = readFileSync(join(ROOT, 'public/pools/starter/games/number_ladder.py'), 'utf8');
const FENCED = GOOD.replace(
  '    """Mathematical reasoning:',
  '    """Reply in a block such as\n```python\n\\boxed{1}\n```\n    Mathematical reasoning:',
);
const THINK = GOOD.replace(
  '    def __init__(self, max_turns=12):',
  '    TAG = "<think>"\n\n    def __init__(self, max_turns=12):',
);
// In-process (the subprocess smoke tests of validate and import are in cli.test.ts and export-import.test.ts).
const spade = inProcessSpade();
let dir: string;

beforeAll(() => {
  dir = tempDir('spade-bounds-');
  writeFileSync(join(dir, 'fenced.py'), FENCED);
  writeFileSync(join(dir, 'think.py'), THINK);
});

describe('files are code', () => {
  it('validate accepts valid files with a fenced block in a docstring or "<think>" in a string', async () => {
    const result = await spade('validate', join(dir, 'fenced.py'), join(dir, 'think.py'), '--json');
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { ok: boolean }).ok),
    ).toEqual([true, true]);
  });
});

describe('spade import on attack files', () => {
  it('a zip with unsafe paths and a lying header: the good game is imported, each bad entry printed, exit 1', async () => {
    const zip = zipSync({
      'games/game_000000.py': strToU8(THINK),
      '..\\win.py': strToU8(GOOD),
      '/abs.py': strToU8(GOOD),
      'games/liar.py': [new Uint8Array(8 * 1024 * 1024), { level: 9 }],
    });
    const view = new DataView(zip.buffer);
    const name = strToU8('games/liar.py');
    for (let at = 0; at < zip.length - 46; at++) {
      if (view.getUint32(at, true) === 0x02014b50 && name.every((b, i) => zip[at + 46 + i] === b))
        view.setUint32(at + 24, 10, true);
    }
    writeFileSync(join(dir, 'attack.zip'), zip);
    const result = await spade('import', join(dir, 'attack.zip'), '--out', join(dir, 'from-zip'));
    expect(result.status, result.stderr).toBe(1);
    expect(result.stdout).toMatch(
      /^skipped {2}attack\.zip:\.\.\\win\.py: expected a relative path with "\/" separators, saw a backslash in the path/m,
    );
    expect(result.stdout).toMatch(
      /^skipped {2}attack\.zip:\/abs\.py: expected a relative path with "\/" separators, saw an absolute path/m,
    );
    expect(result.stdout).toMatch(
      /^skipped {2}attack\.zip:games\/liar\.py: the directory declares 10 bytes, the data inflates to more/m,
    );
    expect(result.stdout).toMatch(/imported 1 of 1 environment \(pool\)/);
  });

  it('a JSONL line over the cap is one problem line and never reaches the sandbox', async () => {
    const rows = [
      JSON.stringify({ game_id: 'big', code: 'x = 1\n' + '#'.repeat(MAX_LINE_CHARS) }),
      JSON.stringify({ game_id: 'ok', code: GOOD }),
    ].join('\n');
    writeFileSync(join(dir, 'rows.jsonl'), rows);
    const result = await spade('import', join(dir, 'rows.jsonl'), '--out', join(dir, 'from-rows'));
    expect(result.status).toBe(1);
    expect(result.stdout).toMatch(
      new RegExp(
        `^skipped {2}rows\\.jsonl:1: expected a line of at most ${MAX_LINE_CHARS} characters, saw \\d+; the line was not read`,
        'm',
      ),
    );
    expect(result.stdout).toMatch(/imported 1 of 1 environment \(rows\)/);
  });

  it('a corpus never replaces an existing corpus.jsonl unless --replace', async () => {
    const out = join(dir, 'corpus-out');
    writeFileSync(join(dir, 'a.jsonl'), '{"text":"first corpus"}\n');
    writeFileSync(join(dir, 'b.jsonl'), '{"text":"second corpus"}\n');
    expect((await spade('import', join(dir, 'a.jsonl'), '--out', out)).status).toBe(0);
    const refused = await spade('import', join(dir, 'b.jsonl'), '--out', out);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(
      'corpus.jsonl already exists; expected a new place for the corpus. Nothing was written. Fix: pass --replace to overwrite it, or choose another --out',
    );
    expect(readFileSync(join(out, 'corpus.jsonl'), 'utf8')).toContain('first corpus');
    expect((await spade('import', join(dir, 'b.jsonl'), '--out', out, '--replace')).status).toBe(0);
    expect(readFileSync(join(out, 'corpus.jsonl'), 'utf8')).toContain('second corpus');
  });
});
