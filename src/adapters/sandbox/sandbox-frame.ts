/** Content-Security-Policy of the sandbox frame: no network of any kind, blob workers and wasm only. */
export const SANDBOX_FRAME_CSP = "default-src 'none'; script-src 'unsafe-inline' 'wasm-unsafe-eval'; worker-src blob:";

/** The Pyodide file the frame compiles once and hands to every worker as a compiled module. */
export const SANDBOX_WASM_FILE = 'pyodide.asm.wasm';

// Runs inside the opaque-origin frame. The host's one window message brings the worker source,
// the Pyodide files, a private control port, whether to start workers from a memory snapshot and
// maybe the build's snapshot (else why there is none). The build ships it gzipped, but a host that
// serves .gz files with Content-Encoding: gzip (vite preview does) hands over the unpacked bytes:
// gzip data (magic bytes 1f 8b) is unpacked here, a Pyodide snapshot (magic bytes 00 73 6e 70) is
// taken as it is, anything else is refused. The frame compiles Pyodide's wasm once; when snapshots
// are asked for, starts restore from a copy of the build's snapshot, or, when there is none or it
// is unusable, of one that a worker running no environment booted cold to send back. Once it knows
// which, it says so on the control port, before any start: { spadeSnapshotSource: 'build' |
// 'page' | 'none', why } (why: what was wrong with the build's snapshot).
// Each { start: id, port } on the control port starts one worker (one interpreter, one
// environment) with its own copies of the files and of the snapshot, the compiled module
// and the host's port for it; { kill: id } terminates that worker. Worker deaths go back on the
// control port as { spadeSandboxDied, id }. Environments only ever run in the workers, never here.
const FRAME_SCRIPT = `
addEventListener('message', (event) => {
  if (event.source !== parent) return;
  const { workerSource, files, control, snapshot: wantSnapshot, prebuilt, prebuiltMissing } = event.data || {};
  if (!(control instanceof MessagePort)) return;
  const url = URL.createObjectURL(new Blob([String(workerSource)], { type: 'text/javascript' }));
  const all = files && typeof files === 'object' ? files : {};
  const wasm = all[${JSON.stringify(SANDBOX_WASM_FILE)}];
  const compiled = wasm instanceof ArrayBuffer ? WebAssembly.compile(wasm).catch((error) => String(error)) : Promise.resolve(null);
  const others = Object.entries(all).filter(([name, bytes]) => name !== ${JSON.stringify(SANDBOX_WASM_FILE)} && bytes instanceof ArrayBuffer);
  const workers = new Map();
  const copiesOf = () => Object.fromEntries(others.map(([name, bytes]) => [name, bytes.slice(0)]));
  // Starts wait for the snapshot (a restore is several times cheaper than a cold start); without
  // one (not asked for, or the maker failed or took over 30 s) they start cold.
  const make = () => compiled.then((module) => new Promise((resolve) => {
    if (typeof module !== 'object' || module === null) return resolve(null);
    const maker = new Worker(url);
    const done = (bytes) => {
      clearTimeout(timer);
      maker.terminate();
      resolve(bytes instanceof Uint8Array ? bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) : null);
    };
    const timer = setTimeout(() => done(null), 30000);
    maker.addEventListener('message', (e) => done(e.data && e.data.spadeSnapshot), { once: true });
    maker.addEventListener('error', () => done(null));
    const copies = copiesOf();
    maker.postMessage({ files: copies, wasmModule: module, makeSnapshot: true }, Object.values(copies));
  }));
  const head = (bytes) => [...new Uint8Array(bytes, 0, Math.min(4, bytes.byteLength))];
  const startsWith = (bytes, magic) => magic.every((byte, i) => head(bytes)[i] === byte);
  // The build's snapshot as { bytes }, or { why } it cannot be used (the end of a sentence that
  // begins "the build's Python snapshot").
  const unpack = (given) => {
    if (startsWith(given, [0x1f, 0x8b])) {
      const stream = new Blob([given]).stream().pipeThrough(new DecompressionStream('gzip'));
      return new Response(stream).arrayBuffer().then((bytes) => ({ bytes }), () => ({ why: 'has corrupt gzip data' }));
    }
    if (startsWith(given, [0x00, 0x73, 0x6e, 0x70])) return Promise.resolve({ bytes: given });
    const start = head(given).map((byte) => byte.toString(16).padStart(2, '0')).join(' ');
    return Promise.resolve({ why: 'is neither gzip data nor a Pyodide snapshot (' + given.byteLength + ' bytes' + (start ? ' starting ' + start : '') + ')' });
  };
  const own = (why) => make().then((bytes) => ({ bytes, source: bytes ? 'page' : 'none', why }));
  const chosen =
    wantSnapshot !== true
      ? Promise.resolve({ bytes: null, source: 'none', why: 'is not asked for' })
      : prebuilt instanceof ArrayBuffer
        ? unpack(prebuilt).then((got) => (got.bytes ? { bytes: got.bytes, source: 'build', why: '' } : own(got.why)))
        : own(String(prebuiltMissing || 'is not there'));
  const snapshot = chosen.then(({ bytes, source, why }) => {
    control.postMessage({ spadeSnapshotSource: source, why: String(why).slice(0, 300) });
    return bytes;
  });
  const died = (id, reason) => {
    const worker = workers.get(id);
    if (!worker) return;
    workers.delete(id);
    worker.terminate();
    control.postMessage({ spadeSandboxDied: String(reason), id });
  };
  control.onmessage = async (message) => {
    const { start, kill, port } = message.data || {};
    if (typeof kill === 'number') {
      workers.get(kill)?.terminate();
      workers.delete(kill);
      return;
    }
    if (typeof start !== 'number' || !(port instanceof MessagePort) || workers.has(start)) return;
    const worker = new Worker(url);
    workers.set(start, worker);
    worker.addEventListener('error', (e) => died(start, e.message || 'worker error'));
    worker.addEventListener('messageerror', () => died(start, 'message error'));
    const module = await compiled;
    const bytes = await snapshot;
    if (workers.get(start) !== worker) return;
    if (typeof module === 'string') return died(start, 'could not compile Python: ' + module);
    const copies = copiesOf();
    const restore = bytes ? { snapshot: bytes.slice(0) } : {};
    worker.postMessage({ port, files: copies, ...(module ? { wasmModule: module } : {}), ...restore }, [port, ...Object.values(copies), ...Object.values(restore)]);
  };
}, { once: true });
`;

/** The srcdoc of the sandbox frame (load it in `<iframe sandbox="allow-scripts">`, never with allow-same-origin). */
export function sandboxFrameHtml(): string {
  return `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${SANDBOX_FRAME_CSP}"></head><body><script>${FRAME_SCRIPT}</script></body></html>`;
}
