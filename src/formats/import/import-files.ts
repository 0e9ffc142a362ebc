import type { CorpusDoc } from '../../core/loop/corpus.ts';
import { validateEnvironment } from '../../core/env/validate-env.ts';
import {
  baseName,
  dirName,
  eachLine,
  isObject,
  longLineProblem,
  type HashText,
  type ImportFile,
  type ImportProblem,
} from '../export/files.ts';
import { POOL_MANIFEST } from '../export/pool-format.ts';
import { ARCHIVE_MANIFEST, archiveRunId, isRunArchive, parseArchive } from '../export/run-archive.ts';
import { CONFIG_FILE, RUN_FILES, RUN_META_FILE, STATE_FILE } from '../export/run-files.ts';
import type { RunSnapshot } from '../export/run-snapshot.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import { readCorpusFiles } from './corpus-import.ts';
import { importedConfig } from './import-config.ts';
import { importedEvalSuite, importedFixedPool, importedPlaybookState, poolCodes } from './import-experiments.ts';
import {
  failureReason,
  importValidation,
  poolRunSnapshot,
  poolSetting,
  sharedVerdictNote,
  validateCandidates,
  type ValidatePorts,
} from './import-envs.ts';
import { validateEntries, validateOnce } from './validate-distinct.ts';
import { settingOfRecord } from '../export/pool-format.ts';
import { isObjectPropertyName, MAX_LINE_CHARS } from './import-limits.ts';
import { codeProblem, isChecksumFile, parsePoolFiles, parsePoolRows, UNLABELLED_SKILL } from './pool-import.ts';

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
  let text = file.text;
  if (file.path.endsWith('.jsonl')) {
    text = '';
    eachLine(file.text, MAX_LINE_CHARS, (line) => {
      if (line === null || line.trim() === '') return true;
      text = line;
      return false;
    });
  }
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

const ARCHIVE_FILES = new Set([ARCHIVE_MANIFEST, RUN_META_FILE, STATE_FILE, CONFIG_FILE, ...RUN_FILES]);

const READS: Record<ImportKind, { what: string; reads: (path: string, archiveRoot: string) => boolean }> = {
  archive: {
    what: "the run archive's own files (manifest.json, run.json, state.json, config.json and its .jsonl files)",
    reads: (path, root) => dirName(path) === root && ARCHIVE_FILES.has(baseName(path)),
  },
  pool: {
    what: '.py games, checksum files and manifest.jsonl',
    reads: (path) => path.endsWith('.py') || isChecksumFile(path) || baseName(path) === POOL_MANIFEST,
  },
  rows: { what: '.json and .jsonl row files', reads: (path) => /\.jsonl?$/.test(path) },
  corpus: { what: '.jsonl and .json corpus files', reads: (path) => /\.jsonl?$/.test(path) },
};

function unreadFiles(kind: ImportKind, files: readonly ImportFile[]): ImportProblem[] {
  const manifest = files
    .filter((f) => baseName(f.path) === ARCHIVE_MANIFEST)
    .sort((a, b) => a.path.length - b.path.length)[0];
  const root = manifest ? dirName(manifest.path) : '';
  const { what, reads } = READS[kind];
  return files
    .filter((f) => !reads(f.path, root))
    .map((f) => ({
      source: f.path,
      reason: `not part of this ${kind} import, which reads ${what}; skipped`,
      kept: false,
    }));
}

// Over-long lines of JSON Lines files, which may be why nothing was recognised.
function longLines(files: readonly ImportFile[]): ImportProblem[] {
  const problems: ImportProblem[] = [];
  for (const file of files.filter((f) => f.path.endsWith('.jsonl'))) {
    eachLine(
      file.text,
      MAX_LINE_CHARS,
      (line, number, length) =>
        void (line === null && problems.push(longLineProblem(`${file.path}:${number}`, length, MAX_LINE_CHARS))),
    );
  }
  return problems;
}

function importCorpus(files: readonly ImportFile[]): ImportReport {
  const { docs, problems } = readCorpusFiles(files.filter((f) => /\.jsonl?$/.test(f.path)));
  return {
    kind: 'corpus',
    snapshot: null,
    corpus: docs,
    found: docs.length + problems.length,
    imported: docs.length,
    problems,
  };
}

function checkedEnvironments(
  environments: readonly EnvironmentRecord[],
  problems: ImportProblem[],
): EnvironmentRecord[] {
  return environments.flatMap((env) => {
    const bad = codeProblem(env.code);
    if (bad)
      return (
        problems.push({ source: env.id, reason: `${bad}; this environment is left out of the run`, kept: false }),
        []
      );
    if (!isObjectPropertyName(env.skill)) return [env];
    problems.push({
      source: env.id,
      reason: `expected a skill name, saw ${JSON.stringify(env.skill)} (a built-in object property); kept as ${UNLABELLED_SKILL}`,
      kept: true,
    });
    return [{ ...env, skill: UNLABELLED_SKILL }];
  });
}

async function importArchive(
  files: readonly ImportFile[],
  ports: ImportPorts,
  options: ImportOptions,
): Promise<ImportReport> {
  const { snapshot, problems } = parseArchive(files);
  if (!snapshot) return { kind: 'archive', snapshot: null, corpus: null, found: 0, imported: 0, problems };
  const checked = importedConfig(snapshot.meta.config, RUN_META_FILE);
  problems.push(...checked.problems);
  if (!checked.config)
    return {
      kind: 'archive',
      snapshot: null,
      corpus: null,
      found: snapshot.environments.length,
      imported: 0,
      problems,
    };
  const environments = checkedEnvironments(snapshot.environments, problems);
  const validateCode = validateOnce((code) =>
    validateEnvironment(code, ports.sandbox, importValidation(ports, { maxTurns: checked.config!.maxTurns })),
  );
  const valid = environments.filter((e) => e.status === 'valid');
  // The fixed pool's and the held-out pool's environments go in the same pass (checked again below from the cache), so none is validated after the progress says done.
  const verdicts = await validateEntries(
    [...valid.map((e) => e.code), ...poolCodes(snapshot.meta)],
    validateCode,
    ports.sandbox.parallelism ?? 1,
    ports.onProgress,
  );
  for (const [i, { report, validatedAs }] of verdicts.slice(0, valid.length).entries()) {
    const shared = validatedAs === i ? '' : ` (${sharedVerdictNote(valid[validatedAs]!.id)})`;
    if (!report.ok)
      problems.push({
        source: valid[i]!.id,
        reason: `kept in the run's history, but it no longer validates: ${failureReason(report)}${shared}`,
        kept: true,
      });
  }
  const validate = async (code: string) => {
    const report = await validateCode(code);
    return report.ok ? null : failureReason(report);
  };
  const renamed = {
    ...snapshot.meta,
    config: checked.config,
    id: options.runId ?? snapshot.meta.id,
    name: options.name ?? snapshot.meta.name,
    updatedAt: options.now,
  };
  const meta = await importedEvalSuite(
    await importedFixedPool(renamed, ports.hashText, problems, validate),
    ports.hashText,
    problems,
    validate,
  );
  const state = importedPlaybookState(snapshot.state, 'state.json', problems);
  return {
    kind: 'archive',
    snapshot: { ...snapshot, meta, state, environments },
    corpus: null,
    found: snapshot.environments.length,
    imported: environments.length,
    problems,
  };
}

// The id a pool or rows import gives its run when none is asked for.
const poolRunId = (options: ImportOptions) => options.runId ?? `import-${options.now.toString(36)}`;

/** The id of the run importing `files` would create (an archive keeps its own unless `options.runId` names another), read without validating anything; null when it creates no run (a corpus, or nothing recognisable). */
export function plannedRunId(files: readonly ImportFile[], options: ImportOptions): string | null {
  const kind = detectImportKind(files);
  if (kind === 'archive') return options.runId ?? archiveRunId(files);
  return kind === 'pool' || kind === 'rows' ? poolRunId(options) : null;
}

/**
 * Imports files read from a zip or folder (or one JSON/JSONL file): detects what they hold,
 * verifies checksums where present, re-validates every environment in the sandbox, and returns
 * the run to store (pool and rows imports become a one-epoch run of environments) with every
 * problem listed. Bad entries never abort an import.
 */
export async function importFiles(
  files: readonly ImportFile[],
  ports: ImportPorts,
  options: ImportOptions,
): Promise<ImportReport> {
  const kind = detectImportKind(files);
  if (kind === null) {
    const nothing = {
      source: files.map((f) => f.path).join(', ') || '(nothing)',
      reason: 'found no run archive, .py files, JSON rows with a "code" column, or corpus lines with "text"/"orig_doc"',
      kept: false,
    };
    return { kind, snapshot: null, corpus: null, found: 0, imported: 0, problems: [...longLines(files), nothing] };
  }
  const report = await importKind(kind, files, ports, options);
  return { ...report, problems: [...unreadFiles(kind, files), ...report.problems] };
}

async function importKind(
  kind: ImportKind,
  files: readonly ImportFile[],
  ports: ImportPorts,
  options: ImportOptions,
): Promise<ImportReport> {
  if (kind === 'corpus') return importCorpus(files);
  if (kind === 'archive') return importArchive(files, ports, options);
  const parsed =
    kind === 'pool'
      ? parsePoolFiles(files)
      : await parsePoolRows(
          files.filter((f) => /\.jsonl?$/.test(f.path)),
          ports.hashText,
        );
  const { records, problems } = await validateCandidates(parsed.candidates, ports);
  const toolUse = records.filter((r) => settingOfRecord(r) === 'tool_use').length;
  if (toolUse > 0 && poolSetting(records) === 'games') {
    problems.push({
      source: '(pool)',
      reason: `${toolUse} of the ${records.length} environments are tool-use ones and the rest games; the run's setting is "games" (each environment still plays as what it is)`,
      kept: true,
    });
  }
  const snapshot =
    records.length > 0
      ? poolRunSnapshot(records, {
          runId: poolRunId(options),
          name: options.name ?? `Imported pool (${records.length} environments)`,
          now: options.now,
          candidates: parsed.candidates.length,
        })
      : null;
  return {
    kind,
    snapshot,
    corpus: null,
    found: parsed.candidates.length,
    imported: records.length,
    problems: [...parsed.problems, ...problems],
  };
}
