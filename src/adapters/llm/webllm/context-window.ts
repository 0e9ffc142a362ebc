// Which context window a web-llm model loads with (docs/method.md, "How each backend learns its
// window"): web-llm's prebuilt list caps most models at 4,096 tokens although they were trained
// for more; a larger window costs KV-cache memory, which this file estimates from the model's
// architecture and checks against the adapter's buffer limits and the GPU memory budget.
import { FULL_STORAGE_BUFFER_BYTES, type GpuCapabilities, type ModelSpec } from './model-choice.ts';

/** The architecture facts that size a model's KV cache. */
export interface KvShape {
  /** Transformer layers (`num_hidden_layers`). */
  layers: number;
  /** Key/value heads (`num_key_value_heads`). */
  kvHeads: number;
  /** Width of one head (`head_dim`). */
  headDim: number;
  /** The window the model was trained for, in tokens. */
  nativeWindow: number;
}

/**
 * KV shapes of the prebuilt families the window can be enlarged for, copied from each model's
 * Hugging Face `config.json` (web-llm's ModelRecord does not carry them, and `mlc-chat-config.json`
 * is only fetched while loading). Models not listed keep the prebuilt list's window.
 */
export const KV_SHAPES: ReadonlyArray<{ family: string; paramsB: number; shape: KvShape }> = [
  { family: 'Qwen3', paramsB: 0.6, shape: { layers: 28, kvHeads: 8, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Qwen3', paramsB: 1.7, shape: { layers: 28, kvHeads: 8, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Qwen3', paramsB: 4, shape: { layers: 36, kvHeads: 8, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Qwen3', paramsB: 8, shape: { layers: 36, kvHeads: 8, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Qwen2.5', paramsB: 0.5, shape: { layers: 24, kvHeads: 2, headDim: 64, nativeWindow: 32_768 } },
  { family: 'Qwen2.5', paramsB: 1.5, shape: { layers: 28, kvHeads: 2, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Qwen2.5', paramsB: 3, shape: { layers: 36, kvHeads: 2, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Qwen2.5', paramsB: 7, shape: { layers: 28, kvHeads: 4, headDim: 128, nativeWindow: 32_768 } },
  { family: 'Llama-3.2', paramsB: 1, shape: { layers: 16, kvHeads: 8, headDim: 64, nativeWindow: 131_072 } },
  { family: 'Llama-3.2', paramsB: 3, shape: { layers: 28, kvHeads: 8, headDim: 128, nativeWindow: 131_072 } },
  { family: 'Llama-3.1', paramsB: 8, shape: { layers: 32, kvHeads: 8, headDim: 128, nativeWindow: 131_072 } },
];

/** The windows the automatic choice considers, largest first; the Model view offers the same ones. */
export const WINDOW_CHOICES = [16_384, 8_192, 4_096] as const;

/** The GPU memory assumed when the browser does not say (no `navigator.deviceMemory`, or 8 GB or more, which Chrome reports as 8). */
export const UNKNOWN_BUDGET_MB = 4096;

/** web-llm's `vram_required_MB` counts 10^6 bytes: its Llama 3.1 8B entries for 1,024 and 4,096 tokens differ by exactly 3,072 tokens of KV cache in those units. */
const BYTES_PER_MB = 1e6;

/** web-llm's KV-cache page size in tokens (hard-coded in its pipeline). */
const PAGE_TOKENS = 16;

/** The window a model loads with, and why. */
export interface WindowChoice {
  /** Tokens (prompt plus reply) the model is loaded with; null when only its own `mlc-chat-config.json` knows (a custom model). */
  tokens: number | null;
  /** True when chosen by the rule, false when the user chose it. */
  automatic: boolean;
  /** One sentence for the Model view: the window, and why not larger. */
  explanation: string;
  /** Set when a chosen window may not fit (the user's choice beyond the budget or buffer limit). */
  warning: string | null;
}

/** What the choice depends on. */
export interface WindowInput {
  caps: GpuCapabilities;
  model: ModelSpec;
  /** The prebuilt list's `overrides.context_window_size`, or null. */
  listWindow: number | null;
  /** The GPU memory budget in MB (`vramBudgetMB`), or null when unknown. */
  budgetMB: number | null;
  /** The user's choice in tokens, or null for the automatic choice. */
  override?: number | null;
}

/** The KV shape of a model, or null when it is not in {@link KV_SHAPES}. */
export function kvShapeOf(model: Pick<ModelSpec, 'family' | 'paramsB'>): KvShape | null {
  return KV_SHAPES.find((entry) => entry.family === model.family && entry.paramsB === model.paramsB)?.shape ?? null;
}

/** Bytes of KV cache per token: keys and values of every layer, in the activation float width (f16 builds keep f16 caches). */
export function kvBytesPerToken(shape: KvShape, float: 16 | 32): number {
  return 2 * shape.layers * shape.kvHeads * shape.headDim * (float / 8);
}

/** Bytes of one layer's KV buffer for `tokens` (web-llm allocates one buffer per layer, in whole pages; one spare page counted). */
export function kvLayerBufferBytes(shape: KvShape, float: 16 | 32, tokens: number): number {
  const pages = Math.ceil(tokens / PAGE_TOKENS) + 1;
  return pages * PAGE_TOKENS * 2 * shape.kvHeads * shape.headDim * (float / 8);
}

const count = (tokens: number): string => tokens.toLocaleString('en-US');
const gb = (mb: number): string => `${(mb / 1024).toFixed(1)} GB`;
const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 30 ? 0 : 1)} MiB`;
const kib = (bytes: number): string => `${Math.round(bytes / 1024)} KiB`;
const sized = (tokens: number): string => `${/^8/.test(String(tokens)) ? 'an' : 'a'} ${count(tokens)}-token window`;

interface Need {
  totalMB: number;
  layerBytes: number;
  /** Why it does not fit, or null. */
  problem: string | null;
}

function needOf(
  shape: KvShape,
  float: 16 | 32,
  vramMB: number,
  listWindow: number,
  tokens: number,
  caps: GpuCapabilities,
  budget: { mb: number; assumed: boolean },
): Need {
  const totalMB = vramMB + ((tokens - listWindow) * kvBytesPerToken(shape, float)) / BYTES_PER_MB;
  const layerBytes = kvLayerBufferBytes(shape, float, tokens);
  const adapter = caps.adapter;
  const limit = adapter
    ? Math.min(adapter.maxBufferSize, adapter.maxStorageBufferBindingSize)
    : FULL_STORAGE_BUFFER_BYTES;
  let problem: string | null = null;
  if (layerBytes > limit)
    problem = `one layer's KV cache would be a ${mib(layerBytes)} buffer, over this GPU's ${mib(limit)} buffer limit`;
  else if (totalMB > budget.mb)
    problem = `it would need about ${gb(totalMB)} of GPU memory; about ${gb(budget.mb)} is ${budget.assumed ? 'assumed (the browser does not report memory)' : 'available'}`;
  return { totalMB, layerBytes, problem };
}

/**
 * The window `model` loads with: the user's choice when given, else the largest of
 * {@link WINDOW_CHOICES} within the model's native window whose KV cache fits the adapter's buffer
 * limit and, added to web-llm's memory estimate (made for the list's window), the GPU memory
 * budget ({@link UNKNOWN_BUDGET_MB} when unknown); else the prebuilt list's own window.
 */
export function chooseContextWindow({ caps, model, listWindow, budgetMB, override = null }: WindowInput): WindowChoice {
  const shape = kvShapeOf(model);
  const float = model.float;
  const budget = budgetMB === null ? { mb: UNKNOWN_BUDGET_MB, assumed: true } : { mb: budgetMB, assumed: false };
  const known = shape !== null && float !== null && model.vramMB !== null && listWindow !== null;
  const need = (tokens: number): Need | null =>
    known ? needOf(shape, float, model.vramMB!, listWindow!, tokens, caps, budget) : null;
  if (override !== null) {
    const problem = need(override)?.problem ?? null;
    return {
      tokens: override,
      automatic: false,
      explanation: `Loads with ${sized(override)}, as chosen under "Context window".`,
      warning: problem ? `May not load: ${problem}.` : null,
    };
  }
  if (!known) {
    const why =
      shape === null
        ? 'SPADE Lab does not know the size of its KV cache, so the window is not enlarged'
        : 'its GPU memory or float width is not known, so the window is not enlarged';
    if (listWindow === null)
      return {
        tokens: null,
        automatic: true,
        explanation: `Loads with the window its mlc-chat-config.json sets (known after loading): ${why}.`,
        warning: null,
      };
    return {
      tokens: listWindow,
      automatic: true,
      explanation: `Loads with web-llm's ${count(listWindow)}-token window: ${why}.`,
      warning: null,
    };
  }
  const perToken = `its KV cache takes ${kib(kvBytesPerToken(shape, float))} per token`;
  const candidates = WINDOW_CHOICES.filter((tokens) => tokens <= shape.nativeWindow && tokens > listWindow!);
  for (const [index, tokens] of candidates.entries()) {
    const fit = need(tokens)!;
    if (fit.problem) continue;
    const larger = candidates[index - 1];
    const notLarger =
      larger === undefined
        ? `${count(tokens)} is the largest window offered (the model was trained for ${count(shape.nativeWindow)})`
        : `not ${count(larger)}: ${need(larger)!.problem}`;
    return {
      tokens,
      automatic: true,
      explanation: `Loads with ${sized(tokens)}: ${perToken}, about ${gb(fit.totalMB)} of GPU memory in all; ${notLarger}.`,
      warning: null,
    };
  }
  const smallest = candidates[candidates.length - 1];
  const why =
    smallest === undefined
      ? `web-llm's list already allows what the model was trained for`
      : `not ${count(smallest)}: ${need(smallest)!.problem}`;
  return {
    tokens: listWindow,
    automatic: true,
    explanation: `Loads with web-llm's ${count(listWindow!)}-token window: ${perToken}; ${why}.`,
    warning: null,
  };
}
