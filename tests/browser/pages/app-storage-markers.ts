// The app-origin markers of the sandbox test page (tests/browser/pages/sandbox-page.ts): seeded
// before an attack, read back after it, to show an escaped environment neither read nor wrote them.

/** Where the page keeps the app-origin markers an escaped environment would try to read. */
export const APP_STORAGE = {
  dbName: 'spade-lab',
  storeName: 'kv',
  key: 'marker',
  cacheName: 'spade-lab',
  cachePath: '/__spade-marker',
  localStorageKey: 'spade-lab-marker',
  opfsFile: 'spade-lab-marker.txt',
} as const;

/** What the app origin holds (null where a marker is missing). */
export interface AppStorageSnapshot {
  idb: { marker: string | null; pwned: string | null; stores: string[] };
  cache: { marker: string | null; pwned: string | null; keys: string[] };
  localStorage: { marker: string | null; pwned: string | null };
  opfs: { marker: string | null; pwned: string | null; error: string | null };
}

function idbRequest<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function openAppDb(): Promise<IDBDatabase> {
  const open = indexedDB.open(APP_STORAGE.dbName, 1);
  open.onupgradeneeded = () => open.result.createObjectStore(APP_STORAGE.storeName);
  return idbRequest(open);
}

/** Puts `marker` into every store of the app origin (IndexedDB, Cache Storage, localStorage, OPFS). */
export async function seedAppStorage(marker: string): Promise<void> {
  const db = await openAppDb();
  const tx = db.transaction(APP_STORAGE.storeName, 'readwrite');
  tx.objectStore(APP_STORAGE.storeName).put(marker, APP_STORAGE.key);
  await new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  const cache = await caches.open(APP_STORAGE.cacheName);
  await cache.put(new URL(APP_STORAGE.cachePath, location.origin).href, new Response(marker));
  localStorage.setItem(APP_STORAGE.localStorageKey, marker);
  const dir = await navigator.storage.getDirectory();
  const file = await dir.getFileHandle(APP_STORAGE.opfsFile, { create: true });
  const writable = await file.createWritable();
  await writable.write(marker);
  await writable.close();
}

/** Reads the markers back, with anything an attacker wrote beside them (`pwned`). */
export async function readAppStorage(): Promise<AppStorageSnapshot> {
  const db = await openAppDb();
  const stores = [...db.objectStoreNames];
  const store = db.transaction(APP_STORAGE.storeName, 'readonly').objectStore(APP_STORAGE.storeName);
  const idbMarker = (await idbRequest(store.get(APP_STORAGE.key))) as string | undefined;
  const idbPwned = (await idbRequest(store.get('pwned'))) as string | undefined;
  db.close();
  const cache = await caches.open(APP_STORAGE.cacheName);
  const cacheUrl = new URL(APP_STORAGE.cachePath, location.origin).href;
  const cacheMarker = await (await cache.match(cacheUrl))?.text();
  const cachePwned = await (await cache.match(cacheUrl + '-pwned'))?.text();
  const cacheKeys = (await cache.keys()).map((request) => request.url);
  let opfs: AppStorageSnapshot['opfs'] = { marker: null, pwned: null, error: null };
  try {
    const dir = await navigator.storage.getDirectory();
    const read = async (name: string) => {
      try {
        return await (await (await dir.getFileHandle(name)).getFile()).text();
      } catch {
        return null;
      }
    };
    opfs = { marker: await read(APP_STORAGE.opfsFile), pwned: await read('pwned.txt'), error: null };
  } catch (error) {
    opfs.error = String(error);
  }
  return {
    idb: { marker: idbMarker ?? null, pwned: idbPwned ?? null, stores },
    cache: { marker: cacheMarker ?? null, pwned: cachePwned ?? null, keys: cacheKeys },
    localStorage: { marker: localStorage.getItem(APP_STORAGE.localStorageKey), pwned: localStorage.getItem('pwned') },
    opfs,
  };
}
