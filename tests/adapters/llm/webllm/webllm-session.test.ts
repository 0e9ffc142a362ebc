import { describe, expect, it } from 'vitest';
import { customModel, withContextWindow } from '../../../../src/adapters/llm/webllm/model-catalog.ts';
import { ModelLoadError } from '../../../../src/adapters/llm/webllm/webllm-errors.ts';
import { WebLlmSession, type SessionEvent } from '../../../../src/adapters/llm/webllm/webllm-session.ts';
import { deferred, fakeSessionDeps, FakeEngine } from './webllm-fakes.ts';

const MODEL = customModel(
  {
    modelUrl: 'https://models.example/Qwen3-0.6B-q4f32_1-MLC/',
    modelLibUrl: 'https://models.example/Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm',
  },
  'https://app.example/',
);
const ID = 'custom:Qwen3-0.6B-q4f32_1-MLC';

function session(makeEngine?: (index: number) => FakeEngine, options?: { ready?: boolean; startTimeoutMs?: number }) {
  const fakes = fakeSessionDeps(makeEngine, options);
  const s = new WebLlmSession(fakes.deps);
  const events: SessionEvent[] = [];
  s.on((event) => events.push(event));
  const kinds = () =>
    events.map((e) =>
      e.type === 'status' ? `status:${e.status}` : e.type === 'progress' ? `progress:${e.progress.stage}` : e.type,
    );
  return { ...fakes, s, events, kinds };
}

const failure = (pending: Promise<unknown>) =>
  pending.then(
    () => null,
    (error: unknown) => error as ModelLoadError,
  );
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('WebLlmSession: loading', () => {
  it('waits for the worker, reloads with an app config of exactly that model, reports progress, and leases the engine', async () => {
    const { s, engines, configs, kinds, events } = session(() => {
      const engine = new FakeEngine();
      engine.reloadResult = async () => {
        engine.progress?.({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
        engine.progress?.({
          progress: 0.5,
          timeElapsed: 3,
          text: 'Fetching param cache[5/10]: 200MB fetched. 50% completed, 3 secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.',
        });
        engine.progress?.({ progress: 1, timeElapsed: 9, text: 'Finish loading on WebGPU - google' });
      };
      return engine;
    });
    await s.load(MODEL);
    expect(engines[0]!.reloads).toEqual([ID]);
    expect(configs[0]!.appConfig).toEqual({ model_list: [MODEL.record], cacheBackend: 'cache' });
    expect(kinds()).toEqual([
      'status:loading',
      'progress:preparing',
      'progress:preparing',
      'progress:downloading',
      'progress:done',
      'status:ready',
    ]);
    const fetching = events.find((e) => e.type === 'progress' && e.progress.stage === 'downloading');
    expect(fetching).toMatchObject({
      progress: { percent: 50, megabytes: 200, totalMegabytes: 400, shards: { done: 5, total: 10 }, fromCache: false },
    });
    expect(s.status).toBe('ready');
    expect(s.modelId).toBe(ID);
    expect((await s.lease()).engine).toBe(engines[0]);
  });

  it('loads with the window of the record it is given and reports it (null for a custom model that sets none, and after unloading)', async () => {
    const { s, configs } = session();
    await s.load(MODEL);
    expect(s.contextWindowSize).toBeNull();
    await s.load(withContextWindow(MODEL, 16_384));
    expect(configs[1]!.appConfig!.model_list[0]!.overrides).toEqual({ context_window_size: 16_384 });
    expect(s.contextWindowSize).toBe(16_384);
    await s.unload();
    expect(s.contextWindowSize).toBeNull();
  });

  it('routes web-llm messages to the engine and keeps its own notices', async () => {
    const { s, workers, ports } = session();
    await s.load(MODEL);
    const seen: unknown[] = [];
    ports[0]!.onmessage = (event) => seen.push((event as MessageEvent).data);
    workers[0]!.emit({ kind: 'return', uuid: 'u1', content: null });
    workers[0]!.emit({ kind: 'spade:ready' });
    expect(seen).toEqual([{ kind: 'return', uuid: 'u1', content: null }]);
    ports[0]!.postMessage({ kind: 'interruptGenerate' });
    expect(workers[0]!.sent).toEqual([{ kind: 'interruptGenerate' }]);
  });

  it.each([
    ['TypeError: Failed to fetch', 'network'],
    [
      'ShaderF16SupportError: This model requires WebGPU extension shader-f16, which is not enabled in this browser.',
      'no_f16',
    ],
    [
      'DeviceLostError: The WebGPU device was lost while loading the model. This issue often occurs due to running out of memory (OOM).',
      'device_lost',
    ],
  ])('a reload failing with %s fails the load with %s, stops the worker and leaves no engine', async (text, code) => {
    const { s, workers } = session(() => {
      const engine = new FakeEngine();
      engine.reloadResult = () => Promise.reject(text);
      return engine;
    });
    const error = await failure(s.load(MODEL));
    expect(error).toBeInstanceOf(ModelLoadError);
    expect(error!.code).toBe(code);
    expect(workers[0]!.terminated).toBe(true);
    expect(s.status).toBe('failed');
    await expect(s.lease()).rejects.toBe(error);
  });

  it('cancels a pending load at once, stopping the worker', async () => {
    const hold = deferred();
    const { s, workers, kinds } = session(() => {
      const engine = new FakeEngine();
      engine.reloadResult = () => hold.promise;
      return engine;
    });
    const pending = failure(s.load(MODEL));
    await settle();
    s.cancel();
    const error = await pending;
    expect(error).toMatchObject({ code: 'cancelled', message: 'Loading was cancelled.' });
    expect(workers[0]!.terminated).toBe(true);
    expect(s.status).toBe('idle');
    expect(kinds()).toEqual(['status:loading', 'progress:preparing', 'status:idle']);
  });

  it('fails with worker_failed when the worker never says it is ready, or reports an error', async () => {
    const silent = session(undefined, { ready: false, startTimeoutMs: 20 });
    expect(await failure(silent.s.load(MODEL))).toMatchObject({
      code: 'worker_failed',
      message: 'The model worker did not start within 20 ms.',
    });
    const hold = deferred();
    const crashing = session(() => Object.assign(new FakeEngine(), { reloadResult: () => hold.promise }));
    const pending = failure(crashing.s.load(MODEL));
    await settle();
    crashing.workers[0]!.fail('Uncaught RangeError: Array buffer allocation failed');
    expect(await pending).toMatchObject({
      code: 'worker_failed',
      message: 'The model worker stopped: Uncaught RangeError: Array buffer allocation failed.',
    });
  });

  it('a new load replaces the loaded model and its worker', async () => {
    const { s, workers } = session();
    await s.load(MODEL);
    await s.load(MODEL);
    expect(workers.map((w) => w.terminated)).toEqual([true, false]);
    await s.unload();
    expect(workers[1]!.terminated).toBe(true);
    expect(s.status).toBe('idle');
    expect(s.modelId).toBeNull();
  });
});

describe('WebLlmSession: a lost device', () => {
  it('reloads the model in a fresh worker; leases wait for the recovery', async () => {
    const { s, workers, engines, kinds } = session();
    await s.load(MODEL);
    const first = await s.lease();
    workers[0]!.emit({ kind: 'spade:device-lost', reason: 'unknown', message: 'GPU process crashed' });
    expect(s.status).toBe('recovering');
    const waiting = s.lease();
    expect(await first.lost).toEqual(
      new Error('DeviceLostError: the GPU device was lost (unknown: GPU process crashed)'),
    );
    const lease = await waiting;
    expect(lease.engine).toBe(engines[1]);
    expect(engines[1]!.reloads).toEqual([ID]);
    expect(workers[0]!.terminated).toBe(true);
    expect(kinds()).toEqual([
      'status:loading',
      'progress:preparing',
      'status:ready',
      'device-lost',
      'status:recovering',
      'progress:preparing',
      'status:ready',
      'recovered',
    ]);
  });

  it('recovers when a chat call reports the lease lost', async () => {
    const { s, engines } = session();
    await s.load(MODEL);
    const lease = await s.lease();
    s.reportLost(lease, new Error('Model not loaded before trying to complete ChatCompletionRequest.'));
    expect((await s.lease()).engine).toBe(engines[1]);
    s.reportLost(lease, new Error('a stale lease changes nothing'));
    expect((await s.lease()).engine).toBe(engines[1]);
  });

  it('reports a failed recovery and leaves no engine', async () => {
    const { s, events } = session((i) =>
      Object.assign(new FakeEngine(), {
        reloadResult: () => (i === 0 ? Promise.resolve() : Promise.reject('TypeError: Failed to fetch')),
      }),
    );
    await s.load(MODEL);
    await s.lease();
    s.reportLost(await s.lease(), new Error('DeviceLostError'));
    const error = await failure(s.lease());
    expect(error!.code).toBe('network');
    expect(s.status).toBe('failed');
    expect(events.at(-1)).toEqual({ type: 'recovery-failed', error });
  });

  it('an unload during a recovery ends it quietly', async () => {
    const hold = deferred();
    const { s, workers, kinds } = session((i) =>
      Object.assign(new FakeEngine(), { reloadResult: () => (i === 0 ? Promise.resolve() : hold.promise) }),
    );
    await s.load(MODEL);
    workers[0]!.emit({ kind: 'spade:device-lost', reason: 'unknown', message: '' });
    await settle();
    await s.unload();
    await settle();
    expect(s.status).toBe('idle');
    expect(workers[1]!.terminated).toBe(true);
    expect(kinds().slice(-3)).toEqual(['status:recovering', 'progress:preparing', 'status:idle']);
  });

  it('a device lost while idle is reported and the next probe starts a fresh worker', async () => {
    const { s, workers, kinds } = session();
    expect(await s.probe()).toMatchObject({ maxStorageBufferBindingSize: 2 ** 30, vendor: 'fake' });
    workers[0]!.emit({ kind: 'spade:device-lost', reason: 'unknown', message: '' });
    expect(kinds()).toEqual(['device-lost']);
    expect(workers[0]!.terminated).toBe(true);
    await s.probe();
    expect(workers).toHaveLength(2);
  });
});
