// The header's Python status: the estimate it shows while Python starts (this browser's last start,
// or a labelled first-visit guess), the time it remembers once ready, and an honest failure.
import { describe, expect, it } from 'vitest';
import { FIRST_VISIT_ESTIMATE_MS, PythonStatus, savedStartMs } from '../../src/app/shell/python-status.svelte.ts';

function memoryStorage(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    items,
  };
}

function deferred() {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

describe('PythonStatus', () => {
  it('on a first visit shows the labelled estimate, then ready with the time taken, and remembers it', async () => {
    const storage = memoryStorage();
    const boot = deferred();
    let clock = 1000;
    const status = new PythonStatus(
      () => boot.promise,
      storage,
      () => clock,
    );
    const started = status.start();
    expect(status.state).toEqual({
      phase: 'starting',
      startedAt: 1000,
      estimateMs: FIRST_VISIT_ESTIMATE_MS,
      source: 'first visit',
    });
    clock = 8400;
    boot.resolve();
    await started;
    expect(status.state).toEqual({ phase: 'ready', tookMs: 7400 });
    expect(storage.items.get('spade-lab-python-start-ms')).toBe('7400');
  });

  it('estimates from the last start, and starts once however often it is asked', async () => {
    let boots = 0;
    const status = new PythonStatus(
      async () => void (boots += 1),
      memoryStorage({ 'spade-lab-python-start-ms': '4321' }),
      () => 0,
    );
    const first = status.start();
    expect(status.state).toMatchObject({ phase: 'starting', estimateMs: 4321, source: 'last start' });
    expect(status.start()).toBe(first);
    await first;
    await status.start();
    expect(boots).toBe(1);
  });

  it('says why Python could not start, and a later start tries again', async () => {
    let fail = true;
    const status = new PythonStatus(
      async () => {
        if (fail) throw new Error('could not load pyodide.asm.wasm for the Python sandbox (HTTP 404)');
      },
      memoryStorage(),
      () => 0,
    );
    await status.start();
    expect(status.state).toEqual({
      phase: 'failed',
      message: 'could not load pyodide.asm.wasm for the Python sandbox (HTTP 404)',
    });
    fail = false;
    await status.start();
    expect(status.state.phase).toBe('ready');
  });

  it("says when Python started cold instead of from the build's snapshot, and why", async () => {
    const why = "the build's Python snapshot could not be fetched (HTTP 404)";
    let clock = 0;
    const status = new PythonStatus(
      async () => {
        clock = 21_500;
        return { coldBecause: why };
      },
      memoryStorage(),
      () => clock,
    );
    await status.start();
    expect(status.state).toEqual({ phase: 'ready', tookMs: 21_500, coldBecause: why });
  });

  it('ignores a saved duration that is not a plausible start, and a storage that throws', () => {
    for (const bad of ['', 'abc', '-5', '0', 'Infinity', String(24 * 3600_000)])
      expect(savedStartMs(memoryStorage({ 'spade-lab-python-start-ms': bad }))).toBeNull();
    expect(
      savedStartMs({
        getItem: () => {
          throw new Error('denied');
        },
        setItem: () => undefined,
      }),
    ).toBeNull();
    expect(savedStartMs(null)).toBeNull();
    expect(savedStartMs(memoryStorage({ 'spade-lab-python-start-ms': '2500.4' }))).toBe(2500);
  });
});
