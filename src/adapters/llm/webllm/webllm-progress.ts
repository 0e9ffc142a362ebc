import type { InitProgressReport } from '@mlc-ai/web-llm';

/** The stage a model load is in. */
export type LoadStage =
  /** Fetching the model's config, library and tokenizer, and checking which shards are cached. */
  | 'preparing'
  /** Downloading weight shards into the cache. */
  | 'downloading'
  /** Reading cached shards onto the GPU. */
  | 'loading'
  /** Compiling GPU shaders. */
  | 'compiling'
  | 'done';

/** One progress report, ready to show. */
export interface LoadProgress {
  stage: LoadStage;
  /** Progress of the current stage, 0 to 1 (web-llm restarts it per stage). */
  fraction: number;
  /** `fraction` as a whole percentage. */
  percent: number;
  /** Megabytes downloaded or loaded so far in this stage, when web-llm said. */
  megabytes: number | null;
  /** Estimated megabytes of the whole stage (megabytes / fraction), when known. */
  totalMegabytes: number | null;
  /** Shards done and total, when web-llm said. */
  shards: { done: number; total: number } | null;
  /** True once weights are being read from the cache without having been downloaded in this load (a cache hit). */
  fromCache: boolean;
  /** Seconds since the stage began, as web-llm reports it. */
  elapsedSeconds: number;
  /** web-llm's own sentence. */
  text: string;
}

const SHARDS = /\[(\d+)\/(\d+)\]/;
const MEGABYTES = /(\d+(?:\.\d+)?)\s*MB (?:fetched|loaded)/;

function stageOf(text: string): LoadStage {
  if (/^Fetching param cache/.test(text)) return 'downloading';
  if (/^Loading model from cache/.test(text)) return 'loading';
  if (/^Loading GPU shader modules/.test(text)) return 'compiling';
  if (/^Finish loading/.test(text)) return 'done';
  return 'preparing';
}

/** Turns web-llm's progress reports into {@link LoadProgress}, remembering whether this load downloaded anything. */
export class ProgressTracker {
  private downloaded = false;

  /** The first report of a load, before web-llm says anything. */
  static preparing(text = 'Fetching the model configuration and library…'): LoadProgress {
    return {
      stage: 'preparing',
      fraction: 0,
      percent: 0,
      megabytes: null,
      totalMegabytes: null,
      shards: null,
      fromCache: false,
      elapsedSeconds: 0,
      text,
    };
  }

  /** Parses one report. */
  take(report: InitProgressReport): LoadProgress {
    const text = report.text ?? '';
    const stage = stageOf(text);
    if (/^Fetching param cache/.test(text)) this.downloaded = true;
    const fraction = Math.min(1, Math.max(0, Number.isFinite(report.progress) ? report.progress : 0));
    const shardMatch = SHARDS.exec(text);
    const mbMatch = MEGABYTES.exec(text);
    const megabytes = mbMatch ? Number(mbMatch[1]) : null;
    return {
      stage,
      fraction,
      percent: Math.floor(fraction * 100),
      megabytes,
      totalMegabytes: megabytes !== null && fraction > 0 ? Math.round(megabytes / fraction) : null,
      shards: shardMatch ? { done: Number(shardMatch[1]), total: Number(shardMatch[2]) } : null,
      fromCache: !this.downloaded && (stage === 'loading' || stage === 'compiling' || stage === 'done'),
      elapsedSeconds: report.timeElapsed ?? 0,
      text,
    };
  }
}
