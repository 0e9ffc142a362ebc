// The built-in suite as data: its manifest, its pool import and the scripted players' lookup (no Python here).
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ImportFile } from '../../src/formats/export/files.ts';
import { detectImportKind } from '../../src/formats/import/import-files.ts';
import { parsePoolFiles } from '../../src/formats/import/pool-import.ts';
import { GAME_SKILLS } from '../../src/core/skills.ts';
import { policyForObservation, SUITE_POLICIES } from '../../src/adapters/llm/scripted/suite-policies.ts';

const SUITE = join(import.meta.dirname, '../../public/suites/builtin');
const manifest: Array<{ file_name: string; skill_name: string; title: string }> = readFileSync(
  join(SUITE, 'manifest.jsonl'),
  'utf8',
)
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));
const gameFiles = readdirSync(join(SUITE, 'games')).sort();

/** The suite folder as an import sees it: paths relative to the folder. */
function suiteFiles(): ImportFile[] {
  const paths = ['manifest.jsonl', ...gameFiles.map((name) => `games/${name}`)];
  return paths.map((path) => {
    const text = readFileSync(join(SUITE, path), 'utf8');
    return { path, text, sha256: createHash('sha256').update(text).digest('hex') };
  });
}

describe('the built-in suite manifest', () => {
  it('lists every game file once, four per skill, skill by skill, with unique titles', () => {
    expect(manifest.map((row) => row.file_name).sort()).toEqual(gameFiles);
    expect(gameFiles).toHaveLength(24);
    expect(new Set(manifest.map((row) => row.title)).size).toBe(24);
    const skills = Object.keys(GAME_SKILLS);
    expect(manifest.map((row) => row.skill_name)).toEqual(skills.flatMap((skill) => [skill, skill, skill, skill]));
  });

  it('gives every game a first-observation title that matches its class file and a scripted player of the same skill', () => {
    for (const row of manifest) {
      const code = readFileSync(join(SUITE, 'games', row.file_name), 'utf8');
      expect(code, row.file_name).toContain(`[${row.title}]`);
      expect(code, row.file_name).toMatch(/^class \w+Env:/m);
      const policy = SUITE_POLICIES.find((p) => p.title === row.title);
      expect(policy?.skill, row.title).toBe(row.skill_name);
    }
    expect(SUITE_POLICIES.map((p) => p.title)).toEqual(manifest.map((row) => row.title));
  });

  it('keeps each game short and standard-library only, drawing randomness from random.Random(seed)', () => {
    const stdlib = new Set(['random', 're', 'math', 'heapq', 'collections', 'itertools']);
    for (const name of gameFiles) {
      const code = readFileSync(join(SUITE, 'games', name), 'utf8');
      expect(code.trimEnd().split('\n').length, name).toBeLessThanOrEqual(90);
      for (const [, module] of code.matchAll(/^(?:import|from) (\w+)/gm))
        expect(stdlib.has(module!), `${name} imports ${module}`).toBe(true);
      expect(code, name).toContain('random.Random(seed)');
      expect(code, name).not.toMatch(/random\.(?:randint|choice|random|sample|shuffle|seed)\(/);
    }
  });
});

describe('the built-in suite as a pool import', () => {
  it('is read as a pool: 24 candidates, each with its manifest skill and no problems', () => {
    const files = suiteFiles();
    expect(detectImportKind(files)).toBe('pool');
    const { candidates, problems } = parsePoolFiles(files);
    expect(problems).toEqual([]);
    expect(candidates).toHaveLength(24);
    const skillOf = new Map(manifest.map((row) => [`games/${row.file_name}`, row.skill_name]));
    for (const candidate of candidates) {
      expect(candidate.skill, candidate.source).toBe(skillOf.get(candidate.source));
      expect(candidate.code).toBe(readFileSync(join(SUITE, candidate.source), 'utf8'));
      expect(candidate.hint).toBeNull();
    }
  });
});

describe('policyForObservation', () => {
  it('finds the player by the [Title] prefix, also with a hint appended, and nothing for other text', () => {
    const first = '[Jug Measure] Jug A holds up to 5 litres and jug B up to 8.\n\nHINT: [Tile Turner] is another game.';
    expect(policyForObservation(first)?.title).toBe('Jug Measure');
    expect(policyForObservation('[Unknown Game] hello')).toBeNull();
    expect(policyForObservation('Jug Measure without brackets')).toBeNull();
    expect(policyForObservation('')).toBeNull();
  });

  it('plays from the observation text: a hint full of numbers does not change the move', () => {
    const first =
      '[Beacon Sync] Three beacons flash every 4, 6 and 10 seconds. All three flashed together at second 5. At which second after second 100 do all three next flash together?';
    const policy = policyForObservation(first)!;
    expect(policy.win([first])).toBe('\\boxed{125}');
    expect(policy.win([`${first}\n\nHINT: every 7, 8 and 9 seconds, after second 999`])).toBe('\\boxed{125}');
    expect(policy.lose([first])).toBe('\\boxed{245}');
  });
});
