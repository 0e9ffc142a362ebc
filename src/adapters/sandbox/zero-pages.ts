/** The unit in which memory is searched for zeros: the kernel's page, which a write (or a read) makes resident. */
export const PAGE_BYTES = 4096;

type NodeBufferClass = typeof import('node:buffer').Buffer;

// Node's Buffer compares with memcmp, several times faster than a loop of words; a browser worker has none.
const NodeBuffer = (globalThis as { Buffer?: NodeBufferClass }).Buffer;
const buffers = new WeakMap<ArrayBufferLike, InstanceType<NodeBufferClass>>();

/** Bytes compared against zeros in one piece at most. */
export const ZERO_CHUNK_BYTES = 16 * PAGE_BYTES;
const ZEROS = new Uint8Array(ZERO_CHUNK_BYTES);

// A Buffer over the whole of `memory`, made once per memory (a grown wasm memory is a new one).
function bufferOver(memory: ArrayBufferLike, Buffer: NodeBufferClass): InstanceType<NodeBufferClass> {
  let buffer = buffers.get(memory);
  if (!buffer) buffers.set(memory, (buffer = Buffer.from(memory)));
  return buffer;
}

/** Whether `length` bytes of `view` from `start` equal those of `other` from `otherStart` (all three multiples of 4 from their buffers' starts). */
export function sameBytes(
  view: Uint8Array | Int8Array,
  start: number,
  other: Uint8Array | Int8Array,
  otherStart: number,
  length: number,
): boolean {
  const from = view.byteOffset + start;
  const otherFrom = other.byteOffset + otherStart;
  if (NodeBuffer) {
    const a = bufferOver(view.buffer, NodeBuffer);
    return bufferOver(other.buffer, NodeBuffer).compare(a, from, from + length, otherFrom, otherFrom + length) === 0;
  }
  const a = new Int32Array(view.buffer, from, length / 4);
  const b = new Int32Array(other.buffer, otherFrom, length / 4);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Whether bytes [from, to) of `view` are all zero (compared a chunk at a time where aligned). */
export function isZero(view: Uint8Array | Int8Array, from: number, to: number): boolean {
  if ((view.byteOffset + from) % 4 === 0 && (to - from) % 4 === 0) {
    for (let at = from; at < to; at += ZERO_CHUNK_BYTES)
      if (!sameBytes(view, at, ZEROS, 0, Math.min(ZERO_CHUNK_BYTES, to - at))) return false;
    return true;
  }
  for (let i = from; i < to; i++) if (view[i] !== 0) return false;
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
