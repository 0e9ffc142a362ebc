import { CacheManager, ModelManager, ModelValidationStatus, type WllamaLogger } from '@wllama/wllama';
import type { DownloadProgress } from './wllama-engine.ts';

/** One model (or an interrupted download) in wllama's cache (the origin private file system). */
export interface CachedGguf {
  /** What `remove` takes: the model's URL, or `partial:<file>` for a download without its URL. */
  key: string;
  /** The URL it was downloaded from, or null for an interrupted download. */
  url: string | null;
  /** File name shown to people. */
  name: string;
  /** Bytes on disk. */
  bytes: number;
  /** Every file is there with its expected size: the model loads without network. */
  complete: boolean;
}

/** The model cache the CPU backend uses; tests pass a fake. */
export interface GgufCache {
  list(): Promise<CachedGguf[]>;
  /** The model's files from the cache, downloading what is missing first (progress in bytes; an abort deletes the partial file and rejects). */
  fetch(url: string, options: { signal?: AbortSignal; onProgress?: DownloadProgress }): Promise<Blob[]>;
  remove(key: string): Promise<void>;
}

const PARTIAL = 'partial:';
const silent: WllamaLogger = {
  debug: () => undefined,
  log: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};

/** The last path segment of a URL, without its query. */
export function fileNameOf(url: string): string {
  return decodeURIComponent(url.split('?')[0]!.split('/').pop() || url);
}

/** wllama's own cache (files in the origin private file system, keyed by URL), opened on first use. */
export function wllamaCache(): GgufCache {
  let opened: { cacheManager: CacheManager; manager: ModelManager } | null = null;
  const open = () => {
    if (!opened) {
      const cacheManager = new CacheManager();
      opened = { cacheManager, manager: new ModelManager({ cacheManager, logger: silent }) };
    }
    return opened;
  };
  return {
    async list() {
      const { cacheManager, manager } = open();
      const models = await manager.getModels({ includeInvalid: true });
      const listed: CachedGguf[] = models.map((model) => ({
        key: model.url,
        url: model.url,
        name: fileNameOf(model.url),
        bytes: model.files.reduce((sum, file) => sum + file.size, 0),
        complete: model.validate() === ModelValidationStatus.VALID,
      }));
      const partial = (await cacheManager.list()).filter((entry) => !entry.metadata.originalURL);
      return [
        ...listed,
        ...partial.map((entry) => ({
          key: PARTIAL + entry.name,
          url: null,
          name: entry.name.replace(/^[0-9a-f]+_/, ''),
          bytes: entry.size,
          complete: false,
        })),
      ];
    },
    async fetch(url, { signal, onProgress }) {
      const { cacheManager, manager } = open();
      try {
        const model = await manager.getModelOrDownload(
          { url },
          { ...(signal ? { signal } : {}), ...(onProgress ? { progressCallback: onProgress } : {}) },
        );
        return await model.open();
      } catch (error) {
        if (signal?.aborted) await cacheManager.delete(url).catch(() => undefined);
        throw error;
      }
    },
    async remove(key) {
      const { cacheManager, manager } = open();
      if (key.startsWith(PARTIAL)) return cacheManager.delete(key.slice(PARTIAL.length));
      const model = (await manager.getModels({ includeInvalid: true })).find((m) => m.url === key);
      await (model ? model.remove() : cacheManager.delete(key));
    },
  };
}
