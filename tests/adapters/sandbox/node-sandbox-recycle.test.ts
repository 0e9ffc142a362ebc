// A disposed environment's interpreter is restored byte for byte to its sealed state and serves a
// later environment (memory-image.ts): nothing the first one left in Python reaches the next, which
// sees exactly what a freshly booted interpreter shows; what lives outside that memory (files, the
// working folder) or too much grown memory stops the restore instead. Real Pyodide, Node sandbox.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnNodeSandbox } from '../../../src/adapters/sandbox/node-sandbox.ts';
import { PyodideSandboxRuntime, type SpawnSandbox } from '../../../src/adapters/sandbox/pyodide-runtime.ts';

const LOAD = { maxTurns: 3, timeoutMs: 20_000 };
const CALL = { timeoutMs: 20_000 };

// Every child the runtime starts, by boot order, with the environments' code loaded into it.
const children: { loads: string[]; killed: boolean }[] = [];
const spawn: SpawnSandbox = async (signal) => {
  const proc = await spawnNodeSandbox('shared', signal);
  const child = { loads: [] as string[], killed: false };
  children.push(child);
  return {
    exited: proc.exited,
    kill: () => {
      child.killed = true;
      proc.kill();
    },
    call: (request) => {
      if (request.includes('"op":"load"')) child.loads.push(request);
      return proc.call(request);
    },
  };
};
const childOf = (marker: string) => children.findIndex((child) => child.loads.some((load) => load.includes(marker)));

let runtime: PyodideSandboxRuntime;
beforeAll(async () => {
  runtime = new PyodideSandboxRuntime(spawn, { spares: 1, kept: 2, bootsAtOnce: 1 });
  await runtime.warm();
});
afterAll(() => runtime.close());

const TAMPER = `
import builtins, collections, json, os, random, sys, types
builtins.spade_leak = "leaked"
sys.modules["leaky_module"] = types.ModuleType("leaky_module")
json.dumps = lambda *args, **kwargs: "forged"
collections.Counter.leak = 1
os.environ["SPADE_LEAK"] = "1"
sys.setrecursionlimit(4321)
sys.addaudithook(lambda event, args: (_ for _ in ()).throw(RuntimeError("audit")) if event == "os.listdir" else None)
random.seed(1234)
kept = [bytearray(1_000_000) for _ in range(40)]

class TamperEnv:
    def reset(self, seed=None):
        return "tampered", {}

    def step(self, action):
        return "tampered", 0.0, True, False, {}
`;

// What a probe reports about the interpreter it runs in; `marker` tells its loads apart.
const probe = (marker: string) => `
# ${marker}
import builtins, collections, json, os, random, sys

DRAWN = random.random()

def facts():
    try:
        listed = len(os.listdir("/")) > 0
    except RuntimeError:
        listed = False
    return json.dumps({
        "builtin": hasattr(builtins, "spade_leak"),
        "module": "leaky_module" in sys.modules,
        "json": json.dumps([1]),
        "counter": hasattr(collections.Counter, "leak"),
        "environ": "SPADE_LEAK" in os.environ,
        "recursion": sys.getrecursionlimit(),
        "listdir": listed,
        "modules": len(sys.modules),
    })

class ProbeEnv:
    def reset(self, seed=None):
        return facts(), {"random": DRAWN}

    def step(self, action):
        return facts(), 0.0, True, False, {}
`;

async function run(code: string): Promise<{ facts: unknown; random: unknown }> {
  const handle = await runtime.load(code, LOAD);
  const { observation, info } = await handle.reset(1, CALL);
  await handle.dispose();
  return { facts: JSON.parse(observation) as unknown, random: info['random'] };
}

describe('interpreters restored after an environment', () => {
  it('give the next environment exactly what a freshly booted interpreter gives it', async () => {
    const tamper = await runtime.load(TAMPER, LOAD);
    await tamper.reset(1, CALL);
    await runtime.whenSpareReady();
    const restoredBefore = runtime.recycled;
    await tamper.dispose();
    expect(runtime.recycled).toBe(restoredBefore + 1);
    // The pool now holds the fresh spare and the restored interpreter: two probes take one each.
    const [first, second] = await Promise.all([run(probe('probe one')), run(probe('probe two'))]);
    const tampered = childOf('TamperEnv');
    expect([childOf('probe one'), childOf('probe two')]).toContain(tampered);
    expect(first.facts).toEqual(second.facts);
    expect(first.facts).toMatchObject({
      builtin: false,
      module: false,
      json: '[1]',
      counter: false,
      environ: false,
      listdir: true,
    });
    expect((first.facts as { recursion: number }).recursion).not.toBe(4321);
    // `random` gets fresh entropy after a restore, as after a boot (drawn as the module loads, before reset seeds it).
    expect(first.random).not.toBe(second.random);
    expect([first.random, second.random]).not.toContain(0.9664535356921388);
  });

  it.each([
    ['writes a file', 'open("/tmp/spade_leak.txt", "w").write("x")'],
    ['changes the working folder', 'import os\nos.chdir("/tmp")'],
    ['leaves a file open', 'held = open("/dev/urandom", "rb")'],
    ['grows its memory past four times the image', 'kept = bytearray(160_000_000)'],
  ])('are not restored when the environment %s: that interpreter is killed', async (_what, tamper) => {
    const code = `${tamper}\n\nclass OutsideEnv:\n    def reset(self, seed=None):\n        return "outside", {}\n\n    def step(self, action):\n        return "x", 0.0, True, False, {}\n`;
    const handle = await runtime.load(code, LOAD);
    await handle.reset(1, CALL);
    const restoredBefore = runtime.recycled;
    await handle.dispose();
    expect(runtime.recycled).toBe(restoredBefore);
    expect(
      children[children.findLastIndex((child) => child.loads.some((load) => load.includes('OutsideEnv')))]!.killed,
    ).toBe(true);
    expect(runtime.restarts).toBe(0);
  });
});
