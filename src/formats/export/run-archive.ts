import { INITIAL_RUN_STATE } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import {
  baseName,
  dirName,
  isObject,
  parseJsonLines,
  toJsonLines,
  type HashText,
  type ImportFile,
  type ImportProblem,
  type TextFile,
} from './files.ts';
import {
  CONFIG_FILE,
  configFileText,
  environmentsJsonl,
  RUN_FILES,
  RUN_META_FILE,
  STATE_FILE,
  type StateFile,
} from './run-files.ts';
import type { RunSnapshot } from './run-snapshot.ts';
import { isEvalRecordShape, withRecomputedSummary } from './eval-rows.ts';
import { MAX_DOMAIN_CHARS, MAX_EPOCHS_PLANNED } from '../import/import-limits.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';
import { count } from '../plural.ts';

/** The `format` field of an archive manifest. */
export const ARCHIVE_FORMAT = 'spade-lab-run-archive';
/** Version of the archive layout this code writes and reads. */
export const ARCHIVE_VERSION = 1;
/** The manifest at the archive's root. */
export const ARCHIVE_MANIFEST = 'manifest.json';

/** manifest.json of a run archive. */
export interface ArchiveManifest {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  run: { id: string; name: string; modelId: string; epochsCompleted: number };
  counts: { epochs: number; environments: number; episodes: number; rollouts: number };
  /** SHA-256 of every other file of the archive, by path. */
  files: Record<string, string>;
}

/**
 * A run archive: the run directory of the file store (config.json, run.json, state.json and the
 * JSON Lines run files) plus manifest.json with the format, version, counts and file hashes.
 */
export async function buildArchiveFiles(snapshot: RunSnapshot, hashText: HashText): Promise<TextFile[]> {
  const { meta, state } = snapshot;
  const codeSha = await Promise.all(snapshot.environments.map((env) => hashText(env.code)));
  const texts: Record<(typeof RUN_FILES)[number], string> = {
    'environments.jsonl': environmentsJsonl(snapshot.environments, codeSha),
    'episodes.jsonl': toJsonLines(snapshot.episodes),
    'epochs.jsonl': toJsonLines(snapshot.epochs.map((e) => e.metrics)),
    'rollouts.jsonl': toJsonLines(snapshot.rollouts),
    'timings.jsonl': toJsonLines(snapshot.epochs.map((e) => e.timings)),
    'evals.jsonl': toJsonLines(snapshot.evaluations),
  };
  const stateFile: StateFile = { epochsCompleted: snapshot.epochs.length, state };
  const files: TextFile[] = [
    { path: CONFIG_FILE, text: configFileText(meta.config, meta.modelId) },
    { path: RUN_META_FILE, text: JSON.stringify({ ...meta, epochsCompleted: snapshot.epochs.length }, null, 2) + '\n' },
    { path: STATE_FILE, text: JSON.stringify(stateFile) + '\n' },
    ...RUN_FILES.map((path) => ({ path, text: texts[path] })),
  ];
  const manifest: ArchiveManifest = {
    format: ARCHIVE_FORMAT,
    version: ARCHIVE_VERSION,
    run: { id: meta.id, name: meta.name, modelId: meta.modelId, epochsCompleted: snapshot.epochs.length },
    counts: {
      epochs: snapshot.epochs.length,
      environments: snapshot.environments.length,
      episodes: snapshot.episodes.length,
      rollouts: snapshot.rollouts.length,
    },
    files: Object.fromEntries(await Promise.all(files.map(async (f) => [f.path, await hashText(f.text)] as const))),
  };
  return [{ path: ARCHIVE_MANIFEST, text: JSON.stringify(manifest, null, 2) + '\n' }, ...files];
}

/** True when the files hold a run archive (a manifest.json of this format). */
export function isRunArchive(files: readonly TextFile[]): boolean {
  return files.some((f) => baseName(f.path) === ARCHIVE_MANIFEST && f.text.includes(`"${ARCHIVE_FORMAT}"`));
}

const CHAT_ROLES: ReadonlySet<unknown> = new Set(['system', 'user', 'assistant', 'tool']);

// Messages as the app writes them: a list of {role, content} with a known role and text content (a row's weight 0 or 1).
function areChatMessages(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (m) =>
        isObject(m) &&
        CHAT_ROLES.has(m.role) &&
        typeof m.content === 'string' &&
        (m.weight === undefined || m.weight === 0 || m.weight === 1),
    )
  );
}

const SHAPES: Record<(typeof RUN_FILES)[number], (v: Record<string, unknown>) => boolean> = {
  'environments.jsonl': (v) =>
    typeof v.id === 'string' &&
    typeof v.epoch === 'number' &&
    typeof v.code === 'string' &&
    (v.status === 'valid' || v.status === 'rejected' || v.status === 'quarantined') &&
    (v.domain === undefined || (typeof v.domain === 'string' && v.domain.length <= MAX_DOMAIN_CHARS)),
  'episodes.jsonl': (v) =>
    typeof v.id === 'string' &&
    typeof v.envId === 'string' &&
    typeof v.epoch === 'number' &&
    Array.isArray(v.turns) &&
    areChatMessages(v.messages),
  'epochs.jsonl': (v) => typeof v.epoch === 'number' && isObject(v.perSkill),
  'rollouts.jsonl': (v) =>
    (v.role === 'designer' || v.role === 'agent') && typeof v.epoch === 'number' && areChatMessages(v.messages),
  'timings.jsonl': (v) => typeof v.epoch === 'number',
  'evals.jsonl': isEvalRecordShape,
};

function parseJson(file: ImportFile | undefined, problems: ImportProblem[]): Record<string, unknown> | null {
  if (!file) return null;
  try {
    const value: unknown = JSON.parse(file.text);
    if (isObject(value)) return value;
  } catch {
    // reported below
  }
  problems.push({ source: file.path, reason: 'not a JSON object', kept: false });
  return null;
}

// An archive's planned epochs: a whole number up to MAX_EPOCHS_PLANNED (at least its committed epochs), else its committed epochs (reported).
function plannedEpochs(planned: unknown, committed: number, problems: ImportProblem[]): number {
  if (typeof planned === 'number' && Number.isInteger(planned) && planned >= 0 && planned <= MAX_EPOCHS_PLANNED)
    return Math.max(planned, committed);
  const seen = typeof planned === 'number' ? String(planned) : `a ${typeof planned}`;
  problems.push({
    source: RUN_META_FILE,
    reason: `epochsPlanned ${seen} is not a whole number from 0 to ${MAX_EPOCHS_PLANNED}: the run plans its ${count(committed, 'committed epoch')}`,
    kept: true,
  });
  return committed;
}

// The archive's manifest: the shortest path named manifest.json (the archive's root).
const manifestOf = (files: readonly ImportFile[]) =>
  [...files].filter((f) => baseName(f.path) === ARCHIVE_MANIFEST).sort((a, b) => a.path.length - b.path.length)[0];

/** The id of the run an archive holds (its run.json's, which the import keeps), read without validating anything; null when it has none. */
export function archiveRunId(files: readonly ImportFile[]): string | null {
  const manifest = manifestOf(files);
  if (!manifest) return null;
  const root = dirName(manifest.path);
  const meta = parseJson(
    files.find((f) => dirName(f.path) === root && baseName(f.path) === RUN_META_FILE),
    [],
  );
  return typeof meta?.id === 'string' ? meta.id : null;
}

/**
 * Reads a run archive back into a snapshot. Hash mismatches against the manifest are reported
 * (the contents are still read line by line); bad lines are reported and skipped; epochs after
 * a gap are dropped. Returns a null snapshot (with the reason) only when the archive has no
 * usable manifest or run.json.
 */
export function parseArchive(files: readonly ImportFile[]): {
  snapshot: RunSnapshot | null;
  problems: ImportProblem[];
} {
  const problems: ImportProblem[] = [];
  const manifestFile = manifestOf(files);
  const manifest = parseJson(manifestFile, problems);
  if (!manifestFile || !manifest || manifest.format !== ARCHIVE_FORMAT) {
    return {
      snapshot: null,
      problems: [
        ...problems,
        {
          source: ARCHIVE_MANIFEST,
          reason: `no ${ARCHIVE_MANIFEST} with format "${ARCHIVE_FORMAT}": not a SPADE Lab run archive`,
          kept: false,
        },
      ],
    };
  }
  if (typeof manifest.version !== 'number' || manifest.version > ARCHIVE_VERSION) {
    return {
      snapshot: null,
      problems: [
        {
          source: manifestFile.path,
          reason: `archive version ${String(manifest.version)} is newer than this app reads (${ARCHIVE_VERSION}); update SPADE Lab`,
          kept: false,
        },
      ],
    };
  }
  const root = dirName(manifestFile.path);
  const byName = new Map(files.filter((f) => dirName(f.path) === root).map((f) => [baseName(f.path), f]));
  const hashes = isObject(manifest.files) ? manifest.files : {};
  for (const [name, expected] of Object.entries(hashes)) {
    const file = byName.get(name);
    if (!file) problems.push({ source: name, reason: 'listed in the manifest but missing', kept: false });
    else if (file.sha256 !== expected)
      problems.push({
        source: file.path,
        reason: `checksum mismatch: manifest says ${String(expected)}, file has ${file.sha256}; read line by line anyway`,
        kept: true,
      });
  }
  const meta = parseJson(byName.get(RUN_META_FILE), problems) as RunMeta | null;
  if (!meta || typeof meta.id !== 'string' || !isObject(meta.config)) {
    return {
      snapshot: null,
      problems: [
        ...problems,
        { source: RUN_META_FILE, reason: 'missing or without id and config: cannot rebuild the run', kept: false },
      ],
    };
  }
  const rows = Object.fromEntries(
    RUN_FILES.map((name) => {
      const file = byName.get(name);
      if (!file) return [name, []];
      const parsed = parseJsonLines(file.text, file.path);
      problems.push(...parsed.problems);
      return [
        name,
        parsed.rows
          .filter(({ line, value }) => {
            const ok = isObject(value) && SHAPES[name](value);
            if (!ok)
              problems.push({
                source: `${file.path}:${line}`,
                reason: `not a ${name.replace('.jsonl', '')} record`,
                kept: false,
              });
            return ok;
          })
          .map((r) => r.value as Record<string, unknown>),
      ];
    }),
  ) as Record<(typeof RUN_FILES)[number], Array<Record<string, unknown>>>;
  let epochs = 0;
  while (rows['epochs.jsonl'].some((m) => m.epoch === epochs)) epochs++;
  const dropped = (list: Array<Record<string, unknown>>, what: string) => {
    const kept = list.filter((r) => (r.epoch as number) < epochs);
    if (kept.length < list.length)
      problems.push({
        source: what,
        reason: `${count(list.length - kept.length, 'record')} of epoch ${epochs} and later dropped: epochs.jsonl has no record of epoch ${epochs}`,
        kept: false,
      });
    return kept;
  };
  const stateFile = parseJson(byName.get(STATE_FILE), problems) as StateFile | null;
  const state = stateFile && isObject(stateFile.state) ? stateFile.state : { ...INITIAL_RUN_STATE, epoch: epochs };
  if (!stateFile)
    problems.push({ source: STATE_FILE, reason: 'missing: the run continues with an empty memory', kept: true });
  const metrics = dropped(rows['epochs.jsonl'], 'epochs.jsonl');
  const timings = new Map(rows['timings.jsonl'].map((t) => [t.epoch, t]));
  const snapshot: RunSnapshot = {
    meta: { ...meta, epochsCompleted: epochs, epochsPlanned: plannedEpochs(meta.epochsPlanned, epochs, problems) },
    state,
    epochs: Array.from({ length: epochs }, (_, epoch) => ({
      metrics: metrics.find((m) => m.epoch === epoch) as never,
      timings: (timings.get(epoch) ?? { epoch, totalMs: 0, modelMs: 0, sandboxMs: 0 }) as never,
    })),
    environments: dropped(rows['environments.jsonl'], 'environments.jsonl').map(
      ({ sha256: _sha, ...env }) => env as unknown as EnvironmentRecord,
    ),
    episodes: dropped(rows['episodes.jsonl'], 'episodes.jsonl') as never,
    rollouts: dropped(rows['rollouts.jsonl'], 'rollouts.jsonl') as never,
    evaluations: dropped(rows['evals.jsonl'], 'evals.jsonl').map((row) =>
      withRecomputedSummary(row as unknown as EvalRecord),
    ),
  };
  return { snapshot, problems };
}
