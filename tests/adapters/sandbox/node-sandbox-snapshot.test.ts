import { chmodSync, existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNodeSandboxRuntime, nodeWorkerBundle, privateCacheDirectory, spawnNodeSandbox, type SnapshotChoice } from '../../../src/adapters/sandbox/node-sandbox.ts';
import { PyodideSandboxRuntime } from '../../../src/adapters/sandbox/pyodide-runtime.ts';

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
  const runtime = start === 'shared' ? createNodeSandboxRuntime({ spares: 1 }) : new PyodideSandboxRuntime((signal) => spawnNodeSandbox(start, signal), { spares: 1 });
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

  it('a damaged snapshot file costs a cold start, never a failed environment', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'spade-snapshot-')), 'damaged.snapshot');
    writeFileSync(file, Buffer.alloc(4096, 7));
    const runtime = runtimeStarting({ file });
    expect(await firstObservation(runtime)).toMatch(/^roll 0\.\d+/);
  });
});

describe('where the bundle and the snapshot are kept', () => {
  const base = () => mkdtempSync(join(tmpdir(), 'spade-cache-base-'));

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
