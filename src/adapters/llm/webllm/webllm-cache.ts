import { loadWebLlm } from './webllm-module.ts';
import { appConfigFor, filesBaseUrl, type CatalogModel, type CustomModelInput } from './model-catalog.ts';

/** The Cache Storage caches web-llm writes (weights and tokenizer, chat config, model library). */
export const WEBLLM_CACHES = ['webllm/model', 'webllm/config', 'webllm/wasm'] as const;

/** One model with files in the cache. */
export interface CachedModel {
  id: string;
  /** Every weight shard is cached (web-llm's `hasModelInCache`): the model loads without network. */
  complete: boolean;
  /** Bytes of its cached files (weights, tokenizer, config, library). */
  bytes: number;
  /** Number of cached files. */
  files: number;
}

/** This site's storage, from `navigator.storage`. */
export interface StorageFacts {
  /** Bytes used by this site (all storage, not only models), or null when unknown. */
  usageBytes: number | null;
  /** Bytes this site may use, or null when unknown. */
  quotaBytes: number | null;
  /** Storage is persistent (the browser will not evict it under pressure), or null when unknown. */
  persisted: boolean | null;
}

interface Entry {
  url: string;
  bytes: number;
}

async function sizeOf(response: Response | undefined): Promise<number> {
  if (!response) return 0;
  const length = Number(response.headers.get('content-length'));
  if (Number.isFinite(length) && length > 0) return length;
  return (await response.blob()).size;
}

async function cachedEntries(): Promise<Entry[]> {
  if (typeof caches === 'undefined') return [];
  const entries: Entry[] = [];
  for (const name of WEBLLM_CACHES) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys())
      entries.push({ url: request.url, bytes: await sizeOf(await cache.match(request)) });
  }
  return entries;
}

const belongsTo = (model: CatalogModel) => {
  const base = filesBaseUrl(model.record.model);
  return (entry: Entry): boolean => entry.url.startsWith(base) || entry.url === model.record.model_lib;
};

/** The listed models that have any file cached (partial downloads included), with sizes. */
export async function listCachedModels(models: readonly CatalogModel[]): Promise<CachedModel[]> {
  const entries = await cachedEntries();
  const found: CachedModel[] = [];
  for (const model of models) {
    const mine = entries.filter(belongsTo(model));
    if (mine.length === 0) continue;
    // web-llm's 6 MB module only when something is cached: an empty cache lists without it.
    const { hasModelInCache } = await loadWebLlm();
    const complete = await hasModelInCache(model.record.model_id, appConfigFor([model.record])).catch(() => false);
    found.push({
      id: model.spec.id,
      complete,
      bytes: mine.reduce((sum, entry) => sum + entry.bytes, 0),
      files: mine.length,
    });
  }
  return found;
}

/** Deletes every cached file of `model` (web-llm's own deletion, then any partial download it does not know of). */
export async function deleteCachedModel(model: CatalogModel): Promise<void> {
  const { deleteModelAllInfoInCache } = await loadWebLlm();
  await deleteModelAllInfoInCache(model.record.model_id, appConfigFor([model.record])).catch(() => undefined);
  if (typeof caches === 'undefined') return;
  const mine = belongsTo(model);
  for (const name of WEBLLM_CACHES) {
    if (!(await caches.has(name))) continue;
    const cache = await caches.open(name);
    for (const request of await cache.keys()) if (mine({ url: request.url, bytes: 0 })) await cache.delete(request);
  }
}

/** Storage use, quota and persistence of this site. */
export async function storageFacts(): Promise<StorageFacts> {
  const storage = globalThis.navigator?.storage;
  if (!storage) return { usageBytes: null, quotaBytes: null, persisted: null };
  const estimate = await storage.estimate().catch(() => ({}) as StorageEstimate);
  const persisted = await storage.persisted().catch(() => null);
  return { usageBytes: estimate.usage ?? null, quotaBytes: estimate.quota ?? null, persisted };
}

/** Asks the browser to keep this site's storage (models included) under storage pressure; resolves with the answer. */
export async function requestPersistentStorage(): Promise<boolean> {
  const storage = globalThis.navigator?.storage;
  if (!storage?.persist) return false;
  return storage.persist().catch(() => false);
}

/** The model the user last loaded, so a reloaded page can load it again from the cache. */
export interface RememberedModel {
  id: string;
  /** Set for a custom model: how to rebuild its record. */
  custom?: CustomModelInput;
  /** The context window the user chose, in tokens (absent: the automatic choice). */
  windowTokens?: number;
}

const REMEMBER_KEY = 'spade-lab.model';

/** Remembers the loaded model in `localStorage` (silently does nothing where storage is blocked). */
export function rememberModel(model: RememberedModel | null): void {
  try {
    if (model) globalThis.localStorage?.setItem(REMEMBER_KEY, JSON.stringify(model));
    else globalThis.localStorage?.removeItem(REMEMBER_KEY);
  } catch {
    // Storage blocked (private mode, policy): the page simply will not offer to resume.
  }
}

/** The remembered model, or null. */
export function rememberedModel(): RememberedModel | null {
  try {
    const parsed: unknown = JSON.parse(globalThis.localStorage?.getItem(REMEMBER_KEY) ?? 'null');
    return parsed && typeof parsed === 'object' && typeof (parsed as RememberedModel).id === 'string'
      ? (parsed as RememberedModel)
      : null;
  } catch {
    return null;
  }
}
