import { hashText, sha256Hex } from '../../adapters/store/sha256.ts';
import type { Suite } from '../../core/eval/suite.ts';
import { isObject, parseJsonLines, type ImportFile, type ImportProblem } from '../../formats/export/files.ts';
import { POOL_GAMES_DIR, POOL_MANIFEST } from '../../formats/export/pool-format.ts';
import { readSuite } from '../../formats/import/suite-import.ts';

/** Folder of the built-in held-out suite, under the app's base URL. */
export const BUILTIN_SUITE_FOLDER = 'suites/builtin/';
/** Name the built-in held-out suite is recorded under. */
export const BUILTIN_SUITE_NAME = 'builtin';
/** Folder of the bundled fixed pool, under the app's base URL. */
export const STARTER_POOL_FOLDER = 'pools/starter/';
/** Name the bundled fixed pool is recorded under. */
export const STARTER_POOL_NAME = 'starter';

/** Fetches a file the app serves (a path under its base URL) as text; throws when it cannot. */
export type FetchText = (path: string) => Promise<string>;

/** A pool's files as the import machinery reads them, and the problems of reading them. */
export interface PoolFiles {
  files: ImportFile[];
  problems: ImportProblem[];
}

/** Where a manifest row's game is inside its pool folder: a bare file name lives in `games/`. */
function gamePath(fileName: string): string {
  return fileName.includes('/') ? fileName : `${POOL_GAMES_DIR}/${fileName}`;
}

/** Reads a served pool folder: its manifest.jsonl, then every `.py` file a row names (a bare name is read from `games/`). */
export async function readServedPool(fetchText: FetchText, folder: string): Promise<PoolFiles> {
  const manifestText = await fetchText(folder + POOL_MANIFEST);
  const parsed = parseJsonLines(manifestText, folder + POOL_MANIFEST);
  const names = parsed.rows
    .map((r) => r.value)
    .filter(
      (v): v is { file_name: string } => isObject(v) && typeof v.file_name === 'string' && v.file_name.endsWith('.py'),
    );
  const files = await Promise.all(
    [POOL_MANIFEST, ...names.map((row) => gamePath(row.file_name))].map(async (path) => {
      const text = path === POOL_MANIFEST ? manifestText : await fetchText(folder + path);
      return { path, text, sha256: await sha256Hex(text) };
    }),
  );
  return { files, problems: parsed.problems };
}

/**
 * Loads a served pool folder as a suite through the suite reader (the pool reader, skills and
 * titles from the manifest), with no sandbox validation: for the built-in held-out suite, whose
 * games are checked where they are written. Throws when a file could not be taken.
 */
export async function loadServedSuite(fetchText: FetchText, folder: string, name: string): Promise<Suite> {
  const read = await readServedPool(fetchText, folder);
  const { suite, problems } = await readSuite(name, read.files, hashText);
  const dropped = [...read.problems, ...problems].filter((p) => !p.kept);
  if (dropped.length > 0)
    throw new Error(
      `The ${name} suite could not be read: ${dropped.map((p) => `${p.source}: ${p.reason}`).join('; ')}. Reload the page.`,
    );
  return suite;
}
