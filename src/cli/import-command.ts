import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import { importIntoStore } from '../adapters/store/import-run.ts';
import type { ByteFile } from '../adapters/store/zip.ts';
import { DEFAULT_VALIDATION } from '../core/env/validate-env.ts';
import { toJsonLines } from '../core/export/files.ts';
import type { SandboxRuntime } from '../core/sandbox-port.ts';
import { integerOption, parseCommandArgs, UsageError } from './args.ts';

/** Most files read from a folder. */
const MAX_FOLDER_FILES = 100_000;

async function readFolder(root: string, dir = root, out: ByteFile[] = []): Promise<ByteFile[]> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) await readFolder(root, path, out);
    else if (entry.isFile()) {
      if (out.length >= MAX_FOLDER_FILES) throw new UsageError(`${root} has more than ${MAX_FOLDER_FILES} files`);
      out.push({ path: relative(root, path).split('\\').join('/'), bytes: new Uint8Array(await readFile(path)) });
    }
  }
  return out;
}

/**
 * `import FILE|FOLDER --out DIR [--name NAME] [--timeout-ms N]`: imports a SPADE pool (zip or
 * folder of .py files), pool rows (JSON/JSONL with `code`), a run archive (zip) or a corpus
 * (JSONL) into a run directory (a corpus becomes DIR/corpus.jsonl). Lists every problem; exit 0
 * when everything was taken, 1 when some entries were left out.
 */
export async function runImport(argv: string[], runtime: () => SandboxRuntime, print: (line: string) => void): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, { out: { type: 'string' }, name: { type: 'string' }, 'timeout-ms': { type: 'string' } });
  if (positionals.length !== 1 || !values.out) throw new UsageError('import needs one FILE or FOLDER and --out DIR');
  const source = positionals[0]!;
  const info = await stat(source).catch(() => null);
  if (!info) throw new UsageError(`cannot read ${source}`);
  const inputs = info.isDirectory() ? await readFolder(source) : [{ path: basename(source), bytes: new Uint8Array(await readFile(source)) }];
  const totalMs = integerOption(values['timeout-ms'], 'timeout-ms', DEFAULT_VALIDATION.totalTimeoutMs);
  if (totalMs === 0) throw new UsageError('--timeout-ms must be positive');
  const validation = { ...DEFAULT_VALIDATION, totalTimeoutMs: totalMs, callTimeoutMs: Math.min(DEFAULT_VALIDATION.callTimeoutMs, totalMs) };
  const out = String(values.out);
  const store = new FileRunStore(out);
  const report = await importIntoStore(store, inputs, { sandbox: runtime(), validation }, { now: Date.now(), ...(values.name ? { name: String(values.name) } : {}) });
  for (const p of report.problems) print(`${p.kept ? 'warning' : 'skipped'}  ${p.source}: ${p.reason}`);
  if (report.corpus) {
    await mkdir(out, { recursive: true });
    await writeFile(join(out, 'corpus.jsonl'), toJsonLines(report.corpus));
    print(`imported ${report.imported} corpus document(s) into ${join(out, 'corpus.jsonl')} (use it with spade run --corpus)`);
  } else if (report.runId) {
    print(`imported ${report.imported} of ${report.found} environment(s) (${report.kind}) into ${out} as run ${report.runId}`);
  } else {
    print(`nothing imported from ${source}${report.kind ? ` (${report.kind})` : ''}`);
  }
  return report.problems.some((p) => !p.kept) || (!report.runId && !report.corpus) ? 1 : 0;
}
