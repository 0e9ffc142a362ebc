import { comparisonCsv } from '../../formats/export/comparison-csv.ts';
import { loadComparison, type ComparisonData, type ComparisonStore } from './compare-data.ts';
import { errorMessage } from '../../core/error-message.ts';

/** What the comparison needs from the composition root. */
export interface ComparisonDeps {
  store: ComparisonStore;
  /** Hands the browser a file to save. */
  save: (fileName: string, content: string, mimeType: string) => void;
}

/** Runs side by side: the selection (from the Runs list or a finished sweep), the comparison read from the store, and its CSV export. */
export class Comparison {
  /** Ids of the selected runs, in the order they were selected. */
  selected: string[] = $state([]);
  /** The last comparison read, or null before the first. */
  data: ComparisonData | null = $state.raw(null);
  loading = $state(false);
  /** Why the last read failed, or null. */
  error: string | null = $state(null);

  private sequence = 0;

  constructor(private readonly deps: ComparisonDeps) {}

  /** Adds a run to the selection or removes it. */
  toggle(runId: string, on: boolean): void {
    const others = this.selected.filter((id) => id !== runId);
    this.selected = on ? [...others, runId] : others;
  }

  /** Replaces the selection. */
  select(runIds: readonly string[]): void {
    this.selected = runIds.filter((id, i) => runIds.indexOf(id) === i);
  }

  /** Reads and compares the selected runs (a later call wins over one still reading). */
  async load(): Promise<void> {
    const mine = ++this.sequence;
    this.loading = true;
    try {
      const data = await loadComparison(this.deps.store, this.selected);
      if (mine !== this.sequence) return;
      this.data = data;
      this.error = null;
    } catch (error) {
      if (mine === this.sequence)
        this.error = `The runs could not be read: ${errorMessage(error)}. Reload the page and try again.`;
    } finally {
      if (mine === this.sequence) this.loading = false;
    }
  }

  /** Saves the comparison shown as CSV (one row per run: final figures and every differing setting); returns the file name, or null when nothing is shown. */
  exportCsv(): string | null {
    if (!this.data) return null;
    const fileName = `spade-comparison-${this.data.runs.length}-runs.csv`;
    this.deps.save(fileName, comparisonCsv(this.data.comparison), 'text/csv;charset=utf-8');
    return fileName;
  }
}
