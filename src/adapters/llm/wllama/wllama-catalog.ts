/** A GGUF chat model recommended for the CPU backend. */
export interface GgufModelOption {
  /** Stable id, e.g. `qwen3-0.6b-q4_k_m`. */
  id: string;
  /** Name shown to people. */
  label: string;
  /** Where the file is downloaded from (shown to the user, who confirms it before anything is fetched). */
  url: string;
  /** Approximate file size in bytes (the server's Content-Length is what the progress bar uses). */
  approxBytes: number;
  /** Parameters in billions. */
  paramsB: number;
  /** One sentence on when to choose it. */
  note: string;
}

/** The recommended models, smallest first: the paper's Qwen3 family in a 4-bit (Q4_K_M) quantisation. */
export const RECOMMENDED_GGUF_MODELS: readonly GgufModelOption[] = [
  {
    id: 'qwen3-0.6b-q4_k_m',
    label: 'Qwen3 0.6B (Q4_K_M)',
    url: 'https://huggingface.co/unsloth/Qwen3-0.6B-GGUF/resolve/main/Qwen3-0.6B-Q4_K_M.gguf',
    approxBytes: 397e6,
    paramsB: 0.6,
    note: "The smallest of the paper's family: the one to try first on a CPU.",
  },
  {
    id: 'qwen3-1.7b-q4_k_m',
    label: 'Qwen3 1.7B (Q4_K_M)',
    url: 'https://huggingface.co/unsloth/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf',
    approxBytes: 1.11e9,
    paramsB: 1.7,
    note: 'Writes better environments, about three times slower than 0.6B.',
  },
];

/** A speed range in tokens per second: [pessimistic, optimistic]. */
export type SpeedRange = readonly [number, number];

/** A ballpark of CPU speed before anything was measured. */
export interface SpeedEstimate {
  /** Reply tokens per second. */
  generate: SpeedRange;
  /** Prompt tokens read per second. */
  readPrompt: SpeedRange;
  /** Seconds for a typical designer call (1500 prompt tokens, 1000 reply tokens). */
  designerCallSeconds: SpeedRange;
  threads: number;
  /** How the numbers were made, for the screen. */
  basis: string;
}

/** Effective memory bandwidth of one wasm thread generating tokens, in bytes per second (generation reads every weight once per token). */
const BANDWIDTH_PER_THREAD: SpeedRange = [1.2e9, 3.2e9];
/** Effective arithmetic of one wasm SIMD thread reading a prompt, in FLOP per second (about 2 FLOP per parameter per token). */
const FLOPS_PER_THREAD: SpeedRange = [10e9, 40e9];
/** Bits per weight of a Q4_K_M file, to guess parameters from bytes. */
const Q4_K_M_BITS = 4.9;

/** How much faster `threads` threads are than one: 0.6 more per added thread, at most 3.5 times (memory bandwidth runs out). */
export function threadSpeedup(threads: number): number {
  return Math.min(3.5, 1 + 0.6 * Math.max(0, threads - 1));
}

/**
 * A rough speed estimate for a model of `fileBytes` on `threads` wasm threads, from bandwidth and
 * arithmetic ranges typical of laptops and desktops of recent years; an estimate, never a measurement.
 */
export function estimateCpuSpeed(fileBytes: number, threads: number, paramsB?: number): SpeedEstimate {
  const speedup = threadSpeedup(threads);
  const params = (paramsB ?? (fileBytes * 8) / Q4_K_M_BITS / 1e9) * 1e9;
  const generate: SpeedRange = [
    (BANDWIDTH_PER_THREAD[0] * speedup) / fileBytes,
    (BANDWIDTH_PER_THREAD[1] * speedup) / fileBytes,
  ];
  const readPrompt: SpeedRange = [
    (FLOPS_PER_THREAD[0] * speedup) / (2 * params),
    (FLOPS_PER_THREAD[1] * speedup) / (2 * params),
  ];
  const call = (i: 0 | 1): number => 1500 / readPrompt[i] + 1000 / generate[i];
  return {
    generate,
    readPrompt,
    designerCallSeconds: [call(1), call(0)],
    threads,
    basis: `estimate from the file size and ${threads} thread${threads === 1 ? '' : 's'}, not a measurement; real speed depends on the processor and memory`,
  };
}

/** A speed range as text, e.g. `4–11 tokens/s`. */
export function formatSpeed(range: SpeedRange): string {
  const round = (x: number): string => (x >= 10 ? Math.round(x).toString() : x.toFixed(1));
  return `${round(range[0])}–${round(range[1])} tokens/s`;
}

/** A measured rate as text, e.g. `40.0 tokens/s`; `no rate reported` when the engine gave none. */
export function formatRate(tokensPerSecond: number | null): string {
  return tokensPerSecond === null ? 'no rate reported' : `${tokensPerSecond.toFixed(1)} tokens/s`;
}

/** A byte count as text, e.g. `397 MB` or `1.11 GB` (decimal units, as download sites show them). */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${Math.round(bytes / 1e6)} MB`;
  return `${(bytes / 1e3).toFixed(1)} kB`;
}
