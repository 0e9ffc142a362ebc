import type { RunStore } from '../../core/ports/store-port.ts';
import type { RunMeta } from '../../core/ports/store-port.ts';
import { toExplorerRow, toQuery, type ExplorerRow, type ExplorerSettings } from './explorer-query.ts';
import { errorMessage } from '../../core/error-message.ts';

/** A half-open range of row indexes [start, end). */
export interface RowRange {
  start: number;
  end: number;
}

/** The rows to render for a scroll position: those in view plus `overscan` on each side. */
export function visibleRange(
  scrollTop: number,
  viewportHeight: number,
  rowHeight: number,
  total: number,
  overscan = 10,
): RowRange {
  if (total <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const first = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const inView = Math.ceil(Math.max(0, viewportHeight) / rowHeight) + 1;
  const start = Math.min(total, Math.max(0, first - overscan));
  return { start, end: Math.min(total, Math.max(start, first + inView + overscan)) };
}

/** Indexes of the pages (of `pageSize` rows) that cover a range. */
export function pagesOf(range: RowRange, pageSize: number): number[] {
  if (range.end <= range.start) return [];
  const pages: number[] = [];
  for (let page = Math.floor(range.start / pageSize); page * pageSize < range.end; page++) pages.push(page);
  return pages;
}

/** The row a navigation key moves to (Arrow keys, Page keys, Home, End), or null for other keys. */
export function nextRowIndex(key: string, index: number, total: number, rowsPerPage: number): number | null {
  const moves: Record<string, number> = {
    ArrowDown: index + 1,
    ArrowUp: index - 1,
    PageDown: index + rowsPerPage,
    PageUp: index - rowsPerPage,
    Home: 0,
    End: total - 1,
  };
  const target = moves[key];
  return target === undefined || total <= 0 ? null : Math.min(total - 1, Math.max(0, target));
}

/** The scroll position that shows row `index` fully (unchanged when it already is). */
export function scrollToShow(index: number, rowHeight: number, scrollTop: number, viewportHeight: number): number {
  const top = index * rowHeight;
  if (top < scrollTop) return top;
  if (top + rowHeight > scrollTop + viewportHeight) return top + rowHeight - viewportHeight;
  return scrollTop;
}

/** Reads `limit` rows from `offset` in the current order. */
export type FetchRows = (offset: number, limit: number) => Promise<ExplorerRow[]>;

/**
 * The rows of one query, fetched page by page as they scroll into view: each page is read once
 * (concurrent requests share it), at most `maxPages` stay cached (the farthest from the last
 * requested range go first), and nothing arrives after `close()`.
 */
export class ExplorerWindow {
  private readonly pages = new Map<number, ExplorerRow[]>();
  private readonly pending = new Map<number, Promise<void>>();
  private closed = false;
  /** The last fetch failure, if any. */
  error: string | null = null;

  constructor(
    private readonly fetchRows: FetchRows,
    private readonly onchange: () => void = () => undefined,
    readonly pageSize = 50,
    private readonly maxPages = 40,
  ) {}

  /** The row at `index`, or undefined while its page is not loaded. */
  rowAt(index: number): ExplorerRow | undefined {
    return this.pages.get(Math.floor(index / this.pageSize))?.[index % this.pageSize];
  }

  /** Pages currently cached. */
  get cachedPages(): number {
    return this.pages.size;
  }

  /** Loads the pages covering `range` that are not cached; resolves when all have arrived. */
  async ensure(range: RowRange): Promise<void> {
    const wanted = pagesOf(range, this.pageSize);
    await Promise.all(wanted.map((page) => this.load(page)));
    this.evict(wanted);
  }

  /** Stops updates: later arrivals are dropped. */
  close(): void {
    this.closed = true;
  }

  private load(page: number): Promise<void> {
    if (this.pages.has(page)) return Promise.resolve();
    const running = this.pending.get(page);
    if (running) return running;
    const request = this.fetchRows(page * this.pageSize, this.pageSize)
      .then((rows) => {
        if (this.closed) return;
        this.pages.set(page, rows);
        this.onchange();
      })
      .catch((error: unknown) => {
        if (this.closed) return;
        this.error = errorMessage(error);
        this.onchange();
      })
      .finally(() => this.pending.delete(page));
    this.pending.set(page, request);
    return request;
  }

  private evict(wanted: number[]): void {
    if (this.pages.size <= this.maxPages || wanted.length === 0) return;
    const centre = (wanted[0]! + wanted[wanted.length - 1]!) / 2;
    const far = [...this.pages.keys()]
      .filter((p) => !wanted.includes(p))
      .sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const page of far.slice(0, this.pages.size - this.maxPages)) this.pages.delete(page);
  }
}

/** One run as the explorer reads it. */
export interface ExplorerSource {
  meta: RunMeta;
  /** Env ids in the run's environment memory now. */
  memory: ReadonlySet<string>;
  /** Number of environments passing the settings' filters. */
  count(settings: ExplorerSettings): Promise<number>;
  /** A window over the rows of the settings' query. */
  window(settings: ExplorerSettings, onchange: () => void): ExplorerWindow;
}

/** Opens a run for the explorer (null when the store has no such run). */
export async function openExplorerSource(store: RunStore, runId: string): Promise<ExplorerSource | null> {
  const loaded = await store.loadRun(runId);
  if (!loaded) return null;
  const memory = new Set(loaded.state.memory.map((record) => record.envId));
  return {
    meta: loaded.meta,
    memory,
    count: (settings) => store.countEnvironments(runId, toQuery(settings)),
    window: (settings, onchange) =>
      new ExplorerWindow(
        async (offset, limit) =>
          (await store.queryEnvironmentSummaries(runId, toQuery(settings, { offset, limit }))).map((env) =>
            toExplorerRow(env, memory),
          ),
        onchange,
      ),
  };
}
