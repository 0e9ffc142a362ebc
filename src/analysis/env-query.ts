import type { EnvironmentRecord } from '../core/records.ts';
import type { EnvironmentQuery, EnvironmentSummary } from '../core/ports/store-port.ts';
import { environmentSetting } from '../core/skills.ts';

/** Sort keys of the environment explorer. */
export type EnvironmentSortKey = NonNullable<EnvironmentQuery['sortBy']>;

/** The statistics an explorer can sort by. */
export const STAT_SORT_KEYS = ['regret', 'winRate', 'designerReward'] as const;

/** The fields a query filters on: an environment record's, or its summary's (which also holds its setting). */
type Filterable = Pick<EnvironmentRecord, 'skill' | 'status' | 'epoch'> & { domain?: string | null };

/** True when the environment has finite scores (it was played and scored). */
export function isScored(env: EnvironmentRecord): boolean {
  const s = env.stats;
  return s !== null && Number.isFinite(s.regret) && Number.isFinite(s.winRate) && Number.isFinite(s.designerReward);
}

/** The value an environment sorts by: its epoch, or a statistic (null when unscored). */
export function sortValue(env: EnvironmentRecord, sortBy: EnvironmentSortKey): number | null {
  if (sortBy === 'epoch') return env.epoch;
  return isScored(env) ? env.stats![sortBy] : null;
}

/** The value a summary sorts by, as sortValue gives for its record. */
export function summarySortValue(env: EnvironmentSummary, sortBy: EnvironmentSortKey): number | null {
  if (sortBy === 'epoch') return env.epoch;
  return env.scored ? env[sortBy] : null;
}

/** True when the environment passes the query's filters (skill, status, epoch, setting, domain). */
export function matchesEnvironmentQuery(env: Filterable, query: EnvironmentQuery): boolean {
  return (
    (query.skill === undefined || env.skill === query.skill) &&
    (query.status === undefined || env.status === query.status) &&
    (query.epoch === undefined || env.epoch === query.epoch) &&
    (query.setting === undefined || environmentSetting(env, 'games') === query.setting) &&
    (query.domain === undefined || env.domain === query.domain)
  );
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

type Sortable = { id: string; slot: number };

function explorerOrder<T extends Sortable>(
  value: (env: T, sortBy: EnvironmentSortKey) => number | null,
  sortBy: EnvironmentSortKey,
  descending: boolean,
): (a: T, b: T) => number {
  const sign = descending ? -1 : 1;
  return (a, b) => {
    const va = value(a, sortBy);
    const vb = value(b, sortBy);
    if (va === null || vb === null) {
      if (va !== vb) return va === null ? 1 : -1;
      return sign * compareIds(a.id, b.id);
    }
    if (va !== vb) return sign * (va < vb ? -1 : 1);
    if (sortBy === 'epoch' && a.slot !== b.slot) return sign * (a.slot - b.slot);
    return sign * compareIds(a.id, b.id);
  };
}

/**
 * The explorer's order: by the sort value, ties by slot (epoch sort only) then id, all reversed
 * when descending; environments without the value (unscored) come last in both directions.
 * Ids compare by UTF-16 code units, as IndexedDB compares string keys.
 */
export function compareEnvironments(
  sortBy: EnvironmentSortKey = 'epoch',
  descending = false,
): (a: EnvironmentRecord, b: EnvironmentRecord) => number {
  return explorerOrder(sortValue, sortBy, descending);
}

/** The explorer's order over summaries (the same as compareEnvironments over their records). */
export function compareSummaries(
  sortBy: EnvironmentSortKey = 'epoch',
  descending = false,
): (a: EnvironmentSummary, b: EnvironmentSummary) => number {
  return explorerOrder(summarySortValue, sortBy, descending);
}

function select<T extends Filterable>(
  items: readonly T[],
  query: EnvironmentQuery,
  compare: (a: T, b: T) => number,
): T[] {
  const sorted = items.filter((env) => matchesEnvironmentQuery(env, query)).sort(compare);
  const offset = query.offset ?? 0;
  return sorted.slice(offset, query.limit === undefined ? undefined : offset + query.limit);
}

/** Applies a query to a list of environments: filter, sort, then offset and limit. */
export function selectEnvironments(
  envs: readonly EnvironmentRecord[],
  query: EnvironmentQuery = {},
): EnvironmentRecord[] {
  return select(envs, query, compareEnvironments(query.sortBy, query.descending));
}

/** Applies a query to a list of summaries, as selectEnvironments does to their records. */
export function selectSummaries(
  envs: readonly EnvironmentSummary[],
  query: EnvironmentQuery = {},
): EnvironmentSummary[] {
  return select(envs, query, compareSummaries(query.sortBy, query.descending));
}
