import { writeFile } from 'node:fs/promises';
import { EXPORT_FORMATS, exportRun, type ExportFormat } from '../adapters/store/export-run.ts';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import type { SandboxRuntime } from '../core/ports/sandbox-port.ts';
import { parseCommandArgs, UsageError, type OptionTable } from './args.ts';
import { count } from './plural.ts';

const WHAT: Record<ExportFormat, string> = {
  pool: 'games',
  rollouts: 'rollout rows',
  metrics: 'epochs',
  archive: 'environments',
};

/** The flags of `spade export`. */
export const EXPORT_OPTIONS = {
  run: { type: 'string', value: 'DIR', help: 'the run directory to export; required' },
  format: {
    type: 'string',
    value: EXPORT_FORMATS.join('|'),
    help: "what to write: the pool (SPADE's format), the trained rollout rows, the epoch metrics, or a run archive; required",
  },
  out: { type: 'string', value: 'FILE', help: 'the file to write; required' },
} as const satisfies OptionTable;

/** `export --run DIR --format pool|rollouts|metrics|archive --out FILE`: exports a run directory. */
export async function runExport(
  argv: string[],
  _runtime: () => SandboxRuntime,
  print: (line: string) => void,
): Promise<number> {
  const { values, positionals } = parseCommandArgs(argv, EXPORT_OPTIONS);
  if (positionals.length > 0)
    throw new UsageError(`export takes no positional arguments, got ${positionals.join(' ')}`);
  if (!values.run || !values.format || !values.out)
    throw new UsageError('export needs --run DIR, --format and --out FILE');
  const [dir, out, format] = [String(values.run), String(values.out), String(values.format) as ExportFormat];
  if (!EXPORT_FORMATS.includes(format)) throw new UsageError(`--format must be one of ${EXPORT_FORMATS.join(', ')}`);
  const store = new FileRunStore(dir);
  const [run] = await store.listRuns();
  if (!run)
    throw new UsageError(`${dir} holds no run (no config.json); give the --out directory of spade run or spade import`);
  const file = await exportRun(store, run.id, format);
  await writeFile(out, file.bytes);
  print(
    `wrote ${out}: ${file.count} ${WHAT[format]} of run ${run.id} (${count(run.epochsCompleted, 'epoch')}), ${file.bytes.length} bytes`,
  );
  return 0;
}
