import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { validationNonce } from '../adapters/validation-nonce.ts';
import { oversizeReason, tooManyFilesProblem, type ReadFiles } from '../adapters/store/import-read.ts';
import { importIntoStore, runIdProblem } from '../adapters/store/import-run.ts';
import { DEFAULT_VALIDATION, validationForBudget } from '../core/env/validate-env.ts';
import { toJsonLines } from '../formats/export/files.ts';
import { MAX_IMPORT_FILES, MAX_IMPORT_TOTAL_BYTES } from '../formats/import/import-limits.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { importProgressLine } from '../formats/import/import-progress.ts';
import { integerOption, parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { count } from './plural.ts';

// Every file under a folder (at most one past MAX_IMPORT_FILES), and why other entries are not read.
async function listFolder(
  root: string,
  dir = root,
  out = { paths: [] as string[], passed: [] as Array<{ path: string; why: string }> },
) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.name.startsWith('.')) out.passed.push({ path, why: 'a hidden file or folder; not read' });
    else if (entry.isDirectory()) await listFolder(root, path, out);
    else if (entry.isFile()) out.paths.push(path);
    else out.passed.push({ path, why: 'not a regular file (a link, socket or device); not read' });
    if (out.paths.length > MAX_IMPORT_FILES) break;
  }
  return out;
}

/** Reads a file or a folder's files within the import limits: hidden entries, non-files and files over the caps are listed as problems, never read. */
export async function readInputs(source: string, isFolder: boolean): Promise<ReadFiles> {
  const listed = isFolder ? await listFolder(source) : { paths: [source], passed: [] };
  const paths = listed.paths;
  const read: ReadFiles = {
    files: [],
    problems: listed.passed.map(({ path, why }) => ({
      source: relative(source, path).split('\\').join('/'),
      reason: why,
      kept: false,
    })),
  };
  if (paths.length > MAX_IMPORT_FILES) read.problems.push(tooManyFilesProblem(source, paths.length));
  const budget = { remaining: MAX_IMPORT_TOTAL_BYTES };
  for (const path of paths.slice(0, MAX_IMPORT_FILES)) {
    const name = isFolder ? relative(source, path).split('\\').join('/') : basename(path);
    const zip = name.toLowerCase().endsWith('.zip');
    const tooLarge = oversizeReason((await stat(path)).size, zip ? { remaining: Infinity } : budget);
    if (tooLarge) {
      read.problems.push({ source: name, reason: tooLarge, kept: false });
      continue;
    }
    const bytes = new Uint8Array(await readFile(path));
    if (!zip) budget.remaining -= bytes.length;
    read.files.push({ path: name, bytes });
  }
  return read;
}

// Seconds between progress lines on a terminal.
const PROGRESS_EVERY_MS = 2000;

/** Validation progress on standard error: on a terminal a line with the time left every two seconds; always a closing summary once anything was validated. */
export function validationProgress(warn: (line: string) => void, terminal: boolean, now: () => number = Date.now) {
  const started = now();
  let shownAt = started;
  let last: { done: number; total: number } | null = null;
  return {
    update(done: number, total: number): void {
      last = { done, total };
      if (!terminal || done >= total || now() - shownAt < PROGRESS_EVERY_MS) return;
      shownAt = now();
      warn(importProgressLine(done, total, shownAt - started));
    },
    finish(entries: number): void {
      if (!last) return;
      const seconds = Math.max(0.001, (now() - started) / 1000);
      warn(
        `${importProgressLine(last.done, last.total, now() - started)} for ${entries} entr${entries === 1 ? 'y' : 'ies'} (${(entries / seconds).toFixed(1)} entries/s)`,
      );
    },
  };
}

/** The flags of `spade import`. */
export const IMPORT_OPTIONS = {
  out: {
    type: 'string',
    value: 'DIR',
    help: 'the run directory to import into (a corpus becomes DIR/corpus.jsonl); required',
  },
  name: { type: 'string', value: 'NAME', help: "the imported run's name" },
  as: { type: 'string', value: 'ID', help: "the imported run's id, instead of the one it had" },
  'timeout-ms': {
    type: 'string',
    value: 'N',
    help: `the validation budget of each environment's own running time, in ms (default ${DEFAULT_VALIDATION.totalTimeoutMs})`,
  },
  replace: { type: 'boolean', help: 'replace the run (or corpus) --out already holds' },
} as const satisfies OptionTable;

/**
 * `import FILE|FOLDER --out DIR [--name NAME] [--as ID] [--timeout-ms N] [--replace]`: imports a
 * SPADE pool (zip or folder of .py files), pool rows (JSON/JSONL with `code`), a run archive (zip)
 * or a corpus (JSONL) into a run directory (a corpus becomes DIR/corpus.jsonl). A run is never
 * written over the one DIR holds, nor a corpus over DIR/corpus.jsonl, unless --replace: the clash
 * is refused before anything is validated. `--as ID` gives the run another id. Lists every
 * problem; exit 0 when everything was taken, 1 when some entries were left out.
 */
export async function runImport(
  argv: string[],
  runtime: () => SandboxRuntime,
  print: (line: string) => void,
  warn: (line: string) => void = () => undefined,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, IMPORT_OPTIONS);
  if (positionals.length !== 1 || !values.out) throw new UsageError('import needs one FILE or FOLDER and --out DIR');
  const source = positionals[0]!;
  const info = await stat(source).catch(() => null);
  if (!info) throw new UsageError(`cannot read ${source}`);
  const totalMs = integerOption(values['timeout-ms'], 'timeout-ms', DEFAULT_VALIDATION.totalTimeoutMs);
  if (totalMs === 0) throw new UsageError('--timeout-ms must be positive');
  const read = await readInputs(source, info.isDirectory());
  const validation = { ...validationForBudget(totalMs), nonce: validationNonce() };
  const runId = values.as === undefined ? undefined : String(values.as);
  const badId = runId === undefined ? null : runIdProblem(runId);
  if (badId) throw new UsageError(`--as: ${badId}`);
  const out = String(values.out);
  const store = new FileRunStore(out, { replaceExisting: values.replace === true });
  const checkTarget = async () => {
    const [held] = values.replace ? [] : await store.listRuns();
    if (held)
      throw new UsageError(
        `${out} already holds the run ${held.id} ("${held.name}"); nothing was validated or written. Fix: pass --replace to replace it, or choose another --out`,
      );
  };
  const naming = {
    now: Date.now(),
    ...(values.name ? { name: String(values.name) } : {}),
    ...(runId === undefined ? {} : { runId }),
  };
  const progress = validationProgress(warn, process.stderr.isTTY === true);
  const report = await importIntoStore(
    store,
    read.files,
    { sandbox: runtime(), validation, onProgress: progress.update },
    { ...naming, checkTarget },
    read.problems,
  );
  progress.finish(report.found);
  for (const p of report.problems) print(`${p.kept ? 'warning' : 'skipped'}  ${p.source}: ${p.reason}`);
  if (report.corpus) {
    const file = join(out, 'corpus.jsonl');
    if (existsSync(file) && !values.replace) {
      throw new UsageError(
        `${file} already exists; expected a new place for the corpus. Nothing was written. Fix: pass --replace to overwrite it, or choose another --out`,
      );
    }
    await mkdir(out, { recursive: true });
    await writeFile(file, toJsonLines(report.corpus));
    print(`imported ${count(report.imported, 'corpus document')} into ${file} (use it with spade run --corpus)`);
  } else if (report.runId) {
    print(
      `imported ${report.imported} of ${count(report.found, 'environment')} (${report.kind}) into ${out} as run ${report.runId}`,
    );
  } else {
    print(`nothing imported from ${source}${report.kind ? ` (${report.kind})` : ''}`);
  }
  return report.problems.some((p) => !p.kept) || (!report.runId && !report.corpus) ? 1 : 0;
}
