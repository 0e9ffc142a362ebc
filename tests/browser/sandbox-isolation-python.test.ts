// Proves in real Chromium that environment code cannot reach the app from Python: through the real
// sandbox runtime, every route from Python to JavaScript fails, and nothing reaches the network or
// the app's storage. The recorders and storage checks have their control run in the shared rig
// (sandbox-isolation-rig.ts), so every "nothing happened" assertion can fail. The JavaScript-level
// attacks are in sandbox-isolation-js.test.ts.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { SpadeTestApi } from './pages/sandbox-page.ts';
import {
  controlConnections,
  describeNoLeakOverTheRun,
  itFindsAppStorageIntact,
  leak,
  leaks,
  openIsolationRig,
  page,
  show,
  sleep,
} from './sandbox-isolation-rig.ts';
import { CUTOFF_IMPORTS, CUTOFF_ROUTES, JS_CUTOFF } from './sandbox-attacks.ts';

openIsolationRig();

// --- a. Python level, through the real runtime ----------------------------------------------------

type PythonOutcome = { ok: true; value: string } | { ok: false; error: string };

describe('a. Python level: environment code in the real browser runtime is cut off from JavaScript', () => {
  // The same fixture's control run (an unsealed Pyodide, where these routes work) is in
  // tests/adapters/sandbox/node-sandbox-cutoff.test.ts; the seal is the same code in both sandboxes.
  let outcomes: Record<string, PythonOutcome> & {
    reachability?: { visited: number; exhausted: boolean; found: string[] };
  };
  let lazyFile: { result: Awaited<ReturnType<SpadeTestApi['runEnv']>>; restartsBefore: number; restartsAfter: number };

  beforeAll(async () => {
    const startMs = await page.evaluate(() => window.spadeTest.startRuntime({ spares: 1 }));
    console.log(`browser sandbox started in ${startMs} ms`);
    const lazyCode = [
      'class LazyFileEnv:',
      '    def reset(self, seed=None):',
      '        import pyodide_js',
      `        pyodide_js.FS.createLazyFile("/tmp", "leak.txt", "${leak.origin}/leak/python/lazyfile", True, False)`,
      '        with open("/tmp/leak.txt") as handle:',
      '            return handle.read(), {}',
      '    def step(self, action):',
      '        return "x", 0.0, True, False, {}',
    ].join('\n');
    const restartsBefore = await page.evaluate(() => window.spadeTest.restarts());
    const lazyResult = await page.evaluate((source) => window.spadeTest.runEnv(source), lazyCode);
    lazyFile = {
      result: lazyResult,
      restartsBefore,
      restartsAfter: await page.evaluate(() => window.spadeTest.restarts()),
    };
    const result = await page.evaluate(
      (source) => window.spadeTest.runEnv(source, { resetTimeoutMs: 60_000 }),
      JS_CUTOFF,
    );
    if (!result.ok) throw new Error(`cut-off environment did not run: ${result.code} ${result.message}`);
    console.log(`cut-off environment ran in ${result.ms} ms`);
    outcomes = JSON.parse(result.observation.slice('CUTOFF '.length));
    show('Python routes to JavaScript', outcomes);
  });

  it.each(CUTOFF_IMPORTS)('import %s fails, also with the import finders reset to the standard ones', (name) => {
    expect(outcomes[`import ${name}`], name).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^(ModuleNotFoundError|ImportError)/),
    });
    expect(outcomes[`import ${name} with only the standard finders`]?.ok, name).toBe(false);
  });

  it.each(CUTOFF_ROUTES)('%s fails', (name) => {
    expect(outcomes[name]?.ok, name).toBe(false);
  });

  it('nothing reachable without gc is a JS proxy or a JS-bridge function', () => {
    expect(outcomes.reachability?.exhausted).toBe(true);
    expect(outcomes.reachability?.visited).toBeGreaterThan(10_000);
    expect(outcomes.reachability?.found).toEqual([]);
  });

  it('FS.createLazyFile (a synchronous XHR from the worker) is out of reach: pyodide_js does not import', () => {
    console.log(`FS.createLazyFile attempt: ${JSON.stringify(lazyFile.result)}`);
    expect(lazyFile.result).toMatchObject({ ok: false, code: 'reset_exception' });
    expect((lazyFile.result as { message: string }).message).toMatch(/ModuleNotFoundError: .*pyodide_js/);
    expect(lazyFile.restartsAfter).toBe(lazyFile.restartsBefore);
  });

  it('no Python attempt reached the network, and the next environments keep their own verdicts', async () => {
    await sleep(1500);
    expect(leaks()).toEqual([]);
    expect(leak.tcpConnections).toBe(controlConnections);
    const again = await page.evaluate(() =>
      window.spadeTest.runEnv(
        'class OkEnv:\n    def reset(self, seed=None):\n        return "fine", {}\n    def step(self, action):\n        return "x", 0.0, True, False, {}\n',
      ),
    );
    expect(again).toMatchObject({ ok: true, observation: 'fine' });
    const broken = await page.evaluate(() =>
      window.spadeTest.validate(
        'class NanEnv:\n    def reset(self, seed=None):\n        return "go", {}\n    def step(self, action):\n        return "x", float("nan"), False, False, {}\n',
      ),
    );
    expect(broken).toMatchObject({ ok: false, code: 'reward_not_finite' });
  });

  it('look-alike types and lying lengths are refused with stable codes', async () => {
    const fakeBool = readFileSync(new URL('../fixtures/envs/hostile/forge/fake_bool.py', import.meta.url), 'utf8');
    const lyingLen = readFileSync(new URL('../fixtures/envs/hostile/forge/lying_len.py', import.meta.url), 'utf8');
    expect(await page.evaluate((source) => window.spadeTest.validate(source), fakeBool)).toMatchObject({
      ok: false,
      code: 'step_bad_flags',
    });
    const long = await page.evaluate((source) => window.spadeTest.runEnv(source), lyingLen);
    expect(long).toMatchObject({ ok: false, code: 'output_too_large' });
    expect((long as { message: string }).message).toContain('Saw 1000000 characters');
    await page.evaluate(() => window.spadeTest.closeRuntime());
  });
});

describe('after the Python attempts', () => {
  itFindsAppStorageIntact();
});

describeNoLeakOverTheRun();
