import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime } from '../../../src/adapters/sandbox/node-sandbox.ts';
import { fileSandbox } from '../../fixtures/sandbox/file-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { GOOD_ENVS, loadGoodEnv, playEpisode, readEnv } from '../../fixtures/env-fixtures.ts';

// One real Node sandbox for the file.
const runtime = fileSandbox();

function rejection(promise: Promise<unknown>): Promise<{ code?: string; stage?: string; message?: string }> {
  return promise.then(
    () => ({ message: 'resolved instead of rejecting' }),
    (error: { code?: string; stage?: string; message?: string }) => error,
  );
}

describe('good environments', () => {
  it('cover all six game skills, each with a winning sequence of 3 or more actions', () => {
    expect(new Set(GOOD_ENVS.map((f) => f.skill)).size).toBe(6);
    for (const fixture of GOOD_ENVS) expect(fixture.winning.length, fixture.file).toBeGreaterThanOrEqual(3);
  });

  it('include environments that rely on pre-injected names without importing anything', () => {
    const bare = GOOD_ENVS.filter((f) => f.usesPreinjectedNames);
    expect(bare.length).toBeGreaterThan(0);
    for (const fixture of bare) {
      const source = readEnv('good', fixture.file);
      expect(source, fixture.file).not.toMatch(/^\s*(import|from)\s/m);
      expect(source, fixture.file).toMatch(/\b(deque|product)\(/);
    }
  });

  it.each(GOOD_ENVS)('$className ($skill) is won on seed $seed by its fixture actions', async (fixture) => {
    const handle = await loadGoodEnv(runtime(), fixture, 12);
    expect(handle.className).toBe(fixture.className);
    expect(handle.hasSolution).toBe(true);
    const { first, steps } = await playEpisode(handle, fixture.seed, fixture.winning);
    expect(first).toContain('\\boxed{');
    expect(steps).toHaveLength(fixture.winning.length);
    for (const step of steps.slice(0, -1)) {
      expect(step).toMatchObject({ terminated: false, truncated: false });
      expect(step.reward).toBeLessThan(1);
    }
    expect(steps.at(-1)).toMatchObject({ reward: 1, terminated: true, truncated: false });
    const solution = await handle.solution();
    expect(typeof solution).toBe('string');
    expect(solution!.length).toBeGreaterThan(0);
    await handle.dispose();
  });

  it.each(GOOD_ENVS)('$className truncates at max_turns on garbage actions', async (fixture) => {
    const handle = await loadGoodEnv(runtime(), fixture, 3);
    const { steps } = await playEpisode(handle, fixture.seed, Array(5).fill('\\boxed{zzz}'));
    expect(steps.map((s) => [s.terminated, s.truncated, s.reward])).toEqual([
      [false, false, 0],
      [false, false, 0],
      [false, true, 0],
    ]);
    await handle.dispose();
  });
});

describe('determinism', () => {
  it.each(GOOD_ENVS)(
    '$className replays the same whole episode for the same seed, also after other seeds and in a new load',
    async (fixture) => {
      const handle = await loadGoodEnv(runtime(), fixture);
      const first = await playEpisode(handle, fixture.seed, fixture.winning);
      await playEpisode(handle, fixture.seed + 1, fixture.winning);
      const again = await playEpisode(handle, fixture.seed, fixture.winning);
      const fresh = await loadGoodEnv(runtime(), fixture);
      const reloaded = await playEpisode(fresh, fixture.seed, fixture.winning);
      expect(again).toEqual(first);
      expect(reloaded).toEqual(first);
      await Promise.all([handle.dispose(), fresh.dispose()]);
    },
  );

  it('different seeds give different first observations', async () => {
    for (const fixture of GOOD_ENVS) {
      const handle = await loadGoodEnv(runtime(), fixture);
      const firsts = new Set<string>();
      for (const seed of [1, 2, 3, 4, 5]) firsts.add((await handle.reset(seed)).observation);
      expect(firsts.size, fixture.file).toBeGreaterThan(1);
      await handle.dispose();
    }
  });
});

describe('output size limit', () => {
  // reset(seed) returns `seed % 10000` characters, an emoji (two UTF-16 units) each when seed >= 10000.
  const SIZED_ENV = [
    'class SizedEnv:',
    '    def __init__(self, max_turns=5):',
    '        self.max_turns = max_turns',
    '    def reset(self, seed=None):',
    '        char = "\\U0001F600" if seed >= 10000 else "r"',
    '        return char * (seed % 10000), {}',
    '    def step(self, action):',
    '        return "s" * int(action), 0.0, False, False, {}',
    '',
  ].join('\n');
  let small: PyodideSandboxRuntime;

  beforeAll(async () => {
    small = createNodeSandboxRuntime({ maxObservationChars: 1000, spares: 1 });
    await small.warm();
  });

  afterAll(async () => {
    await small?.close();
  });

  it('accepts exactly the limit and refuses one character more, in reset and in step', async () => {
    const handle = await small.load(SIZED_ENV, { maxTurns: 5, timeoutMs: 5000 });
    expect((await handle.reset(1000)).observation).toBe('r'.repeat(1000));
    expect(await rejection(handle.reset(1001))).toMatchObject({ code: 'output_too_large', stage: 'play' });
    expect((await handle.step('1000')).observation).toHaveLength(1000);
    const tooLong = await rejection(handle.step('1001'));
    expect(tooLong).toMatchObject({ code: 'output_too_large', stage: 'play' });
    expect(tooLong.message).toContain('at most 1000 characters. Saw 1001 characters');
    expect(small.restarts).toBe(0);
  });

  it('counts Python characters: 1000 emoji pass, 1001 do not', async () => {
    const handle = await small.load(SIZED_ENV, { maxTurns: 5, timeoutMs: 5000 });
    expect((await handle.reset(11_000)).observation).toBe('\u{1F600}'.repeat(1000));
    expect(await rejection(handle.reset(11_001))).toMatchObject({ code: 'output_too_large' });
  });

  it('refuses a 64 MB observation inside the sandbox, quickly, without killing it', async () => {
    const restarts = runtime().restarts;
    const handle = await runtime().load(readEnv('broken', 'huge_observation.py'), { maxTurns: 5, timeoutMs: 5000 });
    const started = Date.now();
    const error = await rejection(handle.reset(1, { timeoutMs: 10_000 }));
    expect(error).toMatchObject({ code: 'output_too_large' });
    expect(error.message).toContain(`Saw ${64 * 1024 * 1024} characters`);
    expect(Date.now() - started).toBeLessThan(5000);
    expect(runtime().restarts).toBe(restarts);
    const ladder = GOOD_ENVS[0]!;
    const { steps } = await playEpisode(await loadGoodEnv(runtime(), ladder), ladder.seed, ladder.winning);
    expect(steps.at(-1)?.reward).toBe(1);
  });
});

describe('hangs', () => {
  it('a killed hang leaves the next environment unaffected', async () => {
    const ladder = GOOD_ENVS[0]!;
    const before = await playEpisode(await loadGoodEnv(runtime(), ladder), ladder.seed, ladder.winning);
    const restarts = runtime().restarts;
    const hang = await runtime().load(readEnv('broken', 'hang_step.py'), { maxTurns: 5, timeoutMs: 5000 });
    await hang.reset(3);
    const started = Date.now();
    const error = await rejection(hang.step('\\boxed{1}', { timeoutMs: 1000 }));
    expect(error.code).toContain('timeout');
    expect(error).toMatchObject({ code: 'step_timeout', stage: 'play' });
    expect(Date.now() - started).toBeLessThan(4000);
    expect(runtime().restarts).toBe(restarts + 1);
    // The hung environment went down with its sandbox; it is not silently half-alive.
    expect(await rejection(hang.reset(3))).toMatchObject({ code: 'env_lost' });
    const after = await playEpisode(await loadGoodEnv(runtime(), ladder), ladder.seed, ladder.winning);
    expect(after).toEqual(before);
  });

  it('recovers from a hang during load and during reset alike', async () => {
    for (const [file, call] of [
      ['hang_init.py', 'load'],
      ['hang_reset.py', 'reset'],
    ] as const) {
      const restarts = runtime().restarts;
      const error =
        call === 'load'
          ? await rejection(runtime().load(readEnv('broken', file), { maxTurns: 5, timeoutMs: 1000 }))
          : await rejection(
              runtime()
                .load(readEnv('broken', file), { maxTurns: 5, timeoutMs: 5000 })
                .then((h) => h.reset(1, { timeoutMs: 1000 })),
            );
      expect(error.code, file).toBe(`${call}_timeout`);
      expect(runtime().restarts, file).toBe(restarts + 1);
      const handle = await loadGoodEnv(runtime(), GOOD_ENVS[1]!);
      const { steps } = await playEpisode(handle, GOOD_ENVS[1]!.seed, GOOD_ENVS[1]!.winning);
      expect(steps.at(-1)?.reward, file).toBe(1);
    }
  });
});
