import { describe, expect, it } from 'vitest';
import type { RunAnnouncement } from '../../src/app/run/run-announcement.ts';
import { RunPresence } from '../../src/app/run/run-presence.svelte.ts';
import type { TabLink } from '../../src/adapters/tabs/tab-link.ts';
import { TabHub } from '../fixtures/fake-tabs.ts';

/** A link whose lock reads answer only when the test says, and whose announcements the test sends. */
function scriptedLink() {
  let hear: (message: RunAnnouncement) => void = () => undefined;
  const reads: Array<(ids: string[]) => void> = [];
  const posted: RunAnnouncement[] = [];
  const link: TabLink<RunAnnouncement> = {
    lock: async () => () => undefined,
    heldElsewhere: () => new Promise((resolve) => reads.push(resolve)),
    post: (message) => posted.push(message),
    listen: (listener) => {
      hear = listener;
      return () => undefined;
    },
  };
  return { link, reads, posted, hear: (message: RunAnnouncement) => hear(message) };
}

const state = (runId: string, status: 'running' | 'paused', epochsCompleted = 0): RunAnnouncement => ({
  type: 'state',
  runId,
  status,
  stage: 'design',
  epochsCompleted,
});

describe('RunPresence', () => {
  it('knows a run from its tab announcing it, and lets it go when that tab says it finished', () => {
    const { link, hear } = scriptedLink();
    const presence = new RunPresence(link, 60_000);
    let changes = 0;
    presence.onChange(() => (changes += 1));
    hear(state('r', 'running'));
    hear({ type: 'state', runId: 'r', status: 'running', stage: 'hint', epochsCompleted: 0 });
    expect([presence.held, changes]).toEqual([{ r: { status: 'running', epochsCompleted: 0 } }, 1]);
    hear(state('r', 'running', 1));
    hear(state('r', 'paused', 1));
    expect([presence.held, changes]).toEqual([{ r: { status: 'paused', epochsCompleted: 1 } }, 3]);
    hear({ type: 'finished', runId: 'r', status: 'completed' });
    expect([presence.held, changes]).toEqual([{}, 4]);
  });

  it('asks the tab holding a run it did not know of where it stands', async () => {
    const { link, reads, posted } = scriptedLink();
    const presence = new RunPresence(link, 60_000);
    const read = presence.refresh();
    reads.shift()!(['r']);
    await read;
    expect(presence.held).toEqual({ r: null });
    expect(posted).toEqual([{ type: 'ask', runId: 'r', live: false }]);
  });

  it('does not bring a finished run back from a lock read begun before the finish; a later read counts', async () => {
    const { link, reads, hear } = scriptedLink();
    const presence = new RunPresence(link, 60_000);
    hear(state('r', 'running'));
    const stale = presence.refresh();
    hear({ type: 'finished', runId: 'r', status: 'completed' });
    reads.shift()!(['r']);
    await stale;
    expect(presence.held).toEqual({});
    const fresh = presence.refresh();
    reads.shift()!(['r']);
    await fresh;
    expect(presence.held).toEqual({ r: null });
  });

  it('waits for the word of a tab whose lock it finds free: its last events come before it', async () => {
    const { link, reads, hear } = scriptedLink();
    const presence = new RunPresence(link, 60_000);
    hear(state('r', 'running'));
    const read = presence.refresh();
    reads.shift()!([]);
    await read;
    expect(presence.held).toEqual({ r: { status: 'running', epochsCompleted: 0 } });
    hear({ type: 'finished', runId: 'r', status: 'completed' });
    expect(presence.held).toEqual({});
  });

  it('notices, by reading the locks again, that a tab holding a run closed without a word', async () => {
    const hub = new TabHub();
    await hub.link('gone').lock('r');
    const presence = new RunPresence(hub.link('here'), 5);
    await presence.refresh();
    expect(presence.held).toEqual({ r: null });
    const changed = new Promise<void>((resolve) => presence.onChange(resolve));
    hub.close('gone');
    await changed;
    expect(presence.held).toEqual({});
  });
});
