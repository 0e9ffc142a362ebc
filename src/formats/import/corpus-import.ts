import { corpusDocOf, type CorpusDoc } from '../../core/loop/corpus.ts';
import { baseName, eachLine, longLineProblem, type ImportFile, type ImportProblem } from '../export/files.ts';
import { MAX_CORPUS_CHARS, MAX_CORPUS_DOCS, MAX_LINE_CHARS } from './import-limits.ts';

/** Bounds of one corpus import (default: the import limits). */
export interface CorpusLimits {
  maxDocs: number;
  maxChars: number;
  maxLineChars: number;
}

const DEFAULT_LIMITS: CorpusLimits = {
  maxDocs: MAX_CORPUS_DOCS,
  maxChars: MAX_CORPUS_CHARS,
  maxLineChars: MAX_LINE_CHARS,
};

/**
 * Reads grounding documents from JSON Lines files line by line: bad, over-long and duplicate
 * lines are reported; reading stops (with one problem line naming where) once the corpus holds
 * `maxDocs` documents or `maxChars` characters of text.
 */
export function readCorpusFiles(
  files: readonly ImportFile[],
  limits: CorpusLimits = DEFAULT_LIMITS,
): { docs: CorpusDoc[]; problems: ImportProblem[] } {
  const docs: CorpusDoc[] = [];
  const problems: ImportProblem[] = [];
  const ids = new Set<string>();
  let chars = 0;
  let full = false;
  for (const file of files) {
    if (full) {
      problems.push({
        source: file.path,
        reason: `not read: the corpus is full (${limits.maxDocs} documents or ${limits.maxChars} characters at most). Fix: import a smaller corpus`,
        kept: false,
      });
      continue;
    }
    const prefix = baseName(file.path).replace(/\.jsonl?$/, '');
    eachLine(file.text, limits.maxLineChars, (raw, line, length) => {
      const source = `${file.path}:${line}`;
      if (raw === null) return void problems.push(longLineProblem(source, length, limits.maxLineChars));
      if (raw.trim() === '') return;
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        return void problems.push({ source, reason: 'not valid JSON', kept: false });
      }
      const doc = corpusDocOf(value, `${prefix}-${line}`);
      if (typeof doc === 'string') return void problems.push({ source, reason: doc, kept: false });
      if (ids.has(doc.id))
        return void problems.push({
          source,
          reason: `duplicate document id ${JSON.stringify(doc.id)}; the first one is kept`,
          kept: false,
        });
      if (docs.length >= limits.maxDocs || chars + doc.text.length > limits.maxChars) {
        full = true;
        problems.push({
          source,
          reason: `expected at most ${limits.maxDocs} documents and ${limits.maxChars} characters of text, saw more; this line and the rest of the file were not read. Fix: import a smaller corpus`,
          kept: false,
        });
        return false;
      }
      ids.add(doc.id);
      docs.push(doc);
      chars += doc.text.length;
    });
  }
  return { docs, problems };
}
