// A bounded zip reader for untrusted archives: entries come from the central directory, each is
// inflated in small chunks and dropped the moment it passes a cap (nothing is allocated from a
// declared size), and its CRC-32 and size are checked against the directory. Every entry left out
// is returned as a problem line with its name and the reason.
import { Inflate } from 'fflate';
import type { ImportProblem } from '../../formats/export/files.ts';
import { formatBytes } from '../../formats/import/import-limits.ts';
import { errorMessage } from '../../core/error-message.ts';

/** Caps of one zip read. */
export interface ZipLimits {
  /** Most entries read; the rest are reported in one line. */
  maxEntries: number;
  /** Largest entry once inflated, in bytes. */
  maxEntryBytes: number;
}

/** Bytes still allowed for the whole import; each entry read takes its size from it. */
export interface ByteBudget {
  remaining: number;
}

/** One file entry read from a zip. */
export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

const CHUNK = 8 * 1024;
const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const names = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8');

const CRC_TABLE = Uint32Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

/** CRC-32 (the zip polynomial) of bytes, continuing from `crc` (0 to start). */
export function crc32(data: Uint8Array, crc = 0): number {
  let c = ~crc >>> 0;
  for (let i = 0; i < data.length; i++) c = CRC_TABLE[(c ^ data[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/** Why a zip entry name is unsafe to use as a path (`..`, absolute, drive letter, backslash, NUL), or null. */
export function unsafePathReason(name: string): string | null {
  if (name.includes('\\')) return 'a backslash in the path';
  if (name.includes('\0')) return 'a NUL byte in the path';
  if (name.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/.test(name)) return 'a drive letter';
  if (name.split('/').includes('..')) return 'a ".." segment';
  return null;
}

function findEndRecord(view: DataView): number {
  for (let at = view.byteLength - 22; at >= Math.max(0, view.byteLength - 22 - 0xffff); at--)
    if (view.getUint32(at, true) === EOCD) return at;
  return -1;
}

function inflateBounded(data: Uint8Array, cap: number): { bytes: Uint8Array; crc: number } | 'too large' {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let crc = 0;
  const inflater = new Inflate((chunk) => {
    size += chunk.length;
    if (size > cap) return;
    chunks.push(chunk);
    crc = crc32(chunk, crc);
  });
  for (let at = 0; at < data.length && size <= cap; at += CHUNK)
    inflater.push(data.subarray(at, at + CHUNK), at + CHUNK >= data.length);
  if (data.length === 0) inflater.push(data, true);
  if (size > cap) return 'too large';
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return { bytes, crc };
}

/**
 * Reads the file entries of a zip within the limits and the byte budget. Folders are not files
 * and are passed over; every other entry left out (unsafe path, macOS metadata, encrypted, an
 * unknown method, over a cap, cut short, corrupt, CRC or size mismatch, duplicate) is a problem
 * `<zipName>:<entry>` with the reason.
 */
export function readZipEntries(
  bytes: Uint8Array,
  zipName: string,
  limits: ZipLimits,
  budget: ByteBudget,
): { entries: ZipEntry[]; problems: ImportProblem[] } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const problems: ImportProblem[] = [];
  const entries: ZipEntry[] = [];
  const fail = (source: string, reason: string) => void problems.push({ source, reason, kept: false });
  const end = findEndRecord(view);
  if (end < 0)
    return (
      fail(
        zipName,
        'expected a zip with an end-of-directory record, saw none (cut short or not a zip). Fix: zip the files again',
      ),
      { entries, problems }
    );
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (count === 0xffff || at === 0xffffffff)
    return (
      fail(zipName, 'a ZIP64 archive, which this app does not read. Fix: zip fewer or smaller files'),
      { entries, problems }
    );
  if (count > limits.maxEntries)
    fail(
      zipName,
      `expected at most ${limits.maxEntries} entries, saw ${count}; entries after the first ${limits.maxEntries} were not read. Fix: split the zip`,
    );
  const seen = new Set<string>();
  for (let i = 0; i < Math.min(count, limits.maxEntries); i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== CENTRAL)
      return (
        fail(
          zipName,
          `central directory cut short at entry ${i + 1} of ${count}; the rest was not read. Fix: zip the files again`,
        ),
        { entries, problems }
      );
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const crc = view.getUint32(at + 16, true);
    const packed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameBytes = bytes.subarray(at + 46, at + 46 + view.getUint16(at + 28, true));
    const local = view.getUint32(at + 42, true);
    at += 46 + nameBytes.length + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    let name: string;
    try {
      name = names.decode(nameBytes);
    } catch {
      fail(
        `${zipName}:${lossy.decode(nameBytes)}`,
        'expected an entry name in UTF-8, saw other bytes; skipped. Fix: zip with UTF-8 names',
      );
      continue;
    }
    const source = `${zipName}:${name}`;
    if (name.endsWith('/') && size === 0) continue;
    const unsafe = unsafePathReason(name);
    if (unsafe)
      fail(
        source,
        `expected a relative path with "/" separators, saw ${unsafe}; skipped (an unsafe path). Fix: zip the folder from inside it`,
      );
    else if (name.startsWith('__MACOSX/')) fail(source, 'macOS metadata, not part of the import; skipped');
    else if (seen.has(name)) fail(source, 'a second entry with the same name; the first one is kept');
    else if (flags & 1)
      fail(source, 'expected an unencrypted entry, saw an encrypted one; skipped. Fix: zip without a password');
    else if (method !== 0 && method !== 8)
      fail(
        source,
        `expected stored or deflated data, saw compression method ${method}; skipped. Fix: zip with deflate`,
      );
    else if (size > limits.maxEntryBytes || size > budget.remaining)
      fail(
        source,
        `declares ${formatBytes(size)}; expected at most ${formatBytes(Math.min(limits.maxEntryBytes, budget.remaining))} (per-file cap or what is left of the import's total); skipped, not inflated`,
      );
    else {
      const entry = readEntry(bytes, view, local, packed, method, size);
      if (typeof entry === 'string') fail(source, entry);
      else if (entry.bytes.length !== size)
        fail(
          source,
          `the directory declares ${size} bytes, the data inflates to ${entry.bytes.length}; skipped (a lying or corrupt header). Fix: zip the files again`,
        );
      else if (entry.crc !== crc)
        fail(
          source,
          `CRC-32 mismatch: the directory says ${crc.toString(16).padStart(8, '0')}, the data has ${entry.crc.toString(16).padStart(8, '0')}; skipped (corrupt or tampered). Fix: zip the files again`,
        );
      else {
        seen.add(name);
        budget.remaining -= size;
        entries.push({ name, bytes: entry.bytes });
      }
    }
  }
  return { entries, problems };
}

// Reads one entry's data, inflating no further than one byte past its declared size.
function readEntry(
  bytes: Uint8Array,
  view: DataView,
  local: number,
  packed: number,
  method: number,
  declared: number,
): { bytes: Uint8Array; crc: number } | string {
  if (local + 30 > bytes.length || view.getUint32(local, true) !== LOCAL)
    return 'expected a local file header where the directory points, saw none; skipped. Fix: zip the files again';
  const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (start + packed > bytes.length) return `expected ${packed} bytes of data, the zip ends first (cut short); skipped`;
  const data = bytes.subarray(start, start + packed);
  if (method === 0) return { bytes: data, crc: crc32(data) };
  try {
    const out = inflateBounded(data, declared);
    return out === 'too large'
      ? `the directory declares ${declared} bytes, the data inflates to more; inflating stopped there and the entry was skipped (a lying or corrupt header). Fix: zip the files again`
      : out;
  } catch (error) {
    return `expected deflate data, saw a corrupt stream (${errorMessage(error)}); skipped`;
  }
}
