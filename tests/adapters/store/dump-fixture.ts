// Reads the frozen schema-v1 dump (tests/fixtures/store/v1-dump.json) and rebuilds a v1 database
// from it with upgradeToV1 only, as a user's browser would still hold it.
import { readFileSync } from 'node:fs';
import { openDB } from 'idb';
import { upgradeToV1 } from '../../../src/adapters/store/idb-upgrade.ts';
import type {
  EnvironmentRow,
  EpisodeRow,
  EpochRow,
  RolloutRowRecord,
  SpadeDbSchema,
  StateRow,
} from '../../../src/adapters/store/idb-schema.ts';
import type { EpochResult } from '../../../src/core/loop/epoch.ts';
import type { RunMeta } from '../../../src/core/ports/store-port.ts';

/** The dump's contents. */
export interface V1Dump {
  database: string;
  version: 1;
  indexes: Record<string, string[]>;
  stores: {
    runs: RunMeta[];
    epochs: Array<Omit<EpochRow, 'envSummary'>>;
    environments: Array<Omit<EnvironmentRow, 'scored'>>;
    episodes: EpisodeRow[];
    rollouts: RolloutRowRecord[];
    state: StateRow[];
  };
}

/** A fresh copy of the frozen dump. */
export function readV1Dump(): V1Dump {
  return JSON.parse(readFileSync(new URL('../../fixtures/store/v1-dump.json', import.meta.url), 'utf8')) as V1Dump;
}

/** Creates database `name` at schema version 1 holding the dump's rows (optionally changed first). */
export async function restoreV1Database(name: string, dump: V1Dump = readV1Dump()): Promise<void> {
  const db = await openDB<SpadeDbSchema>(name, 1, { upgrade: (database) => upgradeToV1(database) });
  const stores = Object.keys(dump.stores) as Array<keyof V1Dump['stores']>;
  const tx = db.transaction(stores, 'readwrite');
  for (const store of stores) for (const row of dump.stores[store]) void tx.objectStore(store).put(row as never);
  await tx.done;
  db.close();
}

/** The dump's epochs of one run as EpochResults (state: the run's final state on the last). */
export function epochsOfDump(dump: V1Dump, runId: string): EpochResult[] {
  const s = dump.stores;
  const epochs = s.epochs.filter((e) => e.runId === runId);
  const finalState = s.state.find((r) => r.runId === runId)!.state;
  return epochs.map((e, i) => ({
    epoch: e.epoch,
    environments: s.environments.filter((r) => r.runId === runId && r.epoch === e.epoch).map((r) => r.record),
    episodes: s.episodes.filter((r) => r.runId === runId && r.epoch === e.epoch).map((r) => r.episode),
    rollouts: s.rollouts.filter((r) => r.runId === runId && r.epoch === e.epoch).map((r) => r.row),
    metrics: e.metrics,
    timings: e.timings,
    evaluations: [],
    nextState: i === epochs.length - 1 ? finalState : { ...finalState, epoch: e.epoch + 1 },
  }));
}
