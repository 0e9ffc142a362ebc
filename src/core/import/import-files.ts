import { parseCorpus, type CorpusDoc } from '../corpus.ts';
import { DEFAULT_VALIDATION, validateEnvironment, type ValidationOptions } from '../env/validate-env.ts';
import { baseName, isObject, type HashText, type ImportFile, type ImportProblem } from '../export/files.ts';
import { isRunArchive, parseArchive } from '../export/run-archive.ts';
import type { RunSnapshot } from '../export/run-snapshot.ts';
import { failureReason, poolRunSnapshot, validateCandidates, type ValidatePorts } from './import-envs.ts';
import { isChecksumFile, parsePoolFiles, parsePoolRows } from './pool-import.ts';

/** What an import holds: a run archive, a SPADE pool of `.py` files, released pool rows (`code` column), or a grounding corpus. */
export type ImportKind = 'archive' | 'pool' | 'rows' | 'corpus';

/** The outside world an import needs. */
export interface ImportPorts extends ValidatePorts {
  hashText: HashText;
}

/** Naming of the run an import creates. */
export interface ImportOptions {
  /** Id of the new run (default: an archive keeps its own; a pool gets `import-<now in base 36>`). */
  runId?: string;
  /** Name of the new run (default: the archive's name, or "Imported pool"). */
  name?: string;
  /** Milliseconds since 1970. */
  now: number;
}

/** The outcome of an import: the run to store (or corpus documents), what was taken, and every problem. */
export interface ImportReport {
  kind: ImportKind | null;
  snapshot: RunSnapshot | null;
  corpus: CorpusDoc[] | null;
  /** Entries that reached validation: environments past the checksum checks (or corpus lines). */
  found: number;
  /** Environments (or documents) taken. */
  imported: number;
  problems: ImportProblem[];
}

function firstRow(file: ImportFile): unknown {
  const text = file.path.endsWith('.jsonl') ? (file.text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '') : file.text;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value[0] : isObject(value) && Array.isArray(value.rows) ? value.rows[0] : value;
  } catch {
    return null;
  }
}

/** Tells what the files hold (null when nothing usable). */
export function detectImportKind(files: readonly ImportFile[]): ImportKind | null {
  if (isRunArchive(files)) return 'archive';
  if (files.some((f) => f.path.endsWith('.py'))) return 'pool';
  const data = files.filter((f) => /\.jsonl?$/.test(f.path) && !isChecksumFile(f.path));
  const row = data.length > 0 ? firstRow(data[0]!) : null;
  if (isObject(row) && typeof row.code === 'string') return 'rows';
  if (isObject(row) && (typeof row.text === 'string' || typeof row.orig_doc === 'string')) return 'corpus';
  return null;
}

function importCorpus(files: readonly ImportFile[]): ImportReport {
  const docs: CorpusDoc[] = [];
  const problems: ImportProblem[] = [];
  const ids = new Set<string>();
  for (const file of files.filter((f) => /\.jsonl?$/.test(f.path))) {
    const parsed = parseCorpus(file.text, baseName(file.path).replace(/\.jsonl?$/, ''));
    problems.push(...parsed.problems.map((p) => ({ source: `${file.path}:${p.line}`, reason: p.reason, kept: false })));
    for (const doc of parsed.docs) {
      if (ids.has(doc.id)) problems.push({ source: file.path, reason: `duplicate document id ${JSON.stringify(doc.id)}; the first one is kept`, kept: false });
      else (ids.add(doc.id), docs.push(doc));
    }
  }
  return { kind: 'corpus', snapshot: null, corpus: docs, found: docs.length + problems.length, imported: docs.length, problems };
}

async function importArchive(files: readonly ImportFile[], ports: ImportPorts, options: ImportOptions): Promise<ImportReport> {
  const { snapshot, problems } = parseArchive(files);
  if (!snapshot) return { kind: 'archive', snapshot: null, corpus: null, found: 0, imported: 0, problems };
  const { config } = snapshot.meta;
  const validation: ValidationOptions = ports.validation ?? { ...DEFAULT_VALIDATION, maxTurns: config.maxTurns ?? DEFAULT_VALIDATION.maxTurns, totalTimeoutMs: config.validateTimeoutMs ?? DEFAULT_VALIDATION.totalTimeoutMs, callTimeoutMs: config.stepTimeoutMs ?? DEFAULT_VALIDATION.callTimeoutMs };
  const valid = snapshot.environments.filter((e) => e.status === 'valid');
  for (const [i, env] of valid.entries()) {
    const report = await validateEnvironment(env.code, ports.sandbox, validation);
    if (!report.ok) problems.push({ source: env.id, reason: `kept in the run's history, but it no longer validates: ${failureReason(report)}`, kept: true });
    ports.onProgress?.(i + 1, valid.length);
  }
  const meta = { ...snapshot.meta, id: options.runId ?? snapshot.meta.id, name: options.name ?? snapshot.meta.name, updatedAt: options.now };
  return { kind: 'archive', snapshot: { ...snapshot, meta }, corpus: null, found: snapshot.environments.length, imported: snapshot.environments.length, problems };
}

/**
 * Imports files read from a zip or folder (or one JSON/JSONL file): detects what they hold,
 * verifies checksums where present, re-validates every environment in the sandbox, and returns
 * the run to store (pool and rows imports become a one-epoch run of environments) with every
 * problem listed. Bad entries never abort an import.
 */
export async function importFiles(files: readonly ImportFile[], ports: ImportPorts, options: ImportOptions): Promise<ImportReport> {
  const kind = detectImportKind(files);
  if (kind === null) {
    return { kind, snapshot: null, corpus: null, found: 0, imported: 0, problems: [{ source: files.map((f) => f.path).join(', ') || '(nothing)', reason: 'found no run archive, .py files, JSON rows with a "code" column, or corpus lines with "text"/"orig_doc"', kept: false }] };
  }
  if (kind === 'corpus') return importCorpus(files);
  if (kind === 'archive') return importArchive(files, ports, options);
  const parsed = kind === 'pool' ? parsePoolFiles(files) : await parsePoolRows(files.filter((f) => /\.jsonl?$/.test(f.path)), ports.hashText);
  const { records, problems } = await validateCandidates(parsed.candidates, ports);
  const snapshot = records.length > 0
    ? poolRunSnapshot(records, { runId: options.runId ?? `import-${options.now.toString(36)}`, name: options.name ?? `Imported pool (${records.length} environments)`, now: options.now, candidates: parsed.candidates.length })
    : null;
  return { kind, snapshot, corpus: null, found: parsed.candidates.length, imported: records.length, problems: [...parsed.problems, ...problems] };
}
