import { selectEnvironments, matchesEnvironmentQuery } from '../../analysis/env-query.ts';
import { summarizeEnvironment } from '../../analysis/env-summary.ts';
import { summarizeEnvironments } from '../../analysis/epoch-summary.ts';
import { INITIAL_RUN_STATE, type EpochResult, type RunState } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, EpochTimings, RolloutRow } from '../../core/records.ts';
import { epochConflict, noRun, StoreError } from '../../core/ports/store-errors.ts';
import type {
  EnvironmentQuery,
  EnvironmentSummary,
  EpochChartRow,
  RunMeta,
  RunStore,
} from '../../core/ports/store-port.ts';
import type { EvalRecord } from '../../core/eval/eval-record.ts';
import type { Lesson } from '../../core/playbook/lesson.ts';

interface MemoryRun {
  meta: RunMeta;
  state: RunState;
  epochs: EpochChartRow[];
  environments: EnvironmentRecord[];
  episodes: Episode[];
  rollouts: RolloutRow[];
  evaluations: EvalRecord[];
}

function clone<T>(value: T, what: string): T {
  try {
    return structuredClone(value);
  } catch (error) {
    throw new StoreError(
      'bad_record',
      `${what} holds a value that cannot be cloned (${String((error as Error).message)}); nothing of it was written. This is a bug: records must be plain data.`,
      {
        cause: error,
      },
    );
  }
}

/**
 * RunStore in memory, with the same behaviour as the IndexedDB store: records are copied in and
 * out (structured clone), commitEpoch is all-or-nothing, and queries use the same order.
 */
export class MemoryRunStore implements RunStore {
  private readonly runs = new Map<string, MemoryRun>();

  constructor(private readonly now: () => number = Date.now) {}

  private run(runId: string): MemoryRun {
    const run = this.runs.get(runId);
    if (!run) throw noRun(runId);
    return run;
  }

  async createRun(meta: RunMeta): Promise<void> {
    if (this.runs.has(meta.id))
      throw new StoreError(
        'run_exists',
        `A run with id ${JSON.stringify(meta.id)} already exists; pick another id or delete that run first.`,
      );
    this.runs.set(meta.id, {
      meta: clone(meta, `run ${meta.id}`),
      state: INITIAL_RUN_STATE,
      epochs: [],
      environments: [],
      episodes: [],
      rollouts: [],
      evaluations: [],
    });
  }

  async listRuns(): Promise<RunMeta[]> {
    return [...this.runs.values()]
      .map((r) => structuredClone(r.meta))
      .sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async loadRun(runId: string): Promise<{ meta: RunMeta; state: RunState } | null> {
    const run = this.runs.get(runId);
    return run ? structuredClone({ meta: run.meta, state: run.state }) : null;
  }

  async updateRun(runId: string, patch: Partial<Omit<RunMeta, 'id'>>): Promise<void> {
    const run = this.run(runId);
    run.meta = { ...run.meta, updatedAt: this.now(), ...clone(patch, `the update of run ${runId}`), id: runId };
  }

  /** Copies the whole epoch first, then adds it; a failure leaves the run untouched. */
  async commitEpoch(runId: string, result: EpochResult): Promise<void> {
    const run = this.run(runId);
    if (run.meta.epochsCompleted !== result.epoch) throw epochConflict(runId, run.meta.epochsCompleted, result.epoch);
    const copy = clone(result, `epoch ${result.epoch} of run ${runId}`);
    run.epochs.push({
      metrics: copy.metrics,
      timings: copy.timings,
      environments: summarizeEnvironments(copy.epoch, copy.environments),
    });
    run.environments.push(...copy.environments);
    run.episodes.push(...copy.episodes);
    run.rollouts.push(...copy.rollouts);
    run.evaluations.push(...copy.evaluations);
    run.state = copy.nextState;
    run.meta = { ...run.meta, epochsCompleted: result.epoch + 1, updatedAt: this.now() };
  }

  async deleteRun(runId: string): Promise<void> {
    this.runs.delete(runId);
  }

  async queryEnvironments(runId: string, query: EnvironmentQuery = {}): Promise<EnvironmentRecord[]> {
    return structuredClone(selectEnvironments(this.runs.get(runId)?.environments ?? [], query));
  }

  async queryEnvironmentSummaries(runId: string, query: EnvironmentQuery = {}): Promise<EnvironmentSummary[]> {
    return selectEnvironments(this.runs.get(runId)?.environments ?? [], query).map(summarizeEnvironment);
  }

  async countEnvironments(runId: string, query: EnvironmentQuery = {}): Promise<number> {
    return (this.runs.get(runId)?.environments ?? []).filter((env) => matchesEnvironmentQuery(env, query)).length;
  }

  async getEnvironment(runId: string, envId: string): Promise<EnvironmentRecord | null> {
    const env = this.runs.get(runId)?.environments.find((e) => e.id === envId);
    return env ? structuredClone(env) : null;
  }

  async episodesOf(runId: string, envId: string): Promise<Episode[]> {
    return structuredClone((this.runs.get(runId)?.episodes ?? []).filter((e) => e.envId === envId));
  }

  async metricsOf(runId: string): Promise<EpochMetrics[]> {
    return structuredClone((this.runs.get(runId)?.epochs ?? []).map((e) => e.metrics));
  }

  async timingsOf(runId: string): Promise<EpochTimings[]> {
    return structuredClone((this.runs.get(runId)?.epochs ?? []).map((e) => e.timings));
  }

  async chartRowsOf(runId: string): Promise<EpochChartRow[]> {
    return structuredClone(this.runs.get(runId)?.epochs ?? []);
  }

  async rolloutsOf(runId: string): Promise<RolloutRow[]> {
    return structuredClone(this.runs.get(runId)?.rollouts ?? []);
  }

  async addEvaluation(runId: string, record: EvalRecord): Promise<void> {
    this.run(runId).evaluations.push(clone(record, `an evaluation of run ${runId}`));
  }

  async evaluationsOf(runId: string): Promise<EvalRecord[]> {
    return structuredClone(this.runs.get(runId)?.evaluations ?? []);
  }

  async updatePlaybook(runId: string, playbook: Lesson[]): Promise<void> {
    const run = this.run(runId);
    run.state = { ...run.state, playbook: clone(playbook, `the playbook of run ${runId}`) };
  }
}
