// Served suites and pools (the built-in held-out suite, the bundled starter pool) read through the
// pool reader, and the fixed-pool check of the new-run form (every environment validated, held-out
// ones left out), with the sandbox as in-process doubles.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/adapters/store/sha256.ts';
import { FixedPoolPicker, type FixedPoolDeps } from '../../src/app/suites/fixed-pool.svelte.ts';
import { checkPool } from '../../src/app/suites/pool-check.ts';
import {
  BUILTIN_SUITE_FOLDER,
  loadServedSuite,
  STARTER_POOL_FOLDER,
  type PoolFiles,
} from '../../src/app/suites/suite-source.ts';
import { suiteDigestText, type Suite } from '../../src/core/eval/suite.ts';
import type { ImportFile } from '../../src/formats/export/files.ts';
import { fakeSandbox } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { DOOR_CODE, GLOW_CODE, HELD_OUT_SUITE } from './experiment-fixtures.ts';

const PUBLIC = new URL('../../public/', import.meta.url);
const fromDisk = async (path: string) => readFileSync(new URL(path, PUBLIC), 'utf8');
const sandbox = fakeSandbox(HINT_HELPS_DOUBLES);

async function poolFiles(entries: Array<[string, string, string]>): Promise<PoolFiles> {
  const manifest = entries
    .map(([name, skill]) => JSON.stringify({ file_name: name, skill_name: skill, title: name.toUpperCase() }))
    .join('\n');
  const files: ImportFile[] = await Promise.all(
    [['manifest.jsonl', manifest] as const, ...entries.map(([name, , code]) => [`games/${name}`, code] as const)].map(
      async ([path, text]) => ({ path, text, sha256: await sha256Hex(text) }),
    ),
  );
  return { files, problems: [] };
}

describe('the built-in held-out suite', () => {
  it('loads through the pool reader: every game with its manifest skill and title', async () => {
    const suite = await loadServedSuite(fromDisk, BUILTIN_SUITE_FOLDER, 'builtin');
    const manifest = readFileSync(new URL(`${BUILTIN_SUITE_FOLDER}manifest.jsonl`, PUBLIC), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { file_name: string; skill_name: string; title: string });
    expect(suite.environments.map((e) => [e.id, e.skill, e.title]).sort()).toEqual(
      manifest.map((row) => [row.file_name.replace(/\.py$/, ''), row.skill_name, row.title]).sort(),
    );
    expect(suite.sha256).toBe(await sha256Hex(suiteDigestText(suite.environments)));
  });
});

describe('the bundled starter pool', () => {
  it('loads through the pool reader with the manifest’s skills and titles, and a sha256 of its digest text', async () => {
    const pool = await loadServedSuite(fromDisk, STARTER_POOL_FOLDER, 'starter');
    expect(pool.environments).toHaveLength(16);
    expect(new Set(pool.environments.map((e) => e.skill))).toEqual(
      new Set([
        'Mathematical Reasoning',
        'Logical Deduction',
        'Spatial Reasoning',
        'Pattern Recognition',
        'Optimization',
        'Causal Inference',
      ]),
    );
    expect(pool.environments.find((e) => e.id === 'liars_gate')).toMatchObject({
      skill: 'Logical Deduction',
      title: "Liar's gate",
    });
    expect(pool.sha256).toBe(await sha256Hex(suiteDigestText(pool.environments)));
  });

  it('lists exactly its games in the manifest, and never holds a held-out suite environment', async () => {
    const games = readdirSync(new URL(`${STARTER_POOL_FOLDER}games/`, PUBLIC));
    const listed = readFileSync(new URL(`${STARTER_POOL_FOLDER}manifest.jsonl`, PUBLIC), 'utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { file_name: string }).file_name);
    expect([...listed].sort()).toEqual([...games].sort());
    expect(games).not.toContain('liars_gate_broken.py');
    const suiteGames = new URL(`${BUILTIN_SUITE_FOLDER}games/`, PUBLIC);
    const held = existsSync(suiteGames)
      ? readdirSync(suiteGames).map((name) => readFileSync(new URL(name, suiteGames), 'utf8').trim())
      : [];
    const pool = games.map((name) =>
      readFileSync(new URL(`${STARTER_POOL_FOLDER}games/${name}`, PUBLIC), 'utf8').trim(),
    );
    expect(pool.filter((code) => held.includes(code))).toEqual([]);
    expect(existsSync(suiteGames) ? readdirSync(suiteGames).filter((name) => games.includes(name)) : []).toEqual([]);
  });
});

describe('checkPool', () => {
  it('keeps the valid environments and lists the invalid ones and any held-out one with the reason', async () => {
    const read = await poolFiles([
      ['glow.py', 'Logical Deduction', GLOW_CODE],
      ['door.py', 'Pattern Recognition', DOOR_CODE],
      ['broken.py', 'Optimization', 'class NoSuchGame:\n    pass\n'],
    ]);
    const heldOut: Suite = {
      ...HELD_OUT_SUITE,
      environments: HELD_OUT_SUITE.environments.filter((e) => e.id === 'glow_key'),
    };
    const progress: string[] = [];
    const checked = await checkPool('mine', read, {
      sandbox,
      heldOut,
      onProgress: (done, total) => progress.push(`${done}/${total}`),
    });
    expect(checked.pool).toMatchObject({
      name: 'mine',
      environments: [{ id: 'door', skill: 'Pattern Recognition', code: DOOR_CODE, title: 'DOOR.PY' }],
    });
    expect(checked.problems).toEqual([
      { source: 'broken', reason: expect.stringMatching(/^invalid at load \(no_env_class\): /), kept: false },
      {
        source: 'glow',
        reason:
          'the same code as the held-out environment glow_key; a training pool must not hold the games the agent is tested on',
        kept: false,
      },
    ]);
    expect(progress).toEqual(['1/3', '2/3', '3/3']);
  });
});

describe('FixedPoolPicker', () => {
  function picker(
    read: () => Promise<PoolFiles>,
    heldOut: () => Promise<Suite> = async () => HELD_OUT_SUITE,
  ): FixedPoolPicker {
    const deps: FixedPoolDeps = {
      sandbox: () => sandbox,
      heldOut,
      bundled: async () => ({ name: 'starter', read: await read() }),
      readPicked: async () => read(),
    };
    return new FixedPoolPicker(deps);
  }

  it('reads and validates the bundled pool, and says when nothing is usable or the held-out suite was not checked', async () => {
    const fine = picker(
      () => poolFiles([['door.py', 'Logical Deduction', DOOR_CODE.replace('pass', 'x = 1')]]),
      async () => Promise.reject(new Error('offline')),
    );
    await fine.useBundled();
    expect(fine.state).toMatchObject({
      phase: 'ready',
      source: 'the bundled pool',
      done: 1,
      total: 1,
      error: null,
      pool: { name: 'starter' },
    });
    expect(fine.state.problems).toEqual([
      {
        source: 'the bundled pool',
        reason: 'the held-out suite could not be read, so the pool was not checked against it',
        kept: true,
      },
    ]);

    const useless = picker(() => poolFiles([['glow.py', 'Logical Deduction', GLOW_CODE]]));
    await useless.usePicked([new File(['x'], 'pool.zip')]);
    expect(useless.state).toMatchObject({
      phase: 'failed',
      source: 'pool.zip',
      pool: null,
      error: 'No environment of pool.zip can be used: every one was left out (reasons below).',
    });
    useless.clear();
    expect(useless.state).toMatchObject({ phase: 'none', pool: null, problems: [] });
  });

  it('reports a pool that cannot be read, and ignores a check that a newer choice replaced', async () => {
    const broken = picker(async () => Promise.reject(new Error('HTTP 404')));
    await broken.useBundled();
    expect(broken.state).toMatchObject({ phase: 'failed', error: 'the bundled pool could not be read: HTTP 404' });
    const slow = picker(() => poolFiles([['door.py', 'Logical Deduction', DOOR_CODE]]));
    const pending = slow.useBundled();
    slow.clear();
    await pending;
    expect(slow.state.phase).toBe('none');
  });
});
