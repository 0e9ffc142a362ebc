/** One grounding document of a corpus. */
export interface CorpusDoc {
  id: string;
  text: string;
  /** Skill the document was written for, when known (the shipped corpus has one; user corpora may not). */
  skill?: string;
  title?: string;
}

/** Which corpus grounded a run: enough to tell, on resume, whether it is still the same one. */
export interface CorpusIdentity {
  /** Where it came from, for people: e.g. `the shipped corpus` or `your imported corpus`. */
  label: string;
  documents: number;
  /** SHA-256 of the documents as JSON Lines. */
  sha256: string;
}

/** A corpus with its identity. */
export interface GroundingCorpus {
  docs: readonly CorpusDoc[];
  identity: CorpusIdentity;
}

/** What a run about to continue should say when its corpus changed since its first epoch, or null when it did not (or was never recorded). */
export function corpusChangeNotice(recorded: CorpusIdentity | null | undefined, now: CorpusIdentity): string | null {
  if (!recorded || recorded.sha256 === now.sha256) return null;
  return `This run's earlier epochs were grounded in ${recorded.label} (${recorded.documents} documents); the active corpus is now ${now.label} (${now.documents} documents), so the epochs from here are grounded in it and will differ from a run that kept the first one. To keep the run consistent, switch the corpus back on the Runs view and continue.`;
}

/** A line of a corpus that could not be used, and why. */
export interface CorpusProblem {
  line: number;
  reason: string;
}

/** The document a parsed corpus line holds, or why it holds none; `fallbackId` when the line has no `id`. */
export function corpusDocOf(value: unknown, fallbackId: string): CorpusDoc | string {
  const record = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  const text =
    typeof record.text === 'string' ? record.text : typeof record.orig_doc === 'string' ? record.orig_doc : null;
  if (!text || text.trim() === '') return 'no non-empty "text" or "orig_doc" field';
  return {
    id: typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : fallbackId,
    text,
    ...(typeof record.skill === 'string' ? { skill: record.skill } : {}),
    ...(typeof record.title === 'string' ? { title: record.title } : {}),
  };
}

/**
 * Parses a corpus in the reference format: JSON Lines whose objects have `text` or `orig_doc`
 * (optional `id`, `skill`, `title`). Bad lines are reported, never fatal.
 */
export function parseCorpus(jsonl: string, source = 'corpus'): { docs: CorpusDoc[]; problems: CorpusProblem[] } {
  const docs: CorpusDoc[] = [];
  const problems: CorpusProblem[] = [];
  jsonl.split(/\r?\n/).forEach((raw, index) => {
    const line = index + 1;
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push({ line, reason: 'not valid JSON' });
      return;
    }
    const doc = corpusDocOf(value, `${source}-${line}`);
    if (typeof doc === 'string') problems.push({ line, reason: doc });
    else docs.push(doc);
  });
  return { docs, problems };
}

/** Truncates a document to its first `maxWords` words (whitespace-separated), marking the cut. */
export function truncateWords(text: string, maxWords: number): string {
  const words = text.trim().split(/\s+/);
  return words.length <= maxWords ? text.trim() : `${words.slice(0, maxWords).join(' ')} …`;
}

/** Documents for a skill: those written for it, or all documents when none are tagged with it. */
export function docsForSkill(docs: readonly CorpusDoc[], skill: string): readonly CorpusDoc[] {
  const tagged = docs.filter((doc) => doc.skill === skill);
  return tagged.length > 0 ? tagged : docs;
}
