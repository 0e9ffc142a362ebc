import { readFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  activeGroundingCorpus,
  clearUserCorpus,
  findGroundingDoc,
  hasUserCorpus,
  saveUserCorpus,
} from '../../src/app/new-run/corpus-source.ts';

const SHIPPED = readFileSync(new URL('../../public/corpus/concepts.jsonl', import.meta.url), 'utf8');
const FIRST_ID = (JSON.parse(SHIPPED.split('\n')[0]!) as { id: string }).id;

const activeIds = async () => (await activeGroundingCorpus()).docs.map((doc) => doc.id);

/** Cache Storage as far as the corpus uses it (Node has none; the browser tests use Chromium's). */
class CachesInMemory {
  readonly entries = new Map<string, Map<string, string>>();
  async open(name: string) {
    const entries = this.entries.get(name) ?? new Map<string, string>();
    this.entries.set(name, entries);
    return {
      put: async (key: string, response: Response) => void entries.set(key, await response.text()),
      match: async (key: string) => (entries.has(key) ? new Response(entries.get(key)) : undefined),
    };
  }
  async delete(name: string) {
    return this.entries.delete(name);
  }
}

let fetched: string[];
let caches: CachesInMemory;
beforeEach(() => {
  fetched = [];
  caches = new CachesInMemory();
  vi.stubGlobal('fetch', async (url: string) => (fetched.push(url), new Response(SHIPPED)));
  vi.stubGlobal('caches', caches);
});
afterEach(() => vi.unstubAllGlobals());

describe('the grounding corpus of the app', () => {
  it('is the shipped corpus until the user imports one, fetched once', async () => {
    expect(await hasUserCorpus()).toBe(false);
    expect((await findGroundingDoc(FIRST_ID))?.id).toBe(FIRST_ID);
    expect(await findGroundingDoc('no-such-doc')).toBeNull();
    expect(await activeGroundingCorpus()).toMatchObject({
      identity: { label: 'the shipped corpus', documents: 66, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
    expect(fetched).toEqual(['/corpus/concepts.jsonl']);
  });

  it('is the imported corpus once saved; its documents are found, and the shipped ones still are', async () => {
    await saveUserCorpus([
      { id: 'mine-1', text: 'A document of my own.', skill: 'Optimization' },
      { id: 'mine-2', text: 'Another one.' },
    ]);
    expect(await hasUserCorpus()).toBe(true);
    expect(await activeIds()).toEqual(['mine-1', 'mine-2']);
    expect((await activeGroundingCorpus()).identity).toMatchObject({ label: 'your imported corpus', documents: 2 });
    expect(await findGroundingDoc('mine-1')).toEqual({
      id: 'mine-1',
      text: 'A document of my own.',
      skill: 'Optimization',
    });
    expect((await findGroundingDoc(FIRST_ID))?.id).toBe(FIRST_ID);
    await clearUserCorpus();
    expect(await hasUserCorpus()).toBe(false);
    expect(await activeGroundingCorpus()).toMatchObject({
      identity: { label: 'the shipped corpus', documents: 66, sha256: expect.stringMatching(/^[0-9a-f]{64}$/) },
    });
  });

  it('moves a corpus an earlier version kept in localStorage into Cache Storage, losing nothing', async () => {
    const legacy = new Map([['spade-lab-user-corpus', '{"id":"old-1","text":"Kept by an earlier version."}\n']]);
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => legacy.get(k) ?? null,
      removeItem: (k: string) => void legacy.delete(k),
    });
    expect(await activeIds()).toEqual(['old-1']);
    expect(legacy.size).toBe(0);
    expect(await activeIds()).toEqual(['old-1']);
  });
});
