import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MemoryRunStore } from '../../src/adapters/store/memory-run-store.ts';
import { parseChatScript, ScriptedChatModel } from '../../src/adapters/llm/scripted/scripted-chat-model.ts';
import { RunController } from '../../src/app/run/run-controller.svelte.ts';
import type { RunLock } from '../../src/adapters/tabs/tab-link.ts';
import { RunLibrary } from '../../src/app/library/run-library.svelte.ts';
import { DEFAULT_CONFIG, type Config } from '../../src/core/config.ts';
import { fakeSandbox, withDelays } from '../fixtures/fake-sandbox.ts';
import { HINT_HELPS_DOUBLES } from '../fixtures/hint-helps-doubles.ts';
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

/** A library over a memory store, its run controller (a clock that ticks per call: runs list in creation order), and the run locks every tab shares (an id in `held` is held by a tab). */
function setup() {
  const store = new MemoryRunStore();
  const held = new Set<string>();
  let tick = 0;
  const lock: RunLock = async (id) => {
    if (held.has(id)) return null;
    held.add(id);
    return () => void held.delete(id);
  };
  const run = new RunController({
    store,
    sandbox: () => sandbox,
    corpus: async () => ({ docs: [], identity: { label: 'no corpus', documents: 0, sha256: 'none' } }),
    model: async () => new ScriptedChatModel(SCRIPT),
    suite: async () => HELD_OUT_SUITE,
    lock,
    schedule: (flush) => setTimeout(flush, 0),
    now: () => 1_700_000_000_000 + ++tick,
  });
  return { store, held, run, library: new RunLibrary({ store, run, lock }) };
}

const newRun = (name: string) => ({ name, config: CONFIG, modelId: 'scripted:hint-helps', epochsPlanned: 1 });

async function until(check: () => boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe('RunLibrary', () => {
  it('lists the stored runs, and creates a run that it opens and lists', async () => {
    const { store, run, library } = setup();
    await expect(library.refresh()).resolves.toEqual([]);
    const first = await library.create(newRun('first'));
    const second = await library.create(newRun('second'));
    expect(library.runs.map((r) => r.name)).toEqual(['first', 'second']);
    expect(run.meta?.id).toBe(second.id);
    expect(run.status).toBe('idle');
    await store.updateRun(first.id, { name: 'renamed elsewhere' });
    await library.refresh();
    expect(library.runs.map((r) => r.name)).toEqual(['renamed elsewhere', 'second']);
  });

  it('opens a stored run, and says why when it cannot', async () => {
    const { run, library } = setup();
    const first = await library.create(newRun('first'));
    await library.create(newRun('second'));
    await expect(library.open(first.id)).resolves.toBe(true);
    expect(run.meta?.name).toBe('first');
    await expect(library.open('run-missing')).resolves.toBe(false);
    expect(run.error).toBe('No run with id run-missing.');
    expect(run.meta?.name).toBe('first');
  });

  it('deletes a run and everything it produced, and lets go of the open run when it was that one', async () => {
    const { store, held, run, library } = setup();
    const kept = await library.create(newRun('kept'));
    const gone = await library.create(newRun('gone'));
    await expect(library.delete(gone.id)).resolves.toBe(true);
    expect(library.deleteError).toBeNull();
    expect(await store.loadRun(gone.id)).toBeNull();
    expect(library.runs.map((r) => r.id)).toEqual([kept.id]);
    expect(run.meta).toBeNull();
    expect(held.size).toBe(0);
  });

  it('refuses to delete the run running in this tab, and deletes nothing', async () => {
    const { store, run, library } = setup();
    const meta = await library.create(newRun('busy'));
    await run.start();
    expect(run.status).toBe('running');
    expect(library.activeId).toBe(meta.id);
    await expect(library.delete(meta.id)).resolves.toBe(false);
    expect(library.deleteError).toBe(
      'This run is running in this tab: abort it on the Live run view before deleting it. Nothing was deleted.',
    );
    expect(await store.loadRun(meta.id)).not.toBeNull();
    expect(library.runs.map((r) => r.id)).toEqual([meta.id]);
    expect(run.meta?.id).toBe(meta.id);
    run.abort();
    await until(() => run.status === 'aborted', 'abort');
    expect(library.activeId).toBeNull();
    await expect(library.delete(meta.id)).resolves.toBe(true);
  });

  it('refuses to delete a run another tab holds, and deletes nothing', async () => {
    const { store, held, library } = setup();
    const meta = await library.create(newRun('elsewhere'));
    held.add(meta.id);
    await expect(library.delete(meta.id)).resolves.toBe(false);
    expect(library.deleteError).toBe(
      'Another tab is running this run: stop it there (or close that tab) before deleting it. Nothing was deleted.',
    );
    expect(await store.loadRun(meta.id)).not.toBeNull();
    expect(library.runs.map((r) => r.id)).toEqual([meta.id]);
    held.delete(meta.id);
    await expect(library.delete(meta.id)).resolves.toBe(true);
    expect(library.deleteError).toBeNull();
  });

  it('says why a delete failed in the store, and that the run is unchanged', async () => {
    const { store, library } = setup();
    const meta = await library.create(newRun('stuck'));
    store.deleteRun = async () => Promise.reject(new Error('the database is closed'));
    await expect(library.delete(meta.id)).resolves.toBe(false);
    expect(library.deleteError).toBe('The run could not be deleted: the database is closed. It is unchanged.');
    expect(library.runs.map((r) => r.id)).toEqual([meta.id]);
  });
});
