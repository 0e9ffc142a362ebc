import { describe, expect, it } from 'vitest';
import { bootingFrom, shareSnapshot, snapshotView, writeImage } from '../../../src/adapters/sandbox/shared-snapshot.ts';

const PAGE = 4096;

// A file laid out as Pyodide's: a header whose second word is the image's offset, then the image.
function snapshotFile(imageStart: number, image: Uint8Array): Uint8Array {
  const file = new Uint8Array(imageStart + image.length);
  new DataView(file.buffer).setUint32(4, imageStart, true);
  file.set(image, imageStart);
  return file;
}

// Pages: data, zero, zero, data, zero, then a 100-byte tail of data.
function sampleImage(): Uint8Array {
  const image = new Uint8Array(5 * PAGE + 100);
  for (const page of [0, 3]) image.fill(page + 7, page * PAGE, page * PAGE + 10);
  image[3 * PAGE + PAGE - 1] = 9;
  image.fill(5, 5 * PAGE);
  return image;
}

describe('shareSnapshot', () => {
  it('finds the runs of zero pages of the image (not of the header) and shares the bytes', () => {
    const file = snapshotFile(36, sampleImage());
    const shared = shareSnapshot(file);
    expect(shared.imageStart).toBe(36);
    expect([...shared.zeroRuns]).toEqual([1, 3, 4, 5]);
    expect(shared.bytes).toBeInstanceOf(SharedArrayBuffer);
    expect(new Uint8Array(shared.bytes)).toEqual(file);
  });

  it('takes a header that points past the file as an empty image', () => {
    const file = new Uint8Array(64);
    new DataView(file.buffer).setUint32(4, 1_000_000, true);
    const shared = shareSnapshot(file);
    expect(shared.imageStart).toBe(64);
    expect(shared.zeroRuns.length).toBe(0);
  });
});

describe('writeImage', () => {
  it('leaves memory byte for byte equal to the image, also where it held something in a zero page', () => {
    const image = sampleImage();
    const shared = shareSnapshot(snapshotFile(36, image));
    const memory = new Int8Array(8 * PAGE);
    memory.fill(1, 1 * PAGE + 17, 1 * PAGE + 18);
    memory.fill(2, 4 * PAGE, 5 * PAGE);
    writeImage(memory, shared);
    expect(new Uint8Array(memory.buffer, 0, image.length)).toEqual(image);
  });

  it('never writes a zero page of fresh memory (it would become resident)', () => {
    const shared = shareSnapshot(snapshotFile(8, sampleImage()));
    const written: [number, number][] = [];
    const memory = new Int8Array(8 * PAGE);
    const copy = function (this: Int8Array, source: ArrayLike<number>, offset?: number) {
      written.push([offset ?? 0, source.length]);
      Int8Array.prototype.set.call(this, source, offset);
    } as typeof Int8Array.prototype.set;
    writeImage(memory, shared, Infinity, copy);
    expect(written).toEqual([
      [0, PAGE],
      [3 * PAGE, PAGE],
      [5 * PAGE, 100],
    ]);
  });

  it('neither reads nor clears memory from `untouchedFrom` on (known to be zero), and still checks below it', () => {
    const shared = shareSnapshot(snapshotFile(8, sampleImage()));
    const memory = new Int8Array(8 * PAGE);
    memory[1 * PAGE + 5] = 1;
    memory[4 * PAGE + 5] = 1;
    writeImage(memory, shared, 3 * PAGE);
    expect(memory[1 * PAGE + 5]).toBe(0);
    expect(memory[4 * PAGE + 5]).toBe(1);
  });
});

describe('bootingFrom', () => {
  it("routes only the image's write into memory through writeImage, and puts typed-array copies back after", async () => {
    const shared = shareSnapshot(snapshotFile(16, sampleImage()));
    const memory = new Int8Array(8 * PAGE).fill(3);
    const other = new Int8Array(4);
    const ownBefore = Object.getOwnPropertyDescriptor(Int8Array.prototype, 'set');
    await bootingFrom(
      shared,
      () => Infinity,
      async () => {
        other.set([1, 2, 3, 4]);
        memory.set(snapshotView(shared).subarray(shared.imageStart));
      },
    );
    expect([...other]).toEqual([1, 2, 3, 4]);
    expect(new Uint8Array(memory.buffer, 0, sampleImage().length)).toEqual(sampleImage());
    expect([...memory.subarray(sampleImage().length)].every((byte) => byte === 3)).toBe(true);
    expect(Object.getOwnPropertyDescriptor(Int8Array.prototype, 'set')).toEqual(ownBefore);
  });

  it('puts typed-array copies back when the boot fails', async () => {
    const shared = shareSnapshot(snapshotFile(16, sampleImage()));
    await expect(
      bootingFrom(
        shared,
        () => Infinity,
        () => Promise.reject(new Error('no memory')),
      ),
    ).rejects.toThrow('no memory');
    expect(Object.getOwnPropertyDescriptor(Int8Array.prototype, 'set')).toBeUndefined();
  });
});
