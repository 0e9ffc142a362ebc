// Python is cut off from JavaScript in the real Node sandbox: js_cutoff.py tries every known route
// (modules, finders, builtins, gc, extension modules, JS-bridge classes, a reachability search).
// The same fixture runs first in an unsealed Pyodide in this process as the control, where the
// routes do work, so every "denied" below can fail.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadPyodide } from 'pyodide';
import { createNodeSandboxRuntime, pyodideDirectory } from '../../../src/adapters/sandbox/node-sandbox.ts';
import type { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { validateEnvironment } from '../../../src/core/env/validate-env.ts';
import { readEnv } from '../../fixtures/env-fixtures.ts';

type Outcome = { ok: true; value: string } | { ok: false; error: string };
type Report = Record<string, Outcome> & { reachability: { visited: number; exhausted: boolean; found: string[] } };

const CUTOFF = readEnv('hostile', 'js_cutoff.py');
const IMPORTS = ['js', 'pyodide_js', '_pyodide_core', 'ctypes', '_ctypes', '_testcapi', '_testinternalcapi'];
const ROUTES = [
  'pyodide.ffi.to_js({}) gives a JS object',
  "BuiltinImporter.find_spec('_pyodide_core')",
  '_imp.create_builtin(_pyodide_core spec)',
  '_pyodide_core in sys.builtin_module_names',
  'gc.get_objects()',
  'gc.get_referrers(sys)',
  'gc.get_referents(sys.modules)',
  "a fresh gc module's get_objects()",
  'importlib.reload(gc).get_objects()',
  'a finder on sys.meta_path holding jsproxies',
  'construct a JS value from a JS-bridge class',
];

let runtime: PyodideSandboxRuntime;
let sealed: Report;
let control: Report;

async function unsealedRun(): Promise<Report> {
  const pyodide = await loadPyodide({
    indexURL: pyodideDirectory(),
    jsglobals: Object.create(null),
    stdout: () => undefined,
    stderr: () => undefined,
  });
  pyodide.globals.set('SOURCE', CUTOFF);
  const text = String(
    pyodide.runPython('space = {"__name__": "control"}\nexec(SOURCE, space)\nspace["JsCutoffEnv"]().reset()[0]'),
  );
  return JSON.parse(text.slice('CUTOFF '.length)) as Report;
}

beforeAll(async () => {
  runtime = createNodeSandboxRuntime({ spares: 1 });
  await runtime.warm();
  const handle = await runtime.load(CUTOFF, { maxTurns: 5, timeoutMs: 30_000 });
  const observation = (await handle.reset(1, { timeoutMs: 60_000 })).observation;
  await handle.dispose();
  expect(observation.startsWith('CUTOFF ')).toBe(true);
  sealed = JSON.parse(observation.slice('CUTOFF '.length)) as Report;
  control = await unsealedRun();
}, 180_000);

afterAll(async () => {
  await runtime?.close();
});

describe('control: in an unsealed Pyodide the same routes reach JS', () => {
  it.each([...IMPORTS.map((n) => `import ${n}`), ...ROUTES])('%s works there', (name) => {
    expect(control[name]?.ok, name).toBe(true);
  });

  it('and the reachability search finds JS proxies and JS-bridge functions', () => {
    expect(control.reachability.exhausted).toBe(true);
    expect(control.reachability.found).toEqual(expect.arrayContaining(['JsProxy', 'builtin_function_or_method']));
  });
});

describe('in the sealed sandbox interpreter', () => {
  it.each(IMPORTS)('import %s fails, also with the import finders reset to the standard ones', (name) => {
    expect(sealed[`import ${name}`], name).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^(ModuleNotFoundError|ImportError)/),
    });
    expect(sealed[`import ${name} with only the standard finders`], name).toMatchObject({ ok: false });
  });

  it.each(ROUTES)('%s fails', (name) => {
    expect(sealed[name]?.ok, name).toBe(false);
  });

  it('no builtin or extension module can be created any more', () => {
    expect((sealed['_imp.create_builtin(_pyodide_core spec)'] as { error: string }).error).toMatch(
      /^AttributeError: .*create_builtin/,
    );
    expect((sealed['load a compiled extension module (.so)'] as { error: string }).error).toMatch(
      /^AttributeError: .*create_dynamic/,
    );
  });

  it('nothing reachable without gc is a JS proxy or a JS-bridge function', () => {
    expect(sealed.reachability.exhausted).toBe(true);
    expect(sealed.reachability.visited).toBeGreaterThan(10_000);
    expect(sealed.reachability.found).toEqual([]);
  });

  it('the next environments get their own verdicts: a broken one still fails, a valid one still passes', async () => {
    expect((await validateEnvironment(readEnv('broken', 'reward_nan.py'), runtime)).code).toBe('reward_not_finite');
    expect((await validateEnvironment(readEnv('good', 'number_ladder.py'), runtime)).ok).toBe(true);
  });
});
