import type { AppConfig, ModelRecord, ModelType } from '@mlc-ai/web-llm';
import { webllmModelTraits, type ModelSpec } from './model-choice.ts';
import prebuiltRecords from './prebuilt-models.json';

/** A model the app can load: web-llm's record, and its description for choosing. */
export interface CatalogModel {
  spec: ModelSpec;
  record: ModelRecord;
}

/** Where web-llm keeps downloaded files: the browser's Cache Storage (its best-tested backend). */
export const CACHE_BACKEND = 'cache' as const;

/** The prefix of custom model ids, so they never collide with web-llm's prebuilt ids. */
export const CUSTOM_PREFIX = 'custom:';

/** The description of one web-llm record (`custom` for self-hosted models). */
export function specOf(record: ModelRecord, custom = false): ModelSpec {
  return {
    id: record.model_id,
    ...webllmModelTraits(record.model_id),
    vramMB: record.vram_required_MB ?? null,
    lowResource: record.low_resource_required ?? custom,
    requiredStorageBufferBytes: record.buffer_size_required_bytes ?? null,
    requiredFeatures: record.required_features ?? [],
    custom,
  };
}

const LLM = 0 as ModelType.LLM;

/** The chat models of an app config's list (embedding and vision models left out), in its order. */
export function chatModelsOf(config: AppConfig): CatalogModel[] {
  return config.model_list
    .filter((record) => (record.model_type ?? LLM) === LLM)
    .map((record) => ({ spec: specOf(record), record }));
}

/**
 * The chat models of web-llm's prebuilt list (`prebuiltAppConfig`, the source of truth for model
 * libraries that fit this web-llm version), as data written from it by scripts/write-webllm-models.ts
 * (a test fails when it no longer matches the installed web-llm), so listing them loads none of web-llm's JavaScript.
 */
export async function prebuiltModels(): Promise<CatalogModel[]> {
  return chatModelsOf({ model_list: prebuiltRecords as ModelRecord[], cacheBackend: CACHE_BACKEND });
}

/** A self-hosted model: the folder of its MLC weights and its compiled WebGPU library. */
export interface CustomModelInput {
  /** Folder holding `mlc-chat-config.json`, `tensor-cache.json` and the shards (an http(s) URL, or a path on this site). */
  modelUrl: string;
  /** The model library (`...-webgpu.wasm`) built for web-llm 0.2.86 (an http(s) URL, or a path on this site). */
  modelLibUrl: string;
  /** Display name; defaults to the folder's name (keep web-llm's naming, e.g. `Qwen3-0.6B-q4f32_1-MLC`, so the quantisation is known). */
  name?: string;
  /** GPU memory the model needs in MB, when known. */
  vramMB?: number;
}

function absoluteUrl(raw: string, what: string, baseUrl: string): URL {
  const text = raw.trim();
  if (!text) throw new Error(`The ${what} is empty: give an http(s) URL or a path on this site.`);
  let url: URL;
  try {
    url = new URL(text, baseUrl);
  } catch {
    throw new Error(
      `The ${what} ${JSON.stringify(text)} is not a URL: give e.g. https://example.org/models/Qwen3-0.6B-q4f32_1-MLC/`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`The ${what} ${JSON.stringify(text)} uses ${url.protocol}; only http(s) URLs can be fetched.`);
  return url;
}

/** A web-llm record for a self-hosted model; throws an Error saying what to fix when a URL is unusable. */
export function customModel(input: CustomModelInput, baseUrl: string): CatalogModel {
  const modelUrl = absoluteUrl(input.modelUrl, 'model URL', baseUrl);
  const libUrl = absoluteUrl(input.modelLibUrl, 'model library URL', baseUrl);
  if (!libUrl.pathname.endsWith('.wasm'))
    throw new Error(
      `The model library URL ${JSON.stringify(input.modelLibUrl)} does not end in .wasm: it must point at the compiled model library (e.g. Qwen3-0.6B-q4f32_1_cs1k-webgpu.wasm).`,
    );
  const folder =
    modelUrl.pathname
      .replace(/\/resolve\/[^/]+\/?$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop() ?? '';
  const name = (input.name?.trim() || decodeURIComponent(folder)).replace(/\s+/g, '-');
  if (!name)
    throw new Error(`Give the custom model a name: its URL ${JSON.stringify(input.modelUrl)} has no folder name.`);
  const record: ModelRecord = {
    model: modelUrl.href,
    model_id: CUSTOM_PREFIX + name,
    model_lib: libUrl.href,
    low_resource_required: true,
    ...(input.vramMB !== undefined ? { vram_required_MB: input.vramMB } : {}),
  };
  return { spec: specOf(record, true), record };
}

/** The folder web-llm actually reads a model from: it appends `resolve/main/` unless the URL already has `/resolve/<branch>/` (as Hugging Face serves files). */
export function filesBaseUrl(modelUrl: string): string {
  let url = modelUrl.endsWith('/') ? modelUrl : `${modelUrl}/`;
  if (!/.+\/resolve\/.+\//.test(url)) url += 'resolve/main/';
  return new URL(url).href;
}

/** The app config web-llm gets: exactly the given records, cached in Cache Storage. */
export function appConfigFor(records: readonly ModelRecord[]): AppConfig {
  return { model_list: [...records], cacheBackend: CACHE_BACKEND };
}

/** The window web-llm's list loads a model with (`overrides.context_window_size`), or null when only its `mlc-chat-config.json` says. */
export function listWindowOf(model: CatalogModel): number | null {
  const tokens = model.record.overrides?.context_window_size;
  return typeof tokens === 'number' && tokens > 0 ? tokens : null;
}

/** The same model loading with a `tokens` window (web-llm reads the record's overrides over its `mlc-chat-config.json`). */
export function withContextWindow(model: CatalogModel, tokens: number): CatalogModel {
  return {
    spec: model.spec,
    record: { ...model.record, overrides: { ...model.record.overrides, context_window_size: tokens } },
  };
}
