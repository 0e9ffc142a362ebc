import {
  baseName,
  isObject,
  parseJsonLines,
  utf8Length,
  type HashText,
  type ImportFile,
  type ImportProblem,
} from '../export/files.ts';
import {
  parseChecksums,
  POOL_MANIFEST,
  skillFromSlug,
  skillSlugOfFileName,
  stripPoolHeader,
} from '../export/pool-format.ts';
import {
  formatBytes,
  hasLoneSurrogate,
  isObjectPropertyName,
  MAX_CODE_BYTES,
  MAX_DOMAIN_CHARS,
} from './import-limits.ts';
import { RUN_SETTINGS, type RunSetting } from '../../core/skills.ts';

/** An environment found in an import, before validation. */
export interface ImportCandidate {
  /** Where it came from: a path, or `file:line`. */
  source: string;
  code: string;
  skill: string;
  hint: string | null;
  /** The setting the pool's row declares (checked against the code once validated); absent when none. */
  setting?: RunSetting;
  /** The everyday domain the row declares for a tool-use task; absent when none. */
  domain?: string;
}

/** Skill given to environments an import cannot place. */
export const UNLABELLED_SKILL = 'Unlabelled';

/** True for a file that holds checksums in `sha256sum` format. */
export function isChecksumFile(path: string): boolean {
  const name = baseName(path);
  return name.endsWith('.sha256') || name === 'SHA256SUMS' || name === 'sha256sums.txt';
}

/** Why an environment's code cannot be validated as it is (empty, over MAX_CODE_BYTES, or not text), or null when it can. */
export function codeProblem(code: string): string | null {
  if (code.trim() === '')
    return "expected Python code, saw none. Fix: put the environment's code in the file or column";
  const bytes = code.length > MAX_CODE_BYTES ? code.length : utf8Length(code);
  if (bytes > MAX_CODE_BYTES)
    return `expected at most ${formatBytes(MAX_CODE_BYTES)} of code, saw ${formatBytes(bytes)}; not sent to the sandbox. Fix: import games of ordinary size`;
  if (hasLoneSurrogate(code))
    return 'expected text, saw a lone UTF-16 surrogate (a "\\ud800"-style escape) that has no UTF-8 bytes. Fix: re-export the row as UTF-8 text';
  return null;
}

/** The candidate, or null (with the reason in `problems`) when its code cannot be validated; a skill named like a built-in object property becomes UNLABELLED_SKILL. */
function candidateOf(candidate: ImportCandidate, problems: ImportProblem[]): ImportCandidate | null {
  const bad = codeProblem(candidate.code);
  if (bad) return (problems.push({ source: candidate.source, reason: bad, kept: false }), null);
  if (!isObjectPropertyName(candidate.skill)) return candidate;
  problems.push({
    source: candidate.source,
    reason: `expected a skill name, saw ${JSON.stringify(candidate.skill)} (a built-in object property); imported as ${UNLABELLED_SKILL}`,
    kept: true,
  });
  return { ...candidate, skill: UNLABELLED_SKILL };
}

const shown = (value: unknown) => (JSON.stringify(value) ?? String(value)).slice(0, 80);

/** The setting and domain a pool row declares, each checked as untrusted text; a bad one is dropped with a problem saying why. */
function declaredFacts(
  row: Record<string, unknown> | undefined,
  source: string,
  problems: ImportProblem[],
): Pick<ImportCandidate, 'setting' | 'domain'> {
  const facts: Pick<ImportCandidate, 'setting' | 'domain'> = {};
  const { setting, domain } = row ?? {};
  if (setting !== undefined && setting !== null) {
    if (RUN_SETTINGS.includes(setting as RunSetting)) facts.setting = setting as RunSetting;
    else
      problems.push({
        source,
        reason: `expected setting "games" or "tool_use", saw ${shown(setting)}; ignored, the code decides`,
        kept: true,
      });
  }
  if (domain === undefined || domain === null) return facts;
  const text = typeof domain === 'string' ? domain.trim() : '';
  if (text === '' || text.length > MAX_DOMAIN_CHARS || hasLoneSurrogate(text) || /\p{Cc}/u.test(text)) {
    problems.push({
      source,
      reason: `expected a domain: one line of 1 to ${MAX_DOMAIN_CHARS} characters, saw ${shown(domain)}; dropped`,
      kept: true,
    });
  } else if (facts.setting === 'games') {
    problems.push({
      source,
      reason: `a game has no domain, saw ${shown(domain)} on a row whose setting is "games"; dropped`,
      kept: true,
    });
  } else facts.domain = text;
  return facts;
}

function skillOf(row: Record<string, unknown> | undefined, fileName: string): string {
  if (typeof row?.skill_name === 'string' && row.skill_name) return row.skill_name;
  if (typeof row?.skill === 'string' && row.skill) return skillFromSlug(row.skill);
  const slug = skillSlugOfFileName(fileName);
  return slug ? skillFromSlug(slug) : UNLABELLED_SKILL;
}

/** The rows of a pool's `manifest.jsonl` files by the base name of their `file_name` (`games/a.py` and `a.py` both name `a.py`); unreadable lines go to `problems`. */
export function manifestRows(
  files: readonly ImportFile[],
  problems: ImportProblem[],
): Map<string, Record<string, unknown>> {
  const rows = new Map<string, Record<string, unknown>>();
  for (const file of files.filter((f) => baseName(f.path) === POOL_MANIFEST)) {
    const parsed = parseJsonLines(file.text, file.path);
    problems.push(
      ...parsed.problems.map((p) => ({ ...p, kept: true, reason: `${p.reason}; metadata of that game ignored` })),
    );
    for (const { value } of parsed.rows)
      if (isObject(value) && typeof value.file_name === 'string') rows.set(baseName(value.file_name), value);
  }
  return rows;
}

/**
 * Reads a SPADE pool (the `.py` files of a zip or folder, with `checksums.sha256` and
 * `manifest.jsonl` when present). Each file listed in a checksum file is verified: a mismatch
 * is reported and the file left out; unlisted files are imported with a warning. The trainer's
 * header line is removed; skill and hint come from the manifest or the reference file name.
 */
export function parsePoolFiles(files: readonly ImportFile[]): {
  candidates: ImportCandidate[];
  problems: ImportProblem[];
} {
  const problems: ImportProblem[] = [];
  const sums = new Map<string, string>();
  for (const file of files.filter((f) => isChecksumFile(f.path))) {
    const parsed = parseChecksums(file.text, file.path);
    parsed.badLines.forEach((line) =>
      problems.push({
        source: `${file.path}:${line}`,
        reason: 'not a sha256sum line ("<64 hex>  <path>"); ignored',
        kept: false,
      }),
    );
    parsed.sums.forEach((hash, path) => sums.set(path, hash));
  }
  const manifest = manifestRows(files, problems);
  const hidden = files.filter((f) => f.path.endsWith('.py') && baseName(f.path).startsWith('.'));
  hidden.forEach((f) =>
    problems.push({
      source: f.path,
      reason: 'a hidden file (a dotfile, or macOS "._" metadata), not a game; skipped',
      kept: false,
    }),
  );
  const python = files
    .filter((f) => f.path.endsWith('.py') && !baseName(f.path).startsWith('.'))
    .sort((a, b) => (a.path < b.path ? -1 : 1));
  const present = new Set(python.map((f) => f.path));
  const candidates: ImportCandidate[] = [];
  for (const file of python) {
    const expected = sums.get(file.path);
    if (expected !== undefined && expected !== file.sha256) {
      problems.push({
        source: file.path,
        reason: `checksum mismatch: the checksum file says ${expected}, the file's bytes hash to ${file.sha256}`,
        kept: false,
      });
      continue;
    }
    if (expected === undefined && sums.size > 0)
      problems.push({ source: file.path, reason: 'not listed in the checksum file; imported unverified', kept: true });
    const row = manifest.get(baseName(file.path));
    const declared = declaredFacts(row, file.path, problems);
    const taken = candidateOf(
      {
        source: file.path,
        code: stripPoolHeader(file.text),
        skill: skillOf(row, file.path),
        hint: typeof row?.hint === 'string' ? row.hint : null,
        ...declared,
      },
      problems,
    );
    if (taken) candidates.push(taken);
  }
  for (const path of sums.keys())
    if (!present.has(path))
      problems.push({ source: path, reason: 'listed in the checksum file but missing', kept: false });
  return { candidates, problems };
}

function rowsOf(file: ImportFile, problems: ImportProblem[]): Array<{ source: string; value: unknown }> {
  if (file.path.endsWith('.jsonl')) {
    const parsed = parseJsonLines(file.text, file.path);
    problems.push(...parsed.problems);
    return parsed.rows.map((r) => ({ source: `${file.path}:${r.line}`, value: r.value }));
  }
  let value: unknown;
  try {
    value = JSON.parse(file.text);
  } catch {
    problems.push({ source: file.path, reason: 'not valid JSON', kept: false });
    return [];
  }
  const list = Array.isArray(value) ? value : isObject(value) && Array.isArray(value.rows) ? value.rows : [value];
  return list.map((row: unknown, i: number) => ({ source: `${file.path}[${i}]`, value: row }));
}

/**
 * Reads released pool rows (JSON Lines, or a JSON array or `{"rows": [...]}`) with a `code`
 * column. A `sha256` column, when present, must match the code's UTF-8 bytes or the row is left out.
 */
export async function parsePoolRows(
  files: readonly ImportFile[],
  hashText: HashText,
): Promise<{ candidates: ImportCandidate[]; problems: ImportProblem[] }> {
  const problems: ImportProblem[] = [];
  const candidates: ImportCandidate[] = [];
  for (const file of files) {
    for (const { source, value } of rowsOf(file, problems)) {
      const label = isObject(value) && typeof value.game_id === 'string' ? `${source} (${value.game_id})` : source;
      if (!isObject(value) || typeof value.code !== 'string' || value.code.trim() === '') {
        problems.push({ source: label, reason: 'no non-empty "code" column', kept: false });
        continue;
      }
      const bad = codeProblem(value.code);
      if (bad) {
        problems.push({ source: label, reason: bad, kept: false });
        continue;
      }
      if (typeof value.sha256 === 'string') {
        const actual = await hashText(value.code);
        if (actual !== value.sha256.toLowerCase()) {
          problems.push({
            source: label,
            reason: `checksum mismatch: the row says ${value.sha256}, its code hashes to ${actual}`,
            kept: false,
          });
          continue;
        }
      }
      const name =
        typeof value.original_file_name === 'string'
          ? value.original_file_name
          : typeof value.file_name === 'string'
            ? value.file_name
            : '';
      const declared = declaredFacts(value, label, problems);
      const taken = candidateOf(
        {
          source: label,
          code: stripPoolHeader(value.code),
          skill: skillOf(value, name),
          hint: typeof value.hint === 'string' ? value.hint : null,
          ...declared,
        },
        problems,
      );
      if (taken) candidates.push(taken);
    }
  }
  return { candidates, problems };
}
