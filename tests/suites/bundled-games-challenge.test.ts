// Every game the app ships (the built-in held-out suite, the starter pool and the demo's own
// game) passes validation in the real Node sandbox under two unpredictable challenges: one drawn
// from the code's hash and a nonce (as `spade validate` and imports draw it) and one drawn from a
// seed (as a run draws it). The built-in suite's games get both in builtin-suite.test.ts, which
// already starts interpreters for them; this file validates the starter pool and the demo's game.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileSandbox } from '../fixtures/sandbox/file-sandbox.ts';
import { DEFAULT_VALIDATION, drawChallenge, validateEnvironment } from '../../src/core/env/validate-env.ts';

const runtime = fileSandbox();

const ROOT = join(import.meta.dirname, '../..');
const pyFiles = (folder: string) =>
  readdirSync(join(ROOT, folder))
    .filter((f) => f.endsWith('.py'))
    .map((f) => join(folder, f));
const BUILTIN = pyFiles('public/suites/builtin/games');
const GAMES = [...pyFiles('public/pools/starter/games'), 'tests/fixtures/demo-envs/grid_rover.py'];

describe('bundled games under the validation challenge', () => {
  it('finds the 40 shipped games and the demo game', () => {
    expect(BUILTIN.length + GAMES.length).toBe(41);
    expect(BUILTIN.length).toBe(24);
  });

  it.each(GAMES)('%s is valid under a hash-and-nonce challenge and a run-seed challenge', async (file) => {
    // The demo's game is a designer reply in the demo script: it is validated as one (its f-string braces need the repair).
    const demo = file.startsWith('tests/');
    const text = readFileSync(join(ROOT, file), 'utf8');
    const code = demo ? `\`\`\`python\n${text}\`\`\`` : text;
    const options = { ...DEFAULT_VALIDATION, source: demo ? ('reply' as const) : ('code' as const) };
    for (const report of [
      await validateEnvironment(code, runtime(), { ...options, nonce: 0x5eed }),
      await validateEnvironment(code, runtime(), {
        ...options,
        challenge: drawChallenge(BUILTIN.length + GAMES.indexOf(file) + 1),
      }),
    ]) {
      expect({ ok: report.ok, code: report.code, message: report.message }).toEqual({
        ok: true,
        code: null,
        message: null,
      });
    }
  });
});
