// The user's own grounding corpus, kept as JSON Lines text in Cache Storage: corpora in the
// reference format run to many megabytes, beyond what localStorage holds.

const CACHE_NAME = 'spade-lab-user-corpus';
const ENTRY = '/spade-lab/user-corpus.jsonl';
/** Where earlier versions kept the corpus; moved into Cache Storage on first read. */
const LEGACY_LOCAL_STORAGE_KEY = 'spade-lab-user-corpus';

/** The stored corpus text, or null when the user has none (or the browser has no Cache Storage). */
export async function readUserCorpusText(): Promise<string | null> {
  if (typeof caches === 'undefined') return null;
  const cache = await caches.open(CACHE_NAME);
  const legacy = typeof localStorage === 'undefined' ? null : localStorage.getItem(LEGACY_LOCAL_STORAGE_KEY);
  if (legacy !== null) {
    await cache.put(ENTRY, new Response(legacy));
    localStorage.removeItem(LEGACY_LOCAL_STORAGE_KEY);
  }
  const stored = await cache.match(ENTRY);
  return stored ? stored.text() : null;
}

/** Stores the corpus text, replacing any earlier one; rejects (QuotaExceededError) when it does not fit. */
export async function writeUserCorpusText(text: string): Promise<void> {
  if (typeof caches === 'undefined')
    throw new Error('This browser has no Cache Storage, so an imported corpus cannot be kept.');
  const cache = await caches.open(CACHE_NAME);
  await cache.put(ENTRY, new Response(text, { headers: { 'Content-Type': 'application/x-ndjson' } }));
}

/** Forgets the stored corpus. */
export async function deleteUserCorpus(): Promise<void> {
  if (typeof localStorage !== 'undefined') localStorage.removeItem(LEGACY_LOCAL_STORAGE_KEY);
  if (typeof caches !== 'undefined') await caches.delete(CACHE_NAME);
}
