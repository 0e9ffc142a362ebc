// Hostile zips, built in the test: bombs (honest and lying headers), CRC tampering, entry floods,
// unsafe paths, invalid UTF-8 and size caps. Each must end as a named problem line, and no entry
// may be inflated past what it declares.
import { deflateSync, strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../../src/adapters/store/sha256.ts';
import { toImportFiles } from '../../../src/adapters/store/import-read.ts';
import { unzipFiles } from '../../../src/adapters/store/zip.ts';
import { crc32 } from '../../../src/adapters/store/zip-read.ts';
import { MAX_IMPORT_FILE_BYTES, MAX_IMPORT_FILES } from '../../../src/formats/import/import-limits.ts';

const CENTRAL = 0x02014b50;

/** Offset of the central directory record of the entry called `name`. */
function centralRecord(zip: Uint8Array, name: string): number {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; at + 46 < zip.length; at++) {
    if (view.getUint32(at, true) !== CENTRAL) continue;
    const length = view.getUint16(at + 28, true);
    if (new TextDecoder().decode(zip.subarray(at + 46, at + 46 + length)) === name) return at;
  }
  throw new Error(`no central record for ${name}`);
}

function patch(zip: Uint8Array, name: string, field: number, value: number, bytes: 2 | 4 = 4): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const at = centralRecord(out, name) + field;
  if (bytes === 4) view.setUint32(at, value, true);
  else view.setUint16(at, value, true);
  return out;
}

const reasonOf = (problems: Array<{ source: string; reason: string }>, source: string) =>
  problems.find((p) => p.source === source)?.reason;

describe('zip bombs', () => {
  it('an entry declaring more than the per-file cap is skipped without inflating it', () => {
    const zip = zipSync({
      'big.py': [new Uint8Array(MAX_IMPORT_FILE_BYTES + 1), { level: 9 }],
      'ok.py': strToU8('x = 1\n'),
    });
    const { files, problems } = unzipFiles(zip, 'bomb.zip');
    expect(files.map((f) => f.path)).toEqual(['ok.py']);
    expect(reasonOf(problems, 'bomb.zip:big.py')).toMatch(
      /^declares 67108865 bytes \(64 MB\); expected at most 64 MB .*not inflated$/,
    );
  });

  it('a lying header (declares 100 bytes, inflates to 32 MB) stops inflating just past the claim and is a problem', () => {
    const zip = patch(zipSync({ 'liar.py': [new Uint8Array(32 * 1024 * 1024), { level: 9 }] }), 'liar.py', 24, 100);
    const started = performance.now();
    const { files, problems } = unzipFiles(zip, 'l.zip');
    expect(performance.now() - started).toBeLessThan(2000);
    expect(files).toEqual([]);
    expect(reasonOf(problems, 'l.zip:liar.py')).toMatch(
      /^the directory declares 100 bytes, the data inflates to more; inflating stopped/,
    );
  });

  it('a header declaring more than the data holds is a size mismatch, not a truncated or padded file', () => {
    const zip = patch(zipSync({ 'short.py': strToU8('x = 1\n') }), 'short.py', 24, 600);
    expect(reasonOf(unzipFiles(zip, 's.zip').problems, 's.zip:short.py')).toBe(
      'the directory declares 600 bytes, the data inflates to 6; skipped (a lying or corrupt header). Fix: zip the files again',
    );
  });

  it('entries past the import total are skipped by name, the first ones kept', () => {
    const mb = new Uint8Array(1024 * 1024);
    const zip = zipSync({ 'a.py': mb, 'b.py': mb, 'c.py': mb });
    const { files, problems } = unzipFiles(zip, 't.zip', { remaining: 2.5 * 1024 * 1024 });
    expect(files.map((f) => f.path)).toEqual(['a.py', 'b.py']);
    expect(problems.map((p) => p.source)).toEqual(['t.zip:c.py']);
    expect(problems[0]!.reason).toMatch(
      /^declares 1 MB; expected at most 512 KB \(per-file cap or what is left of the import's total\)/,
    );
  });
});

describe('zip integrity', () => {
  it('checks the CRC-32 of every entry: one flipped byte of stored data is a named problem', () => {
    const zip = zipSync({
      'a.py': [strToU8('print("hello")\n'), { level: 0 }],
      'b.py': [strToU8('y = 2\n'), { level: 0 }],
    });
    // Flip a byte of the stored data itself (the first "h" may also turn up in a header's time stamp).
    const at = Buffer.from(zip).indexOf('print("hello")') + 'print("'.length;
    expect(zip[at]).toBe('h'.charCodeAt(0));
    zip[at] = 'j'.charCodeAt(0);
    const { files, problems } = unzipFiles(zip, 'c.zip');
    expect(files.map((f) => f.path)).toEqual(['b.py']);
    const crc = crc32(strToU8('print("hello")\n')).toString(16).padStart(8, '0');
    expect(reasonOf(problems, 'c.zip:a.py')).toMatch(
      new RegExp(`^CRC-32 mismatch: the directory says ${crc}, the data has [0-9a-f]{8}; skipped`),
    );
  });

  it('crc32 matches the standard check value', () => {
    expect(crc32(strToU8('123456789'))).toBe(0xcbf43926);
  });

  it('reads at most MAX_IMPORT_FILES entries and says how many there were', () => {
    const entries = Object.fromEntries(
      Array.from({ length: MAX_IMPORT_FILES + 5 }, (_, i) => [`f${i}.txt`, new Uint8Array(0)]),
    );
    const { files, problems } = unzipFiles(zipSync(entries), 'many.zip');
    expect(files).toHaveLength(MAX_IMPORT_FILES);
    expect(problems).toEqual([
      {
        source: 'many.zip',
        reason: `expected at most ${MAX_IMPORT_FILES} entries, saw ${MAX_IMPORT_FILES + 5}; entries after the first ${MAX_IMPORT_FILES} were not read. Fix: split the zip`,
        kept: false,
      },
    ]);
  });

  it('reports encrypted entries, unknown methods, duplicates and a cut-short zip', () => {
    const zip = patch(
      patch(zipSync({ 'enc.py': strToU8('a\n'), 'odd.py': strToU8('b\n') }), 'enc.py', 8, 1, 2),
      'odd.py',
      10,
      12,
      2,
    );
    const { problems } = unzipFiles(zip, 'z.zip');
    expect(reasonOf(problems, 'z.zip:enc.py')).toMatch(/^expected an unencrypted entry, saw an encrypted one/);
    expect(reasonOf(problems, 'z.zip:odd.py')).toMatch(/^expected stored or deflated data, saw compression method 12/);
    expect(unzipFiles(zip.subarray(0, zip.length - 30), 'cut.zip').problems).toEqual([
      expect.objectContaining({
        source: 'cut.zip',
        reason: expect.stringMatching(/^expected a zip with an end-of-directory record/),
      }),
    ]);
  });
});

describe('unsafe names and bytes', () => {
  it('every unsafe path is a problem line naming the entry, never dropped silently', () => {
    const names = [
      '../up.py',
      '..\\up.py',
      'a/../../b.py',
      '/etc/x.py',
      'C:/x.py',
      'c:x.py',
      'dir\\x.py',
      '__MACOSX/._a.py',
    ];
    const zip = zipSync(
      Object.fromEntries([...names.map((n) => [n, strToU8('x\n')]), ['games/ok.py', strToU8('ok\n')]]),
    );
    const { files, problems } = unzipFiles(zip, 'u.zip');
    expect(files.map((f) => f.path)).toEqual(['games/ok.py']);
    expect(problems.map((p) => p.source)).toEqual(names.map((n) => `u.zip:${n}`));
    for (const p of problems.slice(0, -1))
      expect(p.reason).toMatch(/^expected a relative path with "\/" separators, saw .*; skipped \(an unsafe path\)/);
    expect(problems.at(-1)!.reason).toBe('macOS metadata, not part of the import; skipped');
  });

  it('invalid UTF-8 is a problem line; valid text is hashed over exactly the bytes that run', async () => {
    const bad = new Uint8Array([...strToU8('x = "'), 0xc3, 0x28, ...strToU8('"\n')]);
    const good = strToU8('\uFEFFs = "caf\u00e9"\n');
    const { files, problems } = await toImportFiles([
      { path: 'p.zip', bytes: zipSync({ 'bad.py': bad, 'good.py': good }) },
    ]);
    expect(problems).toEqual([
      {
        source: 'bad.py',
        reason: 'expected UTF-8 text, saw invalid UTF-8 bytes (first on line 1); skipped. Fix: save the file as UTF-8',
        kept: false,
      },
    ]);
    expect(files).toEqual([{ path: 'good.py', text: '\uFEFFs = "caf\u00e9"\n', sha256: await sha256Hex(good) }]);
    expect(await sha256Hex(files[0]!.text)).toBe(files[0]!.sha256);
  });

  it('a plain file over the per-file cap is listed and not decoded', async () => {
    const { files, problems } = await toImportFiles([
      { path: 'huge.jsonl', bytes: new Uint8Array(MAX_IMPORT_FILE_BYTES + 1) },
      { path: 'small.jsonl', bytes: strToU8('{}\n') },
    ]);
    expect(files.map((f) => f.path)).toEqual(['small.jsonl']);
    expect(problems).toEqual([
      {
        source: 'huge.jsonl',
        reason:
          'expected a file of at most 64 MB, saw 67108865 bytes (64 MB); not read. Fix: split it into smaller files',
        kept: false,
      },
    ]);
  });

  it('a corrupt deflate stream is a problem line, not a crash', () => {
    const data = deflateSync(strToU8('x = 1\n'.repeat(100)));
    const zip = zipSync({ 'a.py': strToU8('x = 1\n'.repeat(100)) });
    const at = zip.findIndex((_, i) => data.every((b, j) => zip[i + j] === b));
    zip.fill(0xff, at, at + 4);
    expect(at).toBeGreaterThan(0);
    expect(reasonOf(unzipFiles(zip, 'd.zip').problems, 'd.zip:a.py')).toBe(
      'expected deflate data, saw a corrupt stream (invalid block type); skipped',
    );
  });
});
