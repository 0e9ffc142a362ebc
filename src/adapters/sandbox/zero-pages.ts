/** The unit in which memory is searched for zeros: the kernel's page, which a write (or a read) makes resident. */
export const PAGE_BYTES = 4096;

/** Whether bytes [from, to) of `view` are all zero (read a word at a time where aligned). */
export function isZero(view: Uint8Array | Int8Array, from: number, to: number): boolean {
  const absolute = view.byteOffset + from;
  if (NodeBuffer && to - from === PAGE_BYTES && absolute % PAGE_BYTES === 0)
    return samePage(new Uint8Array(view.buffer), absolute, ZERO_PAGE, 0);
  if (absolute % 4 === 0 && (to - from) % 4 === 0) {
    const words = new Int32Array(view.buffer, absolute, (to - from) / 4);
    for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
    return true;
  }
  for (let i = from; i < to; i++) if (view[i] !== 0) return false;
  return true;
}

// Node's Buffer compares with memcmp, several times faster than a loop of words; a browser worker has none.
const NodeBuffer = (globalThis as { Buffer?: typeof import('node:buffer').Buffer }).Buffer;
const buffers = new WeakMap<ArrayBufferLike, import('node:buffer').Buffer>();
const ZERO_PAGE = new Uint8Array(PAGE_BYTES);

// A Buffer over the whole of `memory`, made once per memory (a grown wasm memory is a new one).
function bufferOver(
  memory: ArrayBufferLike,
  Buffer: typeof import('node:buffer').Buffer,
): import('node:buffer').Buffer {
  let buffer = buffers.get(memory);
  if (!buffer) buffers.set(memory, (buffer = Buffer.from(memory)));
  return buffer;
}

/** Whether the page of `view` at byte `start` holds the same bytes as the page of `other` at byte `otherStart`. */
export function samePage(view: Uint8Array, start: number, other: Int8Array | Uint8Array, otherStart: number): boolean {
  if (NodeBuffer) {
    const a = bufferOver(view.buffer, NodeBuffer);
    const b = bufferOver(other.buffer, NodeBuffer);
    const from = view.byteOffset + start;
    const otherFrom = other.byteOffset + otherStart;
    return b.compare(a, from, from + PAGE_BYTES, otherFrom, otherFrom + PAGE_BYTES) === 0;
  }
  const a = new Int32Array(view.buffer, view.byteOffset + start, PAGE_BYTES / 4);
  const b = new Int32Array(other.buffer, other.byteOffset + otherStart, PAGE_BYTES / 4);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The runs of whole pages of zeros in the first `end` bytes of `view`, as pairs of [first page, page after the run). */
export function zeroPageRuns(view: Uint8Array | Int8Array, end = view.length): Uint32Array {
  const runs: number[] = [];
  const pages = Math.floor(Math.min(end, view.length) / PAGE_BYTES);
  let runStart = -1;
  for (let page = 0; page < pages; page++) {
    const zero = isZero(view, page * PAGE_BYTES, (page + 1) * PAGE_BYTES);
    if (zero && runStart < 0) runStart = page;
    if (!zero && runStart >= 0) {
      runs.push(runStart, page);
      runStart = -1;
    }
  }
  if (runStart >= 0) runs.push(runStart, pages);
  return Uint32Array.from(runs);
}
