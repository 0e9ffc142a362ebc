import type { MemoryRecord } from '../core/loop/memory.ts';
import type { EnvironmentRecord, Episode, EpochMetrics, RolloutRow } from '../core/records.ts';
import { Checker, type Mismatch } from './checker.ts';
import { checkRows } from './check-rows.ts';
import { checkEvaluations } from './check-evals.ts';
import type { EvalRecord } from '../core/eval/eval-record.ts';
import { average, type Averages } from './formulas.ts';
import { keptUnhinted, recomputeEpoch, type EpochRecomputation, type VerifyConfig } from './recompute-epoch.ts';

/** A run directory's stored records, as recomputation reads them. */
export interface StoredRun {
  config: VerifyConfig;
  environments: readonly EnvironmentRecord[];
  episodes: readonly Episode[];
  rollouts: readonly RolloutRow[];
  epochs: readonly EpochMetrics[];
  /** state.json's memory and skill averages after the last epoch; null when there is no state.json. */
  state: { memory: readonly MemoryRecord[]; skillAverages: Readonly<Record<string, Averages>> } | null;
  /** evals.jsonl's held-out evaluations (none in runs that predate them). */
  evaluations: readonly EvalRecord[];
}

/** What verification found: how many stored values were compared, and those that disagree. */
export interface VerifyReport {
  checked: number;
  mismatches: Mismatch[];
}

/** Most records memory keeps (oldest dropped first), and the characters of code each keeps. */
export const MEMORY_LIMITS = { records: 200, codeChars: 2000 } as const;

function checkMetrics(
  epoch: number,
  stored: EpochMetrics | undefined,
  done: EpochRecomputation,
  episodes: readonly Episode[],
  check: Checker,
): void {
  const id = `epoch${epoch}`;
  check.value('epochs.jsonl', id, 'present', stored !== undefined, true);
  if (!stored) return;
  const all = [...done.stats.values()];
  const expected: Partial<EpochMetrics> = {
    validEnvironments: all.length,
    meanRegret: average(all.map((s) => s.stats.regret)),
    meanWinRate: average(all.map((s) => s.stats.winRate)),
    meanDesignerReward: average(all.map((s) => s.stats.designerReward)),
    episodes: episodes.length,
    droppedEpisodes: episodes.filter((e) => e.dropped).length,
    quarantined: done.quarantined.size,
    designerScale: done.designerScale,
  };
  for (const [field, value] of Object.entries(expected))
    check.value('epochs.jsonl', id, field, stored[field as keyof EpochMetrics], value);
}

function checkState(run: StoredRun, memory: MemoryRecord[], averages: Record<string, Averages>, check: Checker): void {
  if (!run.state) return;
  const stored = run.state;
  for (const skill of new Set([...Object.keys(averages), ...Object.keys(stored.skillAverages)])) {
    check.value(
      'state.json',
      `skillAverages/${skill}`,
      'fast',
      stored.skillAverages[skill]?.fast,
      averages[skill]?.fast,
    );
    check.value(
      'state.json',
      `skillAverages/${skill}`,
      'slow',
      stored.skillAverages[skill]?.slow,
      averages[skill]?.slow,
    );
  }
  const expected = memory.slice(-MEMORY_LIMITS.records);
  check.value('state.json', 'memory', 'length', stored.memory.length, expected.length);
  expected.forEach((record, i) => {
    const found = stored.memory[i];
    for (const field of ['envId', 'skill', 'epoch', 'winRate', 'regret', 'code'] as const)
      check.value('state.json', `memory[${i}]`, field, found?.[field], record[field]);
  });
}

/**
 * Recomputes a whole run from its episodes' turns with SPADE's semantics, epoch by epoch
 * (carrying the skill averages and memory from epoch 0), and compares every derived value stored
 * in the run files and state.json, and every held-out evaluation's figures from its plays.
 */
export function recomputeRun(run: StoredRun): VerifyReport {
  const check = new Checker();
  const epochs = [...new Set([...run.environments, ...run.epochs].map((r) => r.epoch))].sort((a, b) => a - b);
  let averages: Record<string, Averages> = {};
  const memory: MemoryRecord[] = [];
  for (const epoch of epochs) {
    const environments = run.environments.filter((e) => e.epoch === epoch);
    const episodes = run.episodes.filter((e) => e.epoch === epoch);
    const done = recomputeEpoch({ epoch, environments, episodes }, run.config, averages, check);
    averages = done.averages;
    checkMetrics(
      epoch,
      run.epochs.find((m) => m.epoch === epoch),
      done,
      episodes,
      check,
    );
    checkRows(
      epoch,
      environments,
      episodes,
      run.rollouts.filter((row) => row.epoch === epoch),
      done,
      check,
      run.config.toolUseMasks === true && run.config.setting === 'tool_use',
    );
    for (const env of environments) {
      const got = done.stats.get(env.id);
      const rolloutZero = episodes
        .filter((e) => e.envId === env.id && keptUnhinted(e) && e.rollout === 0)
        .map((e) => done.returns.get(e.id)!);
      if (!got || rolloutZero.length === 0) continue;
      const regret = run.config.reward === 'learning_potential' ? 0 : got.stats.regret;
      memory.push({
        envId: env.id,
        skill: env.skill,
        code: env.code.slice(0, MEMORY_LIMITS.codeChars),
        winRate: rolloutZero.filter((x) => x > 0).length / rolloutZero.length,
        regret,
        epoch,
      });
    }
  }
  checkState(run, memory, averages, check);
  checkEvaluations(run.evaluations, check);
  return { checked: check.checked, mismatches: check.mismatches };
}
