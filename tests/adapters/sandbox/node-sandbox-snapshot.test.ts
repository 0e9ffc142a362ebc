import { chmodSync, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadPyodide } from 'pyodide';
import {
  createNodeSandboxRuntime,
  nodeWorkerBundle,
  privateCacheDirectory,
  pyodideDirectory,
  spawnNodeSandbox,
  type SnapshotChoice,
} from '../../../src/adapters/sandbox/node-sandbox.ts';
import { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';
import { precompileSources, privateFunctions, type PyCallable } from '../../../src/adapters/sandbox/sandbox-service.ts';
import { tempDir } from '../../fixtures/temp-dirs.ts';

// Draws at load time, before the harness seeds \`random\` for a reset.
const UNSEEDED = `
ROLL = random.random()

class DiceEnv:
    def __init__(self, max_turns=3):
        self.max_turns = max_turns
    def reset(self, seed=None):
        return "roll " + repr(ROLL) + " " + repr(hash("spade")), {}
    def step(self, action):
        return "done", 0.0, True, False, {}
`;

const runtimes: PyodideSandboxRuntime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((r) => r.close()));
});

function runtimeStarting(start: SnapshotChoice): PyodideSandboxRuntime {
  const runtime =
    start === 'shared'
      ? createNodeSandboxRuntime({ spares: 1 })
      : new PyodideSandboxRuntime((signal) => spawnNodeSandbox(start, signal), { spares: 1 });
  runtimes.push(runtime);
  return runtime;
}

async function firstObservation(runtime: PyodideSandboxRuntime): Promise<string> {
  const handle = await runtime.load(UNSEEDED, { maxTurns: 3, timeoutMs: 5000 });
  try {
    return (await handle.reset(1, { timeoutMs: 2000 })).observation;
  } finally {
    await handle.dispose();
  }
}

describe('interpreters restored from the shared memory snapshot', () => {
  it('are made from a snapshot kept beside the sandbox bundle', async () => {
    const runtime = runtimeStarting('shared');
    expect(await firstObservation(runtime)).toMatch(/^roll 0\.\d+/);
    expect(existsSync((await nodeWorkerBundle()).replace(/\.mjs$/, '.snapshot'))).toBe(true);
  });

  it('each draw their own random numbers at load time, as a cold start would', async () => {
    const runtime = runtimeStarting('shared');
    const rolls = [await firstObservation(runtime), await firstObservation(runtime), await firstObservation(runtime)];
    const randoms = rolls.map((r) => r.split(' ')[1]);
    expect(new Set(randoms).size).toBe(3);
  });

  it('start with no trace of the precompiled sandbox code where an environment could look', async () => {
    const probe = `
import sys
class TraceEnv:
    def __init__(self, max_turns=3):
        self.max_turns = max_turns
    def reset(self, seed=None):
        return repr(sorted(k for k in vars(sys.modules["__main__"]) if "spade" in k)), {}
    def step(self, action):
        return "done", 0.0, True, False, {}
`;
    const handle = await runtimeStarting('shared').load(probe, { maxTurns: 3, timeoutMs: 5000 });
    expect((await handle.reset(1, { timeoutMs: 2000 })).observation).toBe('[]');
    await handle.dispose();
  });

  it('a damaged snapshot file costs a cold start, never a failed environment', async () => {
    const file = join(tempDir('spade-snapshot-'), 'damaged.snapshot');
    writeFileSync(file, Buffer.alloc(4096, 7));
    const runtime = runtimeStarting({ file });
    expect(await firstObservation(runtime)).toMatch(/^roll 0\.\d+/);
  });
});

describe('sources compiled before a snapshot is taken', () => {
  it('are run from their code objects, found by their text; other sources are compiled', async () => {
    const pyodide = await loadPyodide({
      indexURL: pyodideDirectory(),
      jsglobals: Object.create(null),
      stdout: () => undefined,
      stderr: () => undefined,
    });
    const kept = 'def which():\n    return "compiled from the text"\n';
    const other = 'def other():\n    return "compiled now"\n';
    precompileSources(pyodide, [kept]);
    // Swap the kept code object for another one: a lookup by text runs the swapped one.
    pyodide.runPython(
      '__spade_compiled__[KEPT] = compile("def which():\\n    return \'the kept code object\'\\n", "<swap>", "exec")',
      {
        globals: pyodide.toPy({ KEPT: kept, __spade_compiled__: pyodide.globals.get('__spade_compiled__') }) as never,
      },
    );
    const [which, other_] = privateFunctions(pyodide, [kept, other], ['which', 'other']) as [PyCallable, PyCallable];
    expect([which(), other_()]).toEqual(['the kept code object', 'compiled now']);
  });
});

describe('where the bundle and the snapshot are kept', () => {
  const base = () => tempDir('spade-cache-base-');

  it('is spade-lab in the temp directory, created for this user only', () => {
    const root = base();
    const dir = privateCacheDirectory(root);
    expect(dir).toBe(join(root, 'spade-lab'));
    expect(statSync(dir).mode & 0o777).toBe(0o700);
  });

  it('is a fresh private directory when spade-lab is writable by others or is not a directory', () => {
    const open = base();
    mkdirSync(join(open, 'spade-lab'));
    chmodSync(join(open, 'spade-lab'), 0o777);
    const elsewhere = privateCacheDirectory(open);
    expect(elsewhere).not.toBe(join(open, 'spade-lab'));
    expect(elsewhere.startsWith(join(open, 'spade-lab-'))).toBe(true);
    expect(statSync(elsewhere).mode & 0o077).toBe(0);

    const file = base();
    writeFileSync(join(file, 'spade-lab'), 'not a directory');
    expect(privateCacheDirectory(file).startsWith(join(file, 'spade-lab-'))).toBe(true);
  });
});
