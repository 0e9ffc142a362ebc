import { isZero, PAGE_BYTES, sameBytes, ZERO_CHUNK_BYTES, zeroPageRuns } from './zero-pages.ts';

/** The parts of Pyodide's Emscripten module a memory image reads (internal, but stable across the versions this project pins). */
export interface InterpreterModule {
  HEAP8: Int8Array;
  /** The allocator's break (`_sbrk(0)`): the allocator only ever raises it, and nothing writes memory above it. */
  _sbrk?(increment: number): number;
  FS: FileSystem;
  wasmTable: { length: number };
  LDSO: { loadedLibsByName: Record<string, unknown> };
  stackSave(): number;
  hiwire: { num_keys(): number };
}

interface FileSystem {
  streams: ({ node?: { mode: number } } | null | undefined)[];
  cwd(): string;
  isChrdev(mode: number): boolean;
  [operation: string]: unknown;
}

// File system operations that change a file, a folder or the working folder. Writes to a
// character device (stdout, stderr) change nothing that stays.
const CHANGES = [
  'mknod',
  'mkdir',
  'symlink',
  'rename',
  'rmdir',
  'unlink',
  'chmod',
  'fchmod',
  'lchmod',
  'chown',
  'fchown',
  'lchown',
  'truncate',
  'ftruncate',
  'utime',
  'mount',
  'unmount',
  'chdir',
  'msync',
];

/** A restored interpreter's memory may grow to this many times its image before it is discarded instead (the zeroed growth stays resident). */
const MAX_GROWTH = 4;

// Everything of an interpreter that lives outside its linear memory and that Python can change.
interface Outside {
  streams: number;
  cwd: string;
  table: number;
  libs: number;
  stack: number;
  refs: number;
}

function outside(module: InterpreterModule): Outside {
  return {
    streams: module.FS.streams.filter(Boolean).length,
    cwd: module.FS.cwd(),
    table: module.wasmTable.length,
    libs: Object.keys(module.LDSO.loadedLibsByName).length,
    stack: module.stackSave(),
    refs: module.hiwire.num_keys(),
  };
}

/** The pages of a memory that differ from its image, with their bytes: one environment's state, parked while another runs. */
export interface PageDiff {
  /** Page numbers, ascending. */
  pages: Uint32Array;
  /** Each page's bytes, in the order of `pages`. */
  bytes: Uint8Array;
}

// A memory image without its pages of zeros: the kept bytes, and where each run of them goes.
interface SparseBytes {
  /** The memory's length when the image was taken. */
  length: number;
  /** Pairs of [start, end) byte offsets of the runs kept, in order. */
  runs: number[];
  kept: Int8Array;
}

/**
 * A copy of a sealed interpreter's whole linear memory, taken between calls, that a later
 * `restore` writes back byte for byte: every Python object, module, builtin and allocator is then
 * as it was, so the next environment finds what a freshly booted interpreter holds. Pages of
 * zeros are not kept: restore makes sure zeros are there, writing only the pages that hold
 * something, so memory nothing ever used stays out of the resident set. Memory above the
 * allocator's break, never written before the image is taken, is taken as zero without being
 * read (a read would fault it in). What lives outside that memory (the file system, open files,
 * the working folder, the function table, loaded libraries, JavaScript references, the stack) is
 * watched instead: when any of it changed, `restore` refuses and the interpreter must be discarded.
 */
export class MemoryImage {
  private changedFiles = false;
  // Where each page's bytes start in `bytes.kept`, or -1 for a page of zeros.
  private readonly keptAt: Int32Array;

  private constructor(
    private readonly module: InterpreterModule,
    private readonly bytes: SparseBytes,
    private readonly before: Outside,
  ) {
    this.keptAt = keptOffsets(bytes);
    const fs = module.FS;
    for (const name of CHANGES) {
      const operation = fs[name];
      if (typeof operation !== 'function') continue;
      fs[name] = (...args: unknown[]) => {
        this.changedFiles = true;
        return (operation as (...a: unknown[]) => unknown).apply(fs, args);
      };
    }
    const write = fs['write'] as (stream: { node?: { mode: number } }, ...rest: unknown[]) => unknown;
    fs['write'] = (stream: { node?: { mode: number } }, ...rest: unknown[]) => {
      if (!stream?.node || !fs.isChrdev(stream.node.mode)) this.changedFiles = true;
      return write.call(fs, stream, ...rest);
    };
  }

  /** Takes the image now; call it between calls, once the interpreter is sealed and before any environment runs. */
  static capture(module: InterpreterModule): MemoryImage {
    return new MemoryImage(module, sparseCopy(module), outside(module));
  }

  /** Writes the image back and returns null, or returns why it cannot (then nothing was written and the interpreter must be discarded). */
  restore(): string | null {
    const why = this.refusal();
    if (why) return why;
    const heap = this.module.HEAP8;
    const { runs, kept } = this.bytes;
    let written = 0;
    let from = 0;
    for (let i = 0; i + 1 < runs.length; i += 2) {
      const [start, end] = [runs[i]!, runs[i + 1]!];
      clear(heap, written, start);
      heap.set(kept.subarray(from, from + end - start), start);
      from += end - start;
      written = end;
    }
    clear(heap, written, heap.length);
    return null;
  }

  /**
   * The pages that now differ from the image (up to the allocator's break, which nothing writes
   * above), after checking, as `restore` does, that nothing outside memory changed: a string says
   * why the state cannot be parked (then the interpreter must stay with it or be discarded),
   * also when the pages would take more than `maxBytes`.
   */
  diff(maxBytes = Infinity): PageDiff | string {
    const why = this.refusal();
    if (why) return why;
    const heap = new Uint8Array(this.module.HEAP8.buffer);
    const allocatorBreak = this.module._sbrk ? this.module._sbrk(0) >>> 0 : heap.length;
    const end = Math.min(heap.length, Math.ceil(allocatorBreak / PAGE_BYTES) * PAGE_BYTES);
    const pages: number[] = [];
    const { runs, kept } = this.bytes;
    let at = 0;
    let keptFrom = 0;
    for (let i = 0; i + 1 < runs.length && at < end; i += 2) {
      const [start, stop] = [Math.min(runs[i]!, end), Math.min(runs[i + 1]!, end)];
      changedPages(heap, at, start, null, 0, pages);
      changedPages(heap, start, stop, kept, keptFrom, pages);
      keptFrom += runs[i + 1]! - runs[i]!;
      at = runs[i + 1]!;
    }
    changedPages(heap, at, end, null, 0, pages);
    if (pages.length * PAGE_BYTES > maxBytes)
      return `its ${Math.ceil((pages.length * PAGE_BYTES) / 2 ** 20)} MB of changed memory are more than the room left to park (${Math.floor(maxBytes / 2 ** 20)} MB)`;
    const bytes = new Uint8Array(pages.length * PAGE_BYTES);
    pages.forEach((page, i) => bytes.set(heap.subarray(page * PAGE_BYTES, (page + 1) * PAGE_BYTES), i * PAGE_BYTES));
    return { pages: Uint32Array.from(pages), bytes };
  }

  /** Writes the image's bytes back into the pages of `diff` only: when `diff` is this memory's current difference, the memory is then exactly the image. */
  revert(diff: PageDiff): void {
    const heap = new Uint8Array(this.module.HEAP8.buffer);
    for (const page of diff.pages) {
      const start = page * PAGE_BYTES;
      const at = page < this.keptAt.length ? this.keptAt[page]! : -1;
      if (at < 0) heap.fill(0, start, start + PAGE_BYTES);
      else heap.set(this.bytes.kept.subarray(at, at + PAGE_BYTES), start);
    }
  }

  /** Writes the pages of `diff` over a memory that is exactly the image: the parked state is back, or a string says why not. */
  apply(diff: PageDiff): string | null {
    const heap = new Uint8Array(this.module.HEAP8.buffer);
    const last = diff.pages.length > 0 ? diff.pages[diff.pages.length - 1]! : -1;
    if ((last + 1) * PAGE_BYTES > heap.length) return 'the parked state is larger than the memory';
    diff.pages.forEach((page, i) =>
      heap.set(diff.bytes.subarray(i * PAGE_BYTES, (i + 1) * PAGE_BYTES), page * PAGE_BYTES),
    );
    return null;
  }

  private refusal(): string | null {
    if (this.changedFiles) return 'the environment changed the file system';
    const now = outside(this.module);
    const changed = (Object.keys(now) as (keyof Outside)[]).filter((key) => now[key] !== this.before[key]);
    if (changed.length > 0) return `state outside memory changed (${changed.join(', ')})`;
    if (this.module.HEAP8.length > this.bytes.length * MAX_GROWTH)
      return `memory grew to ${Math.round(this.module.HEAP8.length / 2 ** 20)} MB`;
    return null;
  }
}

// Zeros bytes [from, to) of `heap` page by page, writing only pages that hold something: a page
// still zero is only read, so memory nothing ever used does not become resident.
function clear(heap: Int8Array, from: number, to: number): void {
  let start = from;
  while (start < to) {
    const end = Math.min(to, (Math.floor(start / PAGE_BYTES) + 1) * PAGE_BYTES);
    if (!isZero(heap, start, end)) heap.fill(0, start, end);
    start = end;
  }
}

// Adds to `pages` the pages of `heap` in [from, to) that differ from `reference` (read from
// `referenceStart` on) or, when it is null, from zeros: a chunk of pages at a time, page by page
// only inside a chunk that differs.
function changedPages(
  heap: Uint8Array,
  from: number,
  to: number,
  reference: Int8Array | null,
  referenceStart: number,
  pages: number[],
): void {
  for (let at = from; at < to; at += ZERO_CHUNK_BYTES) {
    const length = Math.min(ZERO_CHUNK_BYTES, to - at);
    const offset = referenceStart + at - from;
    const same = (start: number, bytes: number) =>
      reference ? sameBytes(heap, start, reference, offset + start - at, bytes) : isZero(heap, start, start + bytes);
    if (same(at, length)) continue;
    for (let page = at; page < at + length; page += PAGE_BYTES)
      if (!same(page, PAGE_BYTES)) pages.push(page / PAGE_BYTES);
  }
}

function keptOffsets({ runs, length }: SparseBytes): Int32Array {
  const offsets = new Int32Array(Math.ceil(length / PAGE_BYTES)).fill(-1);
  let from = 0;
  for (let i = 0; i + 1 < runs.length; i += 2) {
    for (let at = runs[i]!; at < runs[i + 1]!; at += PAGE_BYTES) offsets[at / PAGE_BYTES] = from + at - runs[i]!;
    from += runs[i + 1]! - runs[i]!;
  }
  return offsets;
}

function sparseCopy(module: InterpreterModule): SparseBytes {
  const heap = module.HEAP8;
  const allocatorBreak = module._sbrk ? module._sbrk(0) >>> 0 : heap.length;
  const end = Math.min(heap.length, Math.ceil(allocatorBreak / PAGE_BYTES) * PAGE_BYTES);
  const zeros = zeroPageRuns(heap, end);
  const runs: number[] = [];
  let at = 0;
  for (let i = 0; i + 1 < zeros.length; i += 2) {
    const zeroStart = zeros[i]! * PAGE_BYTES;
    if (zeroStart > at) runs.push(at, zeroStart);
    at = zeros[i + 1]! * PAGE_BYTES;
  }
  if (end > at) runs.push(at, end);
  let size = 0;
  for (let i = 0; i + 1 < runs.length; i += 2) size += runs[i + 1]! - runs[i]!;
  const kept = new Int8Array(size);
  let offset = 0;
  for (let i = 0; i + 1 < runs.length; i += 2) {
    kept.set(heap.subarray(runs[i]!, runs[i + 1]!), offset);
    offset += runs[i + 1]! - runs[i]!;
  }
  return { length: heap.length, runs, kept };
}
