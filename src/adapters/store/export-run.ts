import { buildArchiveFiles } from '../../formats/export/run-archive.ts';
import { buildPoolFiles } from '../../formats/export/pool-export.ts';
import { snapshotRun } from '../../formats/export/run-snapshot.ts';
import { metricsCsv, rolloutsJsonl } from '../../formats/export/tabular-export.ts';
import { noRun } from '../../core/ports/store-errors.ts';
import type { RunStore } from '../../core/ports/store-port.ts';
import { hashText } from './sha256.ts';
import { zipTextFiles } from './zip.ts';

/** What a run can be exported as. */
export const EXPORT_FORMATS = ['pool', 'rollouts', 'metrics', 'archive'] as const;

/** One of EXPORT_FORMATS: a SPADE pool zip, rollout rows JSONL, metrics CSV, or a full run archive zip. */
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** An exported file, ready to save or download. */
export interface ExportedFile {
  fileName: string;
  mimeType: string;
  bytes: Uint8Array;
  /** Items written: pool games, rollout rows, epochs, or environments (archive). */
  count: number;
}

const encoder = new TextEncoder();
const safe = (name: string) => name.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';

/** Exports a run from any RunStore in one of the formats. */
export async function exportRun(store: RunStore, runId: string, format: ExportFormat): Promise<ExportedFile> {
  const base = safe(runId);
  if (format === 'rollouts') {
    const rows = await store.rolloutsOf(runId);
    return {
      fileName: `${base}-rollouts.jsonl`,
      mimeType: 'application/x-ndjson',
      bytes: encoder.encode(rolloutsJsonl(rows)),
      count: rows.length,
    };
  }
  if (format === 'metrics') {
    const [metrics, timings] = await Promise.all([store.metricsOf(runId), store.timingsOf(runId)]);
    return {
      fileName: `${base}-metrics.csv`,
      mimeType: 'text/csv',
      bytes: encoder.encode(metricsCsv(metrics, timings)),
      count: metrics.length,
    };
  }
  if (format === 'pool') {
    const files = await buildPoolFiles(await store.queryEnvironments(runId, { status: 'valid' }), hashText);
    return {
      fileName: `${base}-pool.zip`,
      mimeType: 'application/zip',
      bytes: zipTextFiles(files),
      count: files.length - 2,
    };
  }
  const snapshot = await snapshotRun(store, runId);
  if (!snapshot) throw noRun(runId);
  return {
    fileName: `${base}-archive.zip`,
    mimeType: 'application/zip',
    bytes: zipTextFiles(await buildArchiveFiles(snapshot, hashText)),
    count: snapshot.environments.length,
  };
}
