import { deleteUserCorpus, readUserCorpusText, writeUserCorpusText } from '../../adapters/store/user-corpus-cache.ts';
import { sha256Hex } from '../../adapters/store/sha256.ts';
import { parseCorpus, type CorpusDoc, type GroundingCorpus } from '../../core/loop/corpus.ts';
import { toJsonLines } from '../../formats/export/files.ts';

let shipped: Promise<readonly CorpusDoc[]> | null = null;

/** The corpus shipped with the app (public/corpus/concepts.jsonl), fetched once; a failed fetch is tried again next time. */
export function shippedCorpus(): Promise<readonly CorpusDoc[]> {
  shipped ??= fetch(`${import.meta.env.BASE_URL}corpus/concepts.jsonl`).then(async (response) => {
    if (!response.ok)
      throw new Error(`Could not load the grounding corpus (HTTP ${response.status}); reload the page.`);
    return parseCorpus(await response.text()).docs;
  });
  shipped.catch(() => (shipped = null));
  return shipped;
}

/** The user's imported corpus, or null when there is none. */
export async function userCorpus(): Promise<readonly CorpusDoc[] | null> {
  const text = await readUserCorpusText();
  return text === null ? null : parseCorpus(text, 'user').docs;
}

/** The corpus new epochs are grounded in (the user's imported one when there is one, else the shipped one), with its identity: what a run records, to notice a change of corpus on resume. */
export async function activeGroundingCorpus(): Promise<GroundingCorpus> {
  const own = await userCorpus();
  const docs = own ?? (await shippedCorpus());
  return {
    docs,
    identity: {
      label: own ? 'your imported corpus' : 'the shipped corpus',
      documents: docs.length,
      sha256: await sha256Hex(toJsonLines(docs)),
    },
  };
}

/** The grounding document with this id, from the user's corpus or the shipped one, or null. */
export async function findGroundingDoc(docId: string): Promise<CorpusDoc | null> {
  const own = (await userCorpus())?.find((doc) => doc.id === docId);
  return own ?? (await shippedCorpus()).find((doc) => doc.id === docId) ?? null;
}

/** True when the user has imported a corpus. */
export async function hasUserCorpus(): Promise<boolean> {
  return (await readUserCorpusText()) !== null;
}

/** Keeps an imported corpus for later runs in this browser. */
export function saveUserCorpus(docs: readonly CorpusDoc[]): Promise<void> {
  return writeUserCorpusText(toJsonLines(docs));
}

/** Forgets the user's corpus (runs use the shipped one again). */
export function clearUserCorpus(): Promise<void> {
  return deleteUserCorpus();
}
