import type { IDBPDatabase, IDBPTransaction } from 'idb';
import { compareEnvironments, matchesEnvironmentQuery, selectSummaries } from '../../analysis/env-query.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import type { EnvironmentQuery, EnvironmentSummary } from '../../core/ports/store-port.ts';
import type { SpadeDbSchema } from './idb-schema.ts';
import { filterTag, queryFilters } from './idb-summaries.ts';

type Db = IDBPDatabase<SpadeDbSchema>;
type SummaryTx = IDBPTransaction<SpadeDbSchema, ['envSummaries', 'environments'], 'readonly'>;

/** Key range of everything of one run in a store or index whose keys start with the run id. */
export function runRange(runId: string): IDBKeyRange {
  return IDBKeyRange.bound([runId], [runId, []]);
}

const epochRange = (runId: string, epoch: number) => IDBKeyRange.bound([runId, epoch], [runId, epoch, []]);
const under = (prefix: IDBValidKey[]) => IDBKeyRange.bound(prefix, [...prefix, []]);

/** The order-index ranges of a query without an epoch filter, walked one after the other: the scored, then the unscored. */
function orderRanges(runId: string, query: EnvironmentQuery): IDBKeyRange[] {
  const tag = filterTag(queryFilters(query));
  const sortBy = query.sortBy ?? 'epoch';
  if (sortBy === 'epoch') return [under([runId, tag, 'epoch'])];
  return [under([runId, tag, sortBy, 1]), IDBKeyRange.only([runId, tag, sortBy, 0])];
}

/** The summaries of one epoch passing the query (an epoch holds a few slots, so they are filtered and sorted here). */
async function epochSummaries(
  tx: SummaryTx,
  runId: string,
  query: EnvironmentQuery & { epoch: number },
): Promise<EnvironmentSummary[]> {
  const rows = await tx.objectStore('envSummaries').index('byEpoch').getAll(epochRange(runId, query.epoch));
  return selectSummaries(
    rows.map((r) => r.summary),
    query,
  );
}

/**
 * One window of the explorer's order, from summaries alone. An epoch filter reads that epoch's
 * summaries; otherwise a cursor walks the order index's range for the query's filters and sort
 * (skipping `offset` entries by count and advance), so a page reads only its own rows. A window
 * with neither offset nor limit reads each range in one request instead of a cursor step per row.
 */
async function summaryWindow(tx: SummaryTx, runId: string, query: EnvironmentQuery): Promise<EnvironmentSummary[]> {
  if (query.epoch !== undefined) return epochSummaries(tx, runId, { ...query, epoch: query.epoch });
  const limit = query.limit ?? Infinity;
  if (limit <= 0) return [];
  const index = tx.objectStore('envSummaries').index('byOrder');
  const direction = query.descending ? 'prev' : 'next';
  const out: EnvironmentSummary[] = [];
  let skip = query.offset ?? 0;
  for (const range of orderRanges(runId, query)) {
    if (out.length >= limit) break;
    if (skip === 0 && limit === Infinity) {
      const rows = await index.getAll(range);
      for (const row of query.descending ? rows.reverse() : rows) out.push(row.summary);
      continue;
    }
    if (skip > 0) {
      const entries = await index.count(range);
      if (skip >= entries) {
        skip -= entries;
        continue;
      }
    }
    let cursor = await index.openCursor(range, direction);
    if (cursor && skip > 0) cursor = await cursor.advance(skip);
    skip = 0;
    while (cursor && out.length < limit) {
      out.push(cursor.value.summary);
      if (out.length < limit) cursor = await cursor.continue();
    }
  }
  return out;
}

/** The summaries of the environments an explorer query returns, in its order. */
export async function querySummaryRows(
  db: Db,
  runId: string,
  query: EnvironmentQuery = {},
): Promise<EnvironmentSummary[]> {
  const tx = db.transaction(['envSummaries', 'environments'], 'readonly');
  const rows = await summaryWindow(tx, runId, query);
  await tx.done;
  return rows;
}

/** Number of a run's environments passing the query's filters (sort, offset and limit ignored): one count of an index range. */
export async function countEnvironmentRows(db: Db, runId: string, query: EnvironmentQuery = {}): Promise<number> {
  const filters = { ...query, sortBy: undefined, offset: undefined, limit: undefined };
  if (query.epoch !== undefined) return (await querySummaryRows(db, runId, filters)).length;
  return db.countFromIndex('envSummaries', 'byOrder', orderRanges(runId, filters)[0]!);
}

/** The records' index range of the query's narrowest filter (epoch, skill, status), or null without filters. */
function narrowestFilter(
  runId: string,
  query: EnvironmentQuery,
): { index: 'byEpoch' | 'bySkill' | 'byStatus'; range: IDBKeyRange } | null {
  if (query.epoch !== undefined) return { index: 'byEpoch', range: epochRange(runId, query.epoch) };
  if (query.skill !== undefined) return { index: 'bySkill', range: IDBKeyRange.only([runId, query.skill]) };
  if (query.status !== undefined) return { index: 'byStatus', range: IDBKeyRange.only([runId, query.status]) };
  return null;
}

/**
 * Runs an explorer query. Without a limit, the narrowest filter index of the records (or the
 * run) is read and sorted in memory. A page is planned on the summaries (summaryWindow) and
 * then only its records are read.
 */
export async function queryEnvironmentRows(
  db: Db,
  runId: string,
  query: EnvironmentQuery = {},
): Promise<EnvironmentRecord[]> {
  const offset = query.offset ?? 0;
  if (query.limit === undefined) {
    const filter = narrowestFilter(runId, query);
    const rows = filter
      ? await db.getAllFromIndex('environments', filter.index, filter.range)
      : await db.getAll('environments', runRange(runId));
    return rows
      .map((r) => r.record)
      .filter((env) => matchesEnvironmentQuery(env, query))
      .sort(compareEnvironments(query.sortBy, query.descending))
      .slice(offset);
  }
  const tx = db.transaction(['envSummaries', 'environments'], 'readonly');
  const page = await summaryWindow(tx, runId, query);
  const rows = await Promise.all(page.map((s) => tx.objectStore('environments').get([runId, s.id])));
  await tx.done;
  return rows.filter((row) => row !== undefined).map((row) => row.record);
}
