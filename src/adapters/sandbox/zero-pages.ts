/** The unit in which memory is searched for zeros: the kernel's page, which a write (or a read) makes resident. */
export const PAGE_BYTES = 4096;

/** Whether bytes [from, to) of `view` are all zero (read a word at a time where aligned). */
export function isZero(view: Uint8Array | Int8Array, from: number, to: number): boolean {
  const absolute = view.byteOffset + from;
  if (absolute % 4 === 0 && (to - from) % 4 === 0) {
    const words = new Int32Array(view.buffer, absolute, (to - from) / 4);
    for (let i = 0; i < words.length; i++) if (words[i] !== 0) return false;
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
