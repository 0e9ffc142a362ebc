import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { FileRunStore } from '../adapters/store/file-run-store.ts';
import type { Config } from '../core/config.ts';
import { KNOBS } from '../core/config-table.ts';
import type { RunMeta } from '../core/ports/store-port.ts';
import { STATE_FILE } from '../formats/export/run-files.ts';
import { UsageError } from './args.ts';
import { errorMessage } from '../core/error-message.ts';
import { count } from './plural.ts';

/** What `spade run --out DIR` finds at DIR: nothing (absent or empty), a stored run, or other files. */
export type OutFolder = { kind: 'free' } | { kind: 'run'; meta: RunMeta } | { kind: 'other'; entries: number };

/** Reads what DIR holds, without changing it. */
export async function readOutFolder(dir: string): Promise<OutFolder> {
  const entries = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [] as string[];
    if (error.code === 'ENOTDIR') throw new UsageError(`--out ${dir} is a file, not a directory`);
    throw error;
  });
  if (entries.length === 0) return { kind: 'free' };
  const [meta] = await new FileRunStore(dir).listRuns().catch((error: unknown) => {
    throw new UsageError(
      `--out ${dir} holds a run whose files cannot be read (${errorMessage(error)}); choose another directory`,
    );
  });
  return meta ? { kind: 'run', meta } : { kind: 'other', entries: entries.length };
}

/** How the command treats an existing run folder: refuse it, continue it, or replace it. */
export type FolderMode = 'new' | 'resume' | 'replace';

const epochsOf = (meta: RunMeta) => `${meta.epochsCompleted} of ${count(meta.epochsPlanned, 'epoch')}, ${meta.status}`;

/**
 * Checks DIR against the mode before anything is loaded or written: a new run needs DIR absent or
 * empty, `--replace` a free DIR or a run (never other files), `--resume` a run that state.json lets
 * continue. Returns the stored run's meta when there is one.
 */
export async function checkOutFolder(dir: string, mode: FolderMode): Promise<RunMeta | null> {
  const found = await readOutFolder(dir);
  if (found.kind === 'other')
    throw new UsageError(
      `--out ${dir} is not empty and holds no run (${found.entries} entries); choose an empty or new directory`,
    );
  if (mode === 'resume') {
    if (found.kind !== 'run') throw new UsageError(`--resume: ${dir} holds no run to continue`);
    if (!existsSync(join(dir, STATE_FILE)))
      throw new UsageError(
        `--resume: ${dir} has no ${STATE_FILE} (an older spade run wrote it), so its memory cannot be restored exactly; start a new run instead`,
      );
    return found.meta;
  }
  if (found.kind === 'run' && mode === 'new')
    throw new UsageError(
      `--out ${dir} already holds a run (${epochsOf(found.meta)}); add --resume to continue it, --replace to discard it and start again, or choose another directory`,
    );
  return found.kind === 'run' ? found.meta : null;
}

/** The flag that sets a config key, for messages (the key itself when it has none). */
function flagOf(key: string): string {
  const knob = KNOBS.find((k) => k.key === key);
  return knob?.flag ? `--${knob.flag}` : key;
}

/**
 * Refuses a resumed run's flags that would change its recorded config: `requested` is the recorded
 * config with the flags applied, and every key that differs is named with both values.
 */
export function checkResumedConfig(recorded: Config, requested: Config): void {
  const changed = (Object.keys(recorded) as Array<keyof Config>).filter(
    (key) => JSON.stringify(recorded[key]) !== JSON.stringify(requested[key]),
  );
  if (changed.length === 0) return;
  const listed = changed.map(
    (key) => `${flagOf(key)} (recorded ${JSON.stringify(recorded[key])}, asked ${JSON.stringify(requested[key])})`,
  );
  throw new UsageError(
    `--resume continues the run with its recorded settings; these flags would change them: ${listed.join(', ')}. Only --epochs may change (to extend the run), or use --replace to start again`,
  );
}
