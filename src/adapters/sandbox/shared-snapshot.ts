import { isZero, PAGE_BYTES, zeroPageRuns } from './zero-pages.ts';

/**
 * A Pyodide memory snapshot held once in memory that every interpreter thread of a host process
 * boots from: no thread reads the file or copies it, and the image's pages of zeros are never
 * written into an interpreter's fresh (already zero) memory, which would make them resident.
 */
export interface SharedSnapshot {
  /** The snapshot file's bytes; nothing writes them after `shareSnapshot`. */
  bytes: SharedArrayBuffer;
  /** Where the memory image starts in `bytes` (the snapshot's header says so). */
  imageStart: number;
  /** Runs of the image's pages that hold only zeros, as pairs of [first page, page after the run). */
  zeroRuns: Uint32Array;
}

/** Copies a snapshot file's bytes into shared memory and finds its image's pages of zeros. */
export function shareSnapshot(file: Uint8Array): SharedSnapshot {
  const bytes = new SharedArrayBuffer(file.byteLength);
  new Uint8Array(bytes).set(file);
  const imageStart = imageStartOf(file);
  return { bytes, imageStart, zeroRuns: zeroPageRuns(new Uint8Array(bytes, imageStart)) };
}

// Pyodide's snapshot header: a magic word, then the image's offset in the file (little endian).
function imageStartOf(file: Uint8Array): number {
  if (file.byteLength < 8) return file.byteLength;
  const start = new DataView(file.buffer, file.byteOffset, 8).getUint32(4, true);
  return start <= file.byteLength ? start : file.byteLength;
}

/**
 * Writes `snapshot`'s image into `memory` from its start, skipping the image's pages of zeros:
 * below `untouchedFrom` such a page of `memory` is read and cleared if it is not zero; from
 * `untouchedFrom` on, `memory` is known never to have been written (still zero), so it is not even
 * read (a read, too, would make it resident). The result is the image byte for byte.
 */
export function writeImage(
  memory: Int8Array,
  snapshot: SharedSnapshot,
  untouchedFrom = Infinity,
  copy = Int8Array.prototype.set,
): void {
  const image = new Int8Array(snapshot.bytes, snapshot.imageStart);
  const runs = snapshot.zeroRuns;
  let written = 0;
  for (let i = 0; i + 1 < runs.length; i += 2) {
    const from = Math.min(runs[i]! * PAGE_BYTES, image.length);
    const to = Math.min(runs[i + 1]! * PAGE_BYTES, image.length);
    if (from > written) copy.call(memory, image.subarray(written, from), written);
    const checkTo = Math.min(to, Math.max(from, untouchedFrom));
    if (!isZero(memory, from, checkTo)) memory.fill(0, from, checkTo);
    written = Math.max(written, to);
  }
  if (written < image.length) copy.call(memory, image.subarray(written), written);
}

/**
 * Runs `boot` (a `loadPyodide` given `snapshotView(snapshot)`) so that Pyodide's write of the
 * image into its new memory goes through `writeImage`, with `untouchedFrom` asked at that moment;
 * every other typed-array copy is untouched.
 */
export async function bootingFrom<T>(
  snapshot: SharedSnapshot,
  untouchedFrom: () => number,
  boot: () => Promise<T>,
): Promise<T> {
  const own = Object.getOwnPropertyDescriptor(Int8Array.prototype, 'set');
  const copy = Int8Array.prototype.set;
  function set(this: Int8Array, source: ArrayLike<number>, offset?: number): void {
    const fromImage =
      source instanceof Uint8Array &&
      source.buffer === snapshot.bytes &&
      source.byteOffset === snapshot.imageStart &&
      !offset &&
      this.length >= source.length;
    if (fromImage) writeImage(this, snapshot, untouchedFrom(), copy);
    else copy.call(this, source, offset);
  }
  Object.defineProperty(Int8Array.prototype, 'set', { value: set, writable: true, configurable: true });
  try {
    return await boot();
  } finally {
    if (own) Object.defineProperty(Int8Array.prototype, 'set', own);
    else Reflect.deleteProperty(Int8Array.prototype, 'set');
  }
}

/** The whole snapshot file as Pyodide's `_loadSnapshot` takes it (a view of the shared bytes, not a copy). */
export function snapshotView(snapshot: SharedSnapshot): Uint8Array {
  return new Uint8Array(snapshot.bytes);
}
