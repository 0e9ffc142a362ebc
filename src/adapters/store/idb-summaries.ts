import { STAT_SORT_KEYS } from '../../analysis/env-query.ts';
import { summarizeEnvironment } from '../../analysis/env-summary.ts';
import { summarizeEnvironments } from '../../analysis/epoch-summary.ts';
import type { EnvironmentQuery, EnvironmentSummary } from '../../core/ports/store-port.ts';
import type { EnvironmentRecord } from '../../core/records.ts';
import type { EnvSummaryRow, UpgradeTx } from './idb-schema.ts';

/**
 * The filters the explorer's order index is built for: every subset of them gets its own key
 * per sort, so a filtered, sorted page is one index range. A new filter (a field of the summary
 * and the query) is added here, and an upgrade re-puts the summary rows (rebuildSummaries).
 */
export const ORDER_FILTERS = ['skill', 'status', 'setting', 'domain'] as const;

/** The sort keys with an order key each. */
const ORDER_SORTS = ['epoch', ...STAT_SORT_KEYS] as const;

type OrderFilterValues = Partial<Record<(typeof ORDER_FILTERS)[number], string>>;

/** The order index's name for the filters a query sets (epoch aside): their names and values in ORDER_FILTERS order. */
export function filterTag(values: OrderFilterValues): string {
  return JSON.stringify(ORDER_FILTERS.filter((f) => values[f] !== undefined).map((f) => [f, values[f]]));
}

/** The filter values of a query that the order index covers. */
export function queryFilters(query: EnvironmentQuery): OrderFilterValues {
  return Object.fromEntries(ORDER_FILTERS.filter((f) => query[f] !== undefined).map((f) => [f, query[f]]));
}

/**
 * The order keys of one summary: for each subset of the filters and each sort, `[runId, tag,
 * sort, epoch, slot]` (epoch sort), `[runId, tag, sort, 1, value]` (scored) or `[runId, tag,
 * sort, 0]` (unscored). Equal keys order by the row's key [runId, envId], as the explorer's ties do.
 * Subsets with a filter the summary has no value for (a game's domain) get no keys.
 */
export function orderKeys(runId: string, summary: EnvironmentSummary): IDBValidKey[][] {
  const keys: IDBValidKey[][] = [];
  for (let mask = 0; mask < 1 << ORDER_FILTERS.length; mask++) {
    const chosen = ORDER_FILTERS.filter((_, i) => mask & (1 << i));
    // A filter the summary has no value for (a game has no domain) matches no query: no keys for it.
    if (chosen.some((f) => summary[f] === null)) continue;
    const values: OrderFilterValues = Object.fromEntries(chosen.map((f) => [f, summary[f]]));
    const tag = filterTag(values);
    for (const sort of ORDER_SORTS) {
      if (sort === 'epoch') keys.push([runId, tag, sort, summary.epoch, summary.slot]);
      else keys.push(summary.scored ? [runId, tag, sort, 1, summary[sort]!] : [runId, tag, sort, 0]);
    }
  }
  return keys;
}

/** The summary row of one stored environment. */
export function envSummaryRow(runId: string, record: EnvironmentRecord): EnvSummaryRow {
  const summary = summarizeEnvironment(record);
  return { runId, envId: record.id, epoch: record.epoch, slot: record.slot, summary, keys: orderKeys(runId, summary) };
}

/**
 * Derives every summary from the stored records, epoch by epoch: each environment's summary row
 * (replacing any) and each epoch's chart summary of its valid environments. Runs inside the
 * upgrade transaction; a failure aborts the upgrade and the database stays as it was.
 */
export async function rebuildSummaries(tx: UpgradeTx): Promise<void> {
  const epochs = tx.objectStore('epochs');
  const environments = tx.objectStore('environments').index('byEpoch');
  const summaries = tx.objectStore('envSummaries');
  let cursor = await epochs.openCursor();
  while (cursor) {
    const row = cursor.value;
    const records = (
      await environments.getAll(IDBKeyRange.bound([row.runId, row.epoch], [row.runId, row.epoch, []]))
    ).map((r) => r.record);
    // Every row is derived before any is written: a record that cannot be summarised leaves no request behind.
    const rows = records.map((record) => envSummaryRow(row.runId, record));
    const epochRow = { ...row, envSummary: summarizeEnvironments(row.epoch, records) };
    await Promise.all([...rows.map((r) => summaries.put(r)), cursor.update(epochRow)]);
    cursor = await cursor.continue();
  }
}
