import { createHash } from 'node:crypto';
import { appendFile, mkdir, open, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { completeConfig, type Config } from '../../core/config.ts';
import { matchesEnvironmentQuery, selectEnvironments } from '../../analysis/env-query.ts';
import { summarizeEnvironment } from '../../analysis/env-summary.ts';
import { chartRowsOf } from '../../analysis/epoch-summary.ts';
import { INITIAL_RUN_STATE, type EpochResult, type RunState } from '../../core/loop/epoch.ts';
import {
  CONFIG_FILE,
  configFileText,
  epochFileTexts,
  RUN_FILES,
  RUN_META_FILE,
  STATE_FILE,
  type RunFileName,
  type StateFile,
} from '../../formats/export/run-files.ts';
import { toJsonLines } from '../../formats/export/files.ts';
import { rememberEnvironments } from '../../core/loop/memory.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import { epochConflict, noRun, StoreError } from '../../core/ports/store-errors.ts';
import {
  completeRunMeta,
  type EnvironmentQuery,
  type EnvironmentSummary,
  type EpochChartRow,
  type RunMeta,
  type RunStore,
} from '../../core/ports/store-port.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';
import type { Lesson } from '../../core/playbook/lesson.ts';

/** SHA-256 of a text's UTF-8 bytes as lowercase hex (synchronous, Node). */
export function sha256HexSync(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

interface Records {
  environments: EnvironmentRecord[];
  episodes: Episode[];
  rollouts: RolloutRow[];
  metrics: EpochMetrics[];
  timings: EpochTimings[];
  evaluations: EvalRecord[];
}

/** Options of the file store. */
export interface FileStoreOptions {
  /** Clock for timestamps, in milliseconds since 1970. */
  now?: () => number;
  /** Let createRun replace a run already in the directory (what `spade run --out` always did). */
  replaceExisting?: boolean;
}

async function readText(path: string, maxBytes?: number): Promise<string | null> {
  try {
    if (maxBytes === undefined) return await readFile(path, 'utf8');
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(maxBytes);
      const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
      return buffer.subarray(0, bytesRead).toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

async function writeAtomically(path: string, text: string): Promise<void> {
  await writeFile(path + '.tmp', text);
  await rename(path + '.tmp', path);
}

const lines = <T>(text: string | null): T[] =>
  (text ?? '')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as T);

/**
 * RunStore over one run directory in the format `spade run --out` writes: config.json, the
 * JSON Lines run files appended one epoch at a time, run.json (the RunMeta) and state.json, the
 * commit marker (state after the last epoch and each file's size then). Bytes past those sizes
 * are leftovers of an interrupted commit: never read, and cut off by the next commit. A
 * directory without state.json (older `spade run` output) reads as a finished run.
 */
export class FileRunStore implements RunStore {
  private readonly now: () => number;
  private cache: { key: string; records: Records } | null = null;

  constructor(
    readonly dir: string,
    private readonly options: FileStoreOptions = {},
  ) {
    this.now = options.now ?? Date.now;
  }

  private path(name: string): string {
    return join(this.dir, name);
  }

  private async readState(): Promise<StateFile | null> {
    const text = await readText(this.path(STATE_FILE));
    return text === null ? null : (JSON.parse(text) as StateFile);
  }

  private async readMeta(): Promise<{ meta: RunMeta; state: StateFile } | null> {
    const [metaText, stateFile] = await Promise.all([readText(this.path(RUN_META_FILE)), this.readState()]);
    if (metaText !== null && stateFile)
      return {
        meta: completeRunMeta({ ...(JSON.parse(metaText) as RunMeta), epochsCompleted: stateFile.epochsCompleted }),
        state: stateFile,
      };
    const configText = await readText(this.path(CONFIG_FILE));
    if (configText === null) return null;
    const { model, config } = JSON.parse(configText) as { model: string; config: Config };
    const epochs = lines<EpochMetrics>(await readText(this.path('epochs.jsonl'))).length;
    const createdAt = Math.round((await stat(this.path(CONFIG_FILE))).mtimeMs);
    const name = basename(this.dir);
    const meta: RunMeta = {
      id: name,
      name,
      createdAt,
      updatedAt: createdAt,
      config: completeConfig(config),
      modelId: model,
      status: 'completed',
      epochsCompleted: epochs,
      epochsPlanned: epochs,
      lastError: null,
    };
    return { meta, state: { epochsCompleted: epochs, state: { ...INITIAL_RUN_STATE, epoch: epochs } } };
  }

  private async records(state: StateFile): Promise<Records> {
    const sizes =
      state.sizes ??
      Object.fromEntries(
        await Promise.all(RUN_FILES.map(async (f) => [f, (await stat(this.path(f)).catch(() => null))?.size ?? 0])),
      );
    const key = JSON.stringify([state.epochsCompleted, sizes]);
    if (this.cache?.key === key) return this.cache.records;
    const read = async <T extends { epoch: number }>(file: RunFileName) =>
      lines<T>(await readText(this.path(file), sizes[file] ?? 0)).filter((r) => r.epoch < state.epochsCompleted);
    const records: Records = {
      environments: (await read<EnvironmentRecord & { sha256?: string }>('environments.jsonl')).map(
        ({ sha256: _sha, ...env }) => env,
      ),
      episodes: await read<Episode>('episodes.jsonl'),
      rollouts: await read<RolloutRow>('rollouts.jsonl'),
      metrics: await read<EpochMetrics>('epochs.jsonl'),
      timings: await read<EpochTimings>('timings.jsonl'),
      evaluations: await read<EvalRecord>('evals.jsonl'),
    };
    this.cache = { key, records };
    return records;
  }

  private async committed(runId: string): Promise<{ meta: RunMeta; state: StateFile; records: Records } | null> {
    const found = await this.readMeta();
    if (!found || found.meta.id !== runId) return null;
    return { ...found, records: await this.records(found.state) };
  }

  async createRun(meta: RunMeta): Promise<void> {
    if (!this.options.replaceExisting && (await readText(this.path(CONFIG_FILE))) !== null) {
      throw new StoreError('run_exists', `${this.dir} already holds a run; choose an empty directory.`);
    }
    await mkdir(this.dir, { recursive: true });
    await writeFile(this.path(CONFIG_FILE), configFileText(meta.config, meta.modelId));
    await Promise.all(RUN_FILES.map((file) => writeFile(this.path(file), '')));
    const empty = Object.fromEntries(RUN_FILES.map((f) => [f, 0]));
    await writeAtomically(
      this.path(STATE_FILE),
      JSON.stringify({ epochsCompleted: 0, sizes: empty, state: INITIAL_RUN_STATE } satisfies StateFile) + '\n',
    );
    await writeAtomically(this.path(RUN_META_FILE), JSON.stringify({ ...meta, epochsCompleted: 0 }, null, 2) + '\n');
  }

  async listRuns(): Promise<RunMeta[]> {
    const found = await this.readMeta();
    return found ? [found.meta] : [];
  }

  async loadRun(runId: string): Promise<{ meta: RunMeta; state: RunState } | null> {
    const found = await this.readMeta();
    if (!found || found.meta.id !== runId) return null;
    if ((await readText(this.path(STATE_FILE))) !== null) return { meta: found.meta, state: found.state.state };
    const { environments } = await this.records(found.state);
    const memory = rememberEnvironments(
      [],
      environments
        .filter((e) => e.stats)
        .map((e) => ({
          envId: e.id,
          skill: e.skill,
          code: e.code,
          winRate: e.stats!.fractionWon,
          regret: e.stats!.regret,
          epoch: e.epoch,
        })),
    );
    return { meta: found.meta, state: { ...found.state.state, memory } };
  }

  async updateRun(runId: string, patch: Partial<Omit<RunMeta, 'id'>>): Promise<void> {
    const found = await this.readMeta();
    if (!found || found.meta.id !== runId) throw noRun(runId);
    await writeAtomically(
      this.path(RUN_META_FILE),
      JSON.stringify({ ...found.meta, updatedAt: this.now(), ...patch, id: runId }, null, 2) + '\n',
    );
  }

  private async continuable(runId: string): Promise<{ meta: RunMeta; state: StateFile }> {
    const found = await this.readMeta();
    if (!found || found.meta.id !== runId) throw noRun(runId);
    if ((await readText(this.path(STATE_FILE))) === null)
      throw new StoreError(
        'corrupt',
        `${this.dir} has no ${STATE_FILE} (written by an older spade run): its memory cannot be restored exactly, so it can be exported but not continued.`,
      );
    return found;
  }

  /** Cuts a run file back to its committed size (dropping leftovers of an interrupted commit), appends `text`; returns the new size. */
  private async appendCommitted(file: RunFileName, state: StateFile, text: string): Promise<number> {
    const actual = (await stat(this.path(file)).catch(() => null))?.size ?? 0;
    const committed = state.sizes ? (state.sizes[file] ?? 0) : actual;
    if (actual < committed)
      throw new StoreError(
        'corrupt',
        `${this.path(file)} is shorter (${actual} bytes) than at the last commit (${committed}); it was changed outside SPADE Lab.`,
      );
    if (actual > committed) await truncate(this.path(file), committed);
    await appendFile(this.path(file), text);
    return committed + Buffer.byteLength(text);
  }

  /** Cuts off leftovers of an interrupted commit, appends the epoch, then writes state.json (the commit point) and run.json. */
  async commitEpoch(runId: string, result: EpochResult): Promise<void> {
    const found = await this.continuable(runId);
    if (found.state.epochsCompleted !== result.epoch)
      throw epochConflict(runId, found.state.epochsCompleted, result.epoch);
    const texts = epochFileTexts(
      result,
      result.environments.map((env) => sha256HexSync(env.code)),
    );
    const sizes: Partial<Record<RunFileName, number>> = {};
    for (const file of RUN_FILES) sizes[file] = await this.appendCommitted(file, found.state, texts[file]);
    const next: StateFile = { epochsCompleted: result.epoch + 1, sizes, state: result.nextState };
    await writeAtomically(this.path(STATE_FILE), JSON.stringify(next) + '\n');
    await writeAtomically(
      this.path(RUN_META_FILE),
      JSON.stringify({ ...found.meta, epochsCompleted: result.epoch + 1, updatedAt: this.now() }, null, 2) + '\n',
    );
  }

  async deleteRun(runId: string): Promise<void> {
    const found = await this.readMeta();
    if (!found || found.meta.id !== runId) return;
    await Promise.all(
      [CONFIG_FILE, RUN_META_FILE, STATE_FILE, ...RUN_FILES].map((f) => rm(this.path(f), { force: true })),
    );
    this.cache = null;
  }

  async queryEnvironments(runId: string, query: EnvironmentQuery = {}): Promise<EnvironmentRecord[]> {
    return structuredClone(selectEnvironments((await this.committed(runId))?.records.environments ?? [], query));
  }

  async queryEnvironmentSummaries(runId: string, query: EnvironmentQuery = {}): Promise<EnvironmentSummary[]> {
    return selectEnvironments((await this.committed(runId))?.records.environments ?? [], query).map(
      summarizeEnvironment,
    );
  }

  async countEnvironments(runId: string, query: EnvironmentQuery = {}): Promise<number> {
    return ((await this.committed(runId))?.records.environments ?? []).filter((env) =>
      matchesEnvironmentQuery(env, query),
    ).length;
  }

  async getEnvironment(runId: string, envId: string): Promise<EnvironmentRecord | null> {
    return structuredClone((await this.committed(runId))?.records.environments.find((e) => e.id === envId) ?? null);
  }

  async episodesOf(runId: string, envId: string): Promise<Episode[]> {
    return structuredClone(((await this.committed(runId))?.records.episodes ?? []).filter((e) => e.envId === envId));
  }

  async metricsOf(runId: string): Promise<EpochMetrics[]> {
    return structuredClone((await this.committed(runId))?.records.metrics ?? []);
  }

  async timingsOf(runId: string): Promise<EpochTimings[]> {
    return structuredClone((await this.committed(runId))?.records.timings ?? []);
  }

  /** Summarises the committed environments of each epoch from the run files (a run directory keeps no summaries). */
  async chartRowsOf(runId: string): Promise<EpochChartRow[]> {
    const records = (await this.committed(runId))?.records;
    return records ? structuredClone(chartRowsOf(records.metrics, records.timings, records.environments)) : [];
  }

  async rolloutsOf(runId: string): Promise<RolloutRow[]> {
    return structuredClone((await this.committed(runId))?.records.rollouts ?? []);
  }

  /** Appends one line to evals.jsonl, committed by rewriting state.json with the file's new size. */
  async addEvaluation(runId: string, record: EvalRecord): Promise<void> {
    const found = await this.continuable(runId);
    const size = await this.appendCommitted('evals.jsonl', found.state, toJsonLines([record]));
    const sizes = { ...(found.state.sizes ?? {}), 'evals.jsonl': size };
    await writeAtomically(this.path(STATE_FILE), JSON.stringify({ ...found.state, sizes } satisfies StateFile) + '\n');
  }

  async evaluationsOf(runId: string): Promise<EvalRecord[]> {
    return structuredClone((await this.committed(runId))?.records.evaluations ?? []);
  }

  async updatePlaybook(runId: string, playbook: Lesson[]): Promise<void> {
    const found = await this.continuable(runId);
    await writeAtomically(
      this.path(STATE_FILE),
      JSON.stringify({ ...found.state, state: { ...found.state.state, playbook } } satisfies StateFile) + '\n',
    );
  }
}
