// Several tabs on one run store: a second tab follows a run another tab runs, read-only and live,
// and sees how it ends (completed, or interrupted when that tab is gone); one tab that opens
// another run while its run stops keeps the two apart.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { RunController } from '../../src/app/run/run-controller.svelte.ts';
import { RunLibrary } from '../../src/app/library/run-library.svelte.ts';
import { RunPresence } from '../../src/app/run/run-presence.svelte.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { ChatModelError, type ChatModel } from '../../src/core/ports/chat-port.ts';
import { fakeSandbox, withDelays } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
import { TabHub } from '../fixtures/fake-tabs.ts';
import { HELD_OUT_SUITE } from './experiment-fixtures.ts';

const SCRIPT = parseChatScript(
  JSON.parse(readFileSync(new URL('../fixtures/scripted/hint-helps.json', import.meta.url), 'utf8')),
);
const CONFIG: Config = {
  ...DEFAULT_CONFIG,
  seed: 7,
  skills: ['Logical Deduction'],
  slotsPerEpoch: 2,
  playsPerArm: 2,
  hintPlays: 2,
  maxTurns: 3,
  useCorpus: false,
};
const sandbox = withDelays(fakeSandbox(HINT_HELPS_DOUBLES), () => 2);
const POLL_MS = 10;

/** One tab: its run controller and Runs list over the shared store, linked to the other tabs through `hub`. */
function tab(
  hub: TabHub,
  name: string,
  store: MemoryRunStore,
  model: () => ChatModel = () => new ScriptedChatModel(SCRIPT),
) {
  const link = hub.link(name);
  const presence = new RunPresence(link, POLL_MS);
  const run = new RunController({
    store,
    sandbox: () => sandbox,
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => model(),
    suite: async () => HELD_OUT_SUITE,
    lock: link.lock,
    presence,
    pollMs: POLL_MS,
    schedule: (flush) => setTimeout(flush, 0),
  });
  return { run, library: new RunLibrary({ store, run, lock: link.lock, presence }) };
}

const newRun = (name: string, epochsPlanned = 2) => ({
  name,
  config: CONFIG,
  modelId: 'scripted:hint-helps',
  epochsPlanned,
});

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The Runs list's status of a run, as that tab reads it. */
function listed(library: RunLibrary, runId: string) {
  const meta = library.runs.find((r) => r.id === runId);
  return meta ? library.statusOf(meta) : null;
}

describe('a second tab on a run another tab runs', () => {
  it('shows it read-only, follows its live epoch and committed epochs, and shows it completed when it ends', async () => {
    const hub = new TabHub();
    const store = new MemoryRunStore();
    const a = tab(hub, 'A', store);
    const b = tab(hub, 'B', store);
    const meta = await a.run.create(newRun('followed'));
    await a.run.start({ paused: true });
    await a.library.refresh();
    expect(listed(a.library, meta.id)).toEqual({ word: 'paused', where: 'this tab' });
    await b.library.refresh();
    expect(listed(b.library, meta.id)).toEqual({ word: 'running', where: 'another tab' });
    await until(() => listed(b.library, meta.id)?.word === 'paused', 'tab A answering where its run stands');
    expect(listed(b.library, meta.id)).toEqual({ word: 'paused', where: 'another tab' });

    await b.run.open(meta.id);
    expect(b.run.readOnly).toBe(true);
    expect(b.run.shown).toEqual({ word: 'paused', where: 'another tab' });
    expect(b.run.notice).toBeNull();
    await b.run.start();
    expect(b.run.error).toContain('Another tab is running this run');
    expect(hub.holder(meta.id)).toBe('A');

    a.run.resume();
    await until(() => b.run.shown?.word === 'running', 'the resume heard');
    await until(() => (b.run.live?.slots[0]?.attempts.length ?? 0) > 0, 'the live epoch followed');
    await until(() => b.run.history.length === 1 && b.run.meta?.epochsCompleted === 1, 'the first commit followed');
    await until(
      () => listed(b.library, meta.id)?.word === 'running' && b.library.runs[0]?.epochsCompleted === 1,
      'the list following',
    );

    await until(() => a.run.status === 'completed', 'completion in tab A');
    await until(() => b.run.shown?.word === 'completed', 'completion heard');
    expect(b.run.readOnly).toBe(false);
    expect(b.run.history.map((m) => m.epoch)).toEqual([0, 1]);
    expect(b.run.live).toEqual(a.run.live);
    await until(() => listed(b.library, meta.id)?.word === 'completed', 'the list showing completion');
    await until(
      () => listed(a.library, meta.id)?.word === 'completed' && a.library.runs[0]?.epochsCompleted === 2,
      "tab A's own list following",
    );
    expect(listed(a.library, meta.id)).toEqual({ word: 'completed', where: null });
  });

  it('shows it interrupted, in the live view and the list alike, once the tab that ran it is gone', async () => {
    const hub = new TabHub();
    const store = new MemoryRunStore();
    const a = tab(hub, 'A', store);
    const b = tab(hub, 'B', store);
    const meta = await a.run.create(newRun('crashed'));
    await a.run.start();
    await until(() => a.run.history.length === 1 && a.run.stage === 'play', 'tab A playing epoch 2');
    a.run.pause();
    await b.run.open(meta.id);
    await b.library.refresh();
    expect(b.run.shown).toEqual({ word: 'running', where: 'another tab' });
    expect(b.run.notice).toBeNull();
    await until(() => b.run.shown?.word === 'paused', 'tab A answering where its run stands');
    expect(listed(b.library, meta.id)).toEqual({ word: 'paused', where: 'another tab' });

    hub.close('A');
    await until(() => b.run.shown?.word === 'interrupted', 'the closed tab noticed');
    expect(b.run.readOnly).toBe(false);
    expect(b.run.notice).toContain('interrupted during epoch 2');
    expect(b.run.live).toBeNull();
    await until(() => listed(b.library, meta.id)?.word === 'interrupted', 'the list showing it');
    expect(listed(b.library, meta.id)).toEqual({ word: 'interrupted', where: null });
  });

  it('hears nothing more of a run it followed once it opens another', async () => {
    const hub = new TabHub();
    const store = new MemoryRunStore();
    const a = tab(hub, 'A', store);
    const b = tab(hub, 'B', store);
    const other = await a.run.create(newRun('other'));
    const meta = await a.run.create(newRun('followed'));
    await a.run.start({ paused: true });
    await b.run.open(meta.id);
    await until(() => hub.sent.some((s) => s.from === 'A' && s.message.type === 'snapshot'), 'the snapshot sent');
    await b.run.open(other.id);
    a.run.resume();
    await until(() => a.run.status === 'completed', 'completion in tab A');
    await new Promise((resolve) => setTimeout(resolve, 5 * POLL_MS));
    expect(b.run.meta?.id).toBe(other.id);
    expect(b.run.shown).toEqual({ word: 'new', where: null });
    expect([b.run.live, b.run.stage, b.run.history.length]).toEqual([null, null, 0]);
  });
});

/**
 * A model whose first agent call hangs until its epoch is aborted, then holds on until `letGo`
 * (as a real backend takes a while to interrupt a generation), streams one last piece, and fails.
 */
class SlowToStop {
  /** True while the hanging call waits. */
  hanging = false;
  private release: () => void = () => undefined;
  private readonly released = new Promise<void>((resolve) => (this.release = resolve));
  private used = false;

  model(): ChatModel {
    const inner = new ScriptedChatModel(SCRIPT);
    return {
      id: inner.id,
      snapshot: () => inner.snapshot(),
      restore: (snapshot) => inner.restore(snapshot),
      complete: async (request) => {
        if (request.purpose !== 'agent' || this.used || !request.signal) return inner.complete(request);
        this.used = true;
        this.hanging = true;
        const signal = request.signal;
        await new Promise<void>((resolve) =>
          signal.aborted ? resolve() : signal.addEventListener('abort', () => resolve()),
        );
        await this.released;
        request.onToken?.(' (a last piece after the abort)');
        throw new ChatModelError('aborted', 'The call was aborted.');
      },
    };
  }

  letGo(): void {
    this.release();
  }
}

describe('Start pressed twice', () => {
  it('starts the run once: the second press, while the first waits for the lock, does nothing', async () => {
    const hub = new TabHub();
    const a = tab(hub, 'A', new MemoryRunStore());
    await a.run.create(newRun('once', 1));
    await Promise.all([a.run.start(), a.run.start()]);
    expect([a.run.status, a.run.error]).toEqual(['running', null]);
    await until(() => a.run.status === 'completed', 'completion');
    expect(hub.sent.filter((s) => s.message.type === 'finished')).toHaveLength(1);
  });
});

describe('opening another run while one stops', () => {
  /** Tab A runs `stopping` until its first agent call hangs, aborts it, and opens `next` while it is still stopping. */
  async function abortThenOpen() {
    const hub = new TabHub();
    const store = new MemoryRunStore();
    const slow = new SlowToStop();
    const a = tab(hub, 'A', store, () => slow.model());
    const next = await a.run.create(newRun('next', 1));
    const stopping = await a.run.create(newRun('stopping'));
    await a.run.start();
    await until(() => slow.hanging, 'the first play hanging');
    a.run.abort();
    expect(a.run.shown).toEqual({ word: 'stopping', where: 'this tab' });
    await a.run.open(next.id);
    expect(a.run.meta?.id).toBe(next.id);
    expect(a.run.heldHere).toEqual({ runId: stopping.id, status: 'stopping' });
    expect(hub.holder(stopping.id)).toBe('A');
    return { hub, store, slow, a, next, stopping };
  }

  it("keeps the stopping run's last writes and events in its own run, and out of the view of the run opened", async () => {
    const { hub, store, slow, a, next, stopping } = await abortThenOpen();
    slow.letGo();
    await until(() => hub.sent.some((s) => s.message.type === 'finished'), 'the stopping run finished');
    expect([a.run.meta?.id, a.run.status, a.run.error, a.run.stage, a.run.live, a.run.heldHere]).toEqual([
      next.id,
      'idle',
      null,
      null,
      null,
      null,
    ]);
    expect(a.run.shown).toEqual({ word: 'new', where: null });
    expect((await store.loadRun(next.id))!.meta).toMatchObject({ status: 'new', epochsCompleted: 0 });
    expect((await store.loadRun(stopping.id))!.meta).toMatchObject({ status: 'aborted', epochsCompleted: 0 });
    const lastPiece = hub.sent.filter(
      (s) =>
        s.message.type === 'events' &&
        s.message.events.some((e) => e.type === 'token' && e.delta.includes('a last piece')),
    );
    expect(lastPiece.map((s) => s.message.runId)).toEqual([stopping.id]);
    expect(hub.holder(stopping.id)).toBeNull();
  });

  it('starts the run opened once the stopping run has let go, each with its own lock', async () => {
    const { hub, store, slow, a, next, stopping } = await abortThenOpen();
    const starting = a.run.start();
    slow.letGo();
    await starting;
    expect([a.run.meta?.id, a.run.status]).toEqual([next.id, 'running']);
    expect([hub.holder(stopping.id), hub.holder(next.id)]).toEqual([null, 'A']);
    await until(() => a.run.status === 'completed', 'the next run completed');
    expect(a.run.error).toBeNull();
    expect(a.run.history).toHaveLength(1);
    expect((await store.loadRun(next.id))!.meta).toMatchObject({ status: 'completed', epochsCompleted: 1 });
    expect((await store.loadRun(stopping.id))!.meta).toMatchObject({ status: 'aborted', epochsCompleted: 0 });
    expect(hub.sent.filter((s) => s.message.type === 'finished').map((s) => s.message)).toEqual([
      { type: 'finished', runId: stopping.id, status: 'aborted' },
      { type: 'finished', runId: next.id, status: 'completed' },
    ]);
  });
});
