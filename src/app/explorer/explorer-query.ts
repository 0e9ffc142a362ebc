import type { EnvironmentRecord } from '../../core/records.ts';
import type { EnvironmentSummary } from '../../core/ports/store-port.ts';
import type { EnvironmentQuery, RunMeta } from '../../core/ports/store-port.ts';
import { TOOL_USE_DOMAINS, type RunSetting } from '../../core/skills.ts';

/** Columns the explorer can sort by (the store's sort keys). */
export type ExplorerSortKey = NonNullable<EnvironmentQuery['sortBy']>;

/** The explorer's filters and sort, as the user set them (null filter = any). */
export interface ExplorerSettings {
  skill: string | null;
  status: EnvironmentRecord['status'] | null;
  /** Games or tool use only (a fixed pool may mix them). */
  setting: RunSetting | null;
  /** A tool-use domain (one of TOOL_USE_DOMAINS). */
  domain: string | null;
  /** Epoch index (0-based), or null for every epoch. */
  epoch: number | null;
  sortBy: ExplorerSortKey;
  descending: boolean;
}

/** Every environment, in epoch order. */
export const DEFAULT_EXPLORER_SETTINGS: ExplorerSettings = {
  skill: null,
  status: null,
  setting: null,
  domain: null,
  epoch: null,
  sortBy: 'epoch',
  descending: false,
};

/** The sortable columns with their labels, in table order. */
export const SORT_COLUMNS: ReadonlyArray<{ key: ExplorerSortKey; label: string }> = [
  { key: 'epoch', label: 'Epoch' },
  { key: 'winRate', label: 'Win rate' },
  { key: 'regret', label: 'Regret' },
  { key: 'designerReward', label: 'Designer reward' },
];

/** The store query of the settings for one window of rows (no window: filters only, for counting). */
export function toQuery(settings: ExplorerSettings, window?: { offset: number; limit: number }): EnvironmentQuery {
  return {
    ...(settings.skill !== null ? { skill: settings.skill } : {}),
    ...(settings.status !== null ? { status: settings.status } : {}),
    ...(settings.setting !== null ? { setting: settings.setting } : {}),
    ...(settings.domain !== null ? { domain: settings.domain } : {}),
    ...(settings.epoch !== null ? { epoch: settings.epoch } : {}),
    sortBy: settings.sortBy,
    descending: settings.descending,
    ...(window ?? {}),
  };
}

/** Clicking a column header: the same column flips direction; a new one starts descending for scores, ascending for epochs. */
export function toggleSort(settings: ExplorerSettings, key: ExplorerSortKey): ExplorerSettings {
  if (settings.sortBy === key) return { ...settings, descending: !settings.descending };
  return { ...settings, sortBy: key, descending: key !== 'epoch' };
}

/** The aria-sort value of a column header. */
export function ariaSort(settings: ExplorerSettings, key: ExplorerSortKey): 'ascending' | 'descending' | 'none' {
  if (settings.sortBy !== key) return 'none';
  return settings.descending ? 'descending' : 'ascending';
}

/** One explorer row: an environment's summary (no code or transcripts) and whether the run's memory holds it. */
export interface ExplorerRow extends EnvironmentSummary {
  inMemory: boolean;
}

export { rejectionReason } from '../../analysis/env-summary.ts';

/** A stored environment's summary as a table row; `memory` holds the env ids in the run's memory. */
export function toExplorerRow(summary: EnvironmentSummary, memory: ReadonlySet<string>): ExplorerRow {
  return { ...summary, inMemory: memory.has(summary.id) };
}

/** Formats a score for a table cell ("–" when absent). */
export function formatScore(value: number | null, digits = 2): string {
  return value === null ? '–' : value.toFixed(digits);
}

/** A domain's short name for a menu: the part before its colon ("a smart home: lights, ..." -> "a smart home"). */
export function domainLabel(domain: string): string {
  const cut = domain.indexOf(':');
  return cut > 0 ? domain.slice(0, cut) : domain;
}

/** Which extra filters a run's explorer offers: the setting where a fixed pool may mix games and tool use, the domains where tool use may appear. */
export function filterChoices(meta: Pick<RunMeta, 'config' | 'fixedPool'>): {
  mixed: boolean;
  domains: readonly string[];
} {
  const mixed = meta.fixedPool !== undefined;
  return { mixed, domains: mixed || meta.config.setting === 'tool_use' ? TOOL_USE_DOMAINS : [] };
}
