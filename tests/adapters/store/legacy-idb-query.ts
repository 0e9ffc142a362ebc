// The explorer's IndexedDB queries as schema v3 ran them (src/adapters/store/idb-query.ts before
// the v4 summaries), frozen here as the oracle the v4 queries are compared with on the same data.
import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { compareEnvironments, matchesEnvironmentQuery } from '../../../src/analysis/env-query.ts';
import type { EnvironmentRecord } from '../../../src/core/records.ts';
import type { EnvironmentQuery } from '../../../src/core/ports/store-port.ts';
import type { SpadeDbSchema } from '../../../src/adapters/store/idb-schema.ts';

const SORT_INDEX = {
  epoch: 'byEpoch',
  regret: 'byRegret',
  winRate: 'byWinRate',
  designerReward: 'byDesignerReward',
} as const;

type Db = IDBPDatabase<SpadeDbSchema>;
type ReadTx = IDBPTransaction<SpadeDbSchema, ['environments'], 'readonly'>;
type FilterIndex = 'byEpoch' | 'bySkill' | 'byStatus';
type EnvKey = [string, string];

/** Key range of everything of one run in a store or index whose keys start with the run id. */
function runRange(runId: string): IDBKeyRange {
  return IDBKeyRange.bound([runId], [runId, []]);
}

const epochRange = (runId: string, epoch: number) => IDBKeyRange.bound([runId, epoch], [runId, epoch, []]);

/** One index range per filter of the query, narrowest first (epoch, skill, status). */
function filterRanges(runId: string, query: EnvironmentQuery): Array<{ index: FilterIndex; range: IDBKeyRange }> {
  const ranges: Array<{ index: FilterIndex; range: IDBKeyRange }> = [];
  if (query.epoch !== undefined) ranges.push({ index: 'byEpoch', range: epochRange(runId, query.epoch) });
  if (query.skill !== undefined) ranges.push({ index: 'bySkill', range: IDBKeyRange.only([runId, query.skill]) });
  if (query.status !== undefined) ranges.push({ index: 'byStatus', range: IDBKeyRange.only([runId, query.status]) });
  return ranges;
}

/** Ids of the environments passing every filter (from index keys only), or null without filters. */
async function matchingIds(tx: ReadTx, runId: string, query: EnvironmentQuery): Promise<Set<string> | null> {
  const ranges = filterRanges(runId, query);
  if (ranges.length === 0) return null;
  const lists = await Promise.all(ranges.map((f) => tx.store.index(f.index).getAllKeys(f.range) as Promise<EnvKey[]>));
  let ids = new Set(lists[0]!.map((k) => k[1]));
  for (const list of lists.slice(1)) {
    const next = new Set(list.map((k) => k[1]));
    ids = new Set([...ids].filter((id) => next.has(id)));
  }
  return ids;
}

/** Number of a run's environments passing the query's filters (sort, offset and limit ignored). */
export async function countEnvironmentRows(db: Db, runId: string, query: EnvironmentQuery = {}): Promise<number> {
  const ranges = filterRanges(runId, query);
  if (ranges.length === 0) return db.count('environments', runRange(runId));
  if (ranges.length === 1) return db.countFromIndex('environments', ranges[0]!.index, ranges[0]!.range);
  const tx = db.transaction('environments', 'readonly');
  const ids = await matchingIds(tx, runId, query);
  await tx.done;
  return ids!.size;
}

/** Ids of a run's environments in the explorer's order, read from index keys only. */
async function orderedIds(tx: ReadTx, runId: string, query: EnvironmentQuery): Promise<string[]> {
  const sortBy = query.sortBy ?? 'epoch';
  const ids = async (
    index: 'byEpoch' | 'byScored' | (typeof SORT_INDEX)[keyof typeof SORT_INDEX],
    range: IDBKeyRange,
  ) => {
    const keys = ((await tx.store.index(index).getAllKeys(range)) as EnvKey[]).map((k) => k[1]);
    return query.descending ? keys.reverse() : keys;
  };
  if (sortBy === 'epoch')
    return ids('byEpoch', query.epoch !== undefined ? epochRange(runId, query.epoch) : runRange(runId));
  const [scored, unscored] = await Promise.all([
    ids(SORT_INDEX[sortBy], runRange(runId)),
    ids('byScored', IDBKeyRange.only([runId, 0])),
  ]);
  return [...scored, ...unscored];
}

/** Reads one page without filters: a cursor walks the sort index in order (skipping by count and advance), then the unscored. */
async function walkPage(
  tx: ReadTx,
  runId: string,
  query: EnvironmentQuery,
  limit: number,
): Promise<EnvironmentRecord[]> {
  const sortBy = query.sortBy ?? 'epoch';
  const direction = query.descending ? 'prev' : 'next';
  const out: EnvironmentRecord[] = [];
  let skip = query.offset ?? 0;
  const walk = async (
    name: 'byEpoch' | 'byScored' | (typeof SORT_INDEX)[keyof typeof SORT_INDEX],
    range: IDBKeyRange,
  ) => {
    const index = tx.store.index(name);
    if (skip > 0) {
      const entries = await index.count(range);
      if (skip >= entries) {
        skip -= entries;
        return;
      }
    }
    let cursor = await index.openCursor(range, direction);
    if (cursor && skip > 0) cursor = await cursor.advance(skip);
    skip = 0;
    while (cursor && out.length < limit) {
      out.push(cursor.value.record);
      if (out.length < limit) cursor = await cursor.continue();
    }
  };
  if (sortBy === 'epoch') {
    await walk('byEpoch', query.epoch !== undefined ? epochRange(runId, query.epoch) : runRange(runId));
  } else {
    await walk(SORT_INDEX[sortBy], runRange(runId));
    if (out.length < limit) await walk('byScored', IDBKeyRange.only([runId, 0]));
  }
  return out;
}

/**
 * Runs an explorer query. Without a limit, the narrowest filter index (or the run) is read and
 * sorted in memory. A page without filters is read by a cursor over the sort index (it reads
 * only the page's records). A filtered page is planned on index keys alone (the sort index's
 * keys in order, intersected with the filter indexes' keys) and then only its records are read,
 * so it costs a few key lists plus `limit` records however deep it lies or rare its filter is.
 */
export async function queryEnvironmentRows(
  db: Db,
  runId: string,
  query: EnvironmentQuery = {},
): Promise<EnvironmentRecord[]> {
  const offset = query.offset ?? 0;
  if (query.limit === undefined) {
    const filter = filterRanges(runId, query)[0];
    const rows = filter
      ? await db.getAllFromIndex('environments', filter.index, filter.range)
      : await db.getAll('environments', runRange(runId));
    return rows
      .map((r) => r.record)
      .filter((env) => matchesEnvironmentQuery(env, query))
      .sort(compareEnvironments(query.sortBy, query.descending))
      .slice(offset);
  }
  if (query.limit <= 0) return [];
  const tx = db.transaction('environments', 'readonly');
  // Sorting by epoch, an epoch filter is the cursor's own key range.
  const filtered =
    query.skill !== undefined ||
    query.status !== undefined ||
    (query.epoch !== undefined && query.sortBy !== undefined && query.sortBy !== 'epoch');
  if (!filtered) {
    const page = await walkPage(tx, runId, query, query.limit);
    await tx.done;
    return page;
  }
  const [order, matching] = await Promise.all([orderedIds(tx, runId, query), matchingIds(tx, runId, query)]);
  const page = (matching ? order.filter((id) => matching.has(id)) : order).slice(offset, offset + query.limit);
  const rows = await Promise.all(page.map((id) => tx.store.get([runId, id])));
  await tx.done;
  return rows.filter((row) => row !== undefined).map((row) => row.record);
}
