import type { EpochResult } from '../../core/loop/epoch.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import { summarizeEnvironments } from '../../analysis/epoch-summary.ts';
import type {
  EnvironmentRow,
  EnvSummaryRow,
  EpisodeRow,
  EpochRow,
  EvalRow,
  RolloutRowRecord,
  StateRow,
} from './idb-schema.ts';
import { scoredFlag } from './idb-schema.ts';
import { envSummaryRow } from './idb-summaries.ts';

/** An environment row as version 1 stored it (no `scored`). */
export function environmentRowV1(
  runId: string,
  record: EnvironmentRecord,
  sha256: string,
): Omit<EnvironmentRow, 'scored'> {
  const row: Omit<EnvironmentRow, 'scored'> = {
    runId,
    envId: record.id,
    epoch: record.epoch,
    slot: record.slot,
    skill: record.skill,
    status: record.status,
    sha256,
    record,
  };
  if (scoredFlag(record) === 1) {
    row.regret = record.stats!.regret;
    row.winRate = record.stats!.winRate;
    row.designerReward = record.stats!.designerReward;
  }
  return row;
}

/** An environment row of the current version. */
export function environmentRow(runId: string, record: EnvironmentRecord, sha256: string): EnvironmentRow {
  return { ...environmentRowV1(runId, record, sha256), scored: scoredFlag(record) };
}

/** Every row one epoch writes. */
export interface EpochRows {
  epoch: EpochRow;
  environments: EnvironmentRow[];
  /** The explorer's summary of each environment. */
  summaries: EnvSummaryRow[];
  episodes: EpisodeRow[];
  rollouts: RolloutRowRecord[];
  state: StateRow;
  /** Evaluation rows numbered from `firstEvalSeq` (the run's evaluations so far). */
  evals: (firstEvalSeq: number) => EvalRow[];
}

/** The rows of one epoch (`codeSha256[i]` is the hash of environment i's code). */
export function epochRows(runId: string, result: EpochResult, codeSha256: readonly string[]): EpochRows {
  return {
    epoch: {
      runId,
      epoch: result.epoch,
      metrics: result.metrics,
      timings: result.timings,
      envSummary: summarizeEnvironments(result.epoch, result.environments),
    },
    environments: result.environments.map((env, i) => environmentRow(runId, env, codeSha256[i]!)),
    summaries: result.environments.map((env) => envSummaryRow(runId, env)),
    episodes: result.episodes.map((episode, seq) => ({
      runId,
      epoch: result.epoch,
      seq,
      envId: episode.envId,
      episode,
    })),
    rollouts: result.rollouts.map((row, seq) => ({ runId, epoch: result.epoch, seq, row })),
    state: { runId, state: result.nextState },
    evals: (first) => result.evaluations.map((record, i) => ({ runId, seq: first + i, record })),
  };
}
