import type { Config } from '../config.ts';
import type { SuiteEnvironment } from '../eval/suite.ts';
import type { EnvironmentRecord } from '../records.ts';

/**
 * The slots of a fixed-pool epoch (SPADE's `fixed_env` mode): the pool taken in order, wrapping
 * around, `slotsPerEpoch` environments per epoch.
 */
export function poolSlots(
  pool: readonly SuiteEnvironment[],
  config: Config,
  epoch: number,
): Array<{ slot: number; skill: string; env: SuiteEnvironment }> {
  return Array.from({ length: config.slotsPerEpoch }, (_, slot) => {
    const env = pool[(epoch * config.slotsPerEpoch + slot) % pool.length]!;
    return { slot, skill: env.skill, env };
  });
}

/** The record of a pool environment played in a slot: valid as imported, no design attempts. */
export function poolRecord(id: string, epoch: number, slot: number, env: SuiteEnvironment): EnvironmentRecord {
  return {
    id,
    epoch,
    slot,
    skill: env.skill,
    difficulty: 'fixed pool',
    docId: null,
    status: 'valid',
    code: env.code,
    attempts: [],
    memoryShown: { positives: [], negative: null },
    hint: null,
    hintMessages: null,
    hintReply: null,
    note: null,
    stats: null,
    poolId: env.id,
  };
}
